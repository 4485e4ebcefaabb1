// Runs the statistics kernels (kernels/stats.cu) on the CPU through emu.h
// and compares their table and contacts with a plain reference, word for
// word: random labelings with runs (2D and 3D, widths that cut segments
// unevenly), float intensities with a slope and intercept. Development
// only: cuda/emu/run.sh stats [seed]  (builds this file instead of check.cpp).
#include "emu.h"
#include "all_kernels.cu"

#include <cstdio>
#include <cstdlib>
#include <array>
#include <cstring>
#include <map>
#include <random>
#include <tuple>
#include <vector>

static int failures = 0;

// wide returns v as three 64-bit words of a 192-bit two's complement number.
static std::array<su64, 3> wide(const si128 v)
{
  return {(su64)v, (su64)((su128)v >> 64), v < 0 ? ~0ull : 0ull};
}

// limbs returns the sum of the K limb words at p (kernels/stats.cu's
// slimbs) as wide does.
static std::array<su64, 3> limbs(const su64* p, const int K)
{
  std::array<su64, 3> x{};
  for (int k = 0; k < K; k++) {
    // word k shifted by 32k, sign-extended for the last.
    su64 v[4] = {p[k], 0, 0, 0};
    if (k == K - 1 && (long long)p[k] < 0) v[1] = v[2] = v[3] = ~0ull;
    su64 sh[3] = {};
    const int q = 32 * k / 64, r = 32 * k % 64;
    for (int i = 0; i < 3; i++) {
      const int j = i - q;
      if (j < 0) continue;
      sh[i] = r ? (v[j] << r) | (j > 0 ? v[j - 1] >> (64 - r) : 0) : v[j];
    }
    unsigned c = 0;
    for (int i = 0; i < 3; i++) {
      const su128 t = (su128)x[i] + sh[i] + c;
      x[i] = (su64)t;
      c = (unsigned)(t >> 64);
    }
  }
  return x;
}

// runAbsmax and runPass launch the kernels of each intensity type, by
// overload.
#define STATS_EMU(sfx, T)                                                                                                                  \
  static void runAbsmax(const T* in, long long n, StatsShape s, su64* out) { stats_absmax_##sfx(in, n, s, out); }                            \
  static void runPass(const unsigned int* l, const T* in, su64* t, su64* k, unsigned int* c, unsigned int* o, StatsShape s)                 \
  {                                                                                                                                        \
    stats_##sfx(l, in, t, k, c, o, s);                                                                                                     \
  }
STATS_EMU(u8, unsigned char)
STATS_EMU(i8, signed char)
STATS_EMU(u16, unsigned short)
STATS_EMU(i16, short)
STATS_EMU(u32, unsigned int)
STATS_EMU(i32, int)
STATS_EMU(f32, float)
STATS_EMU(f64, double)

// sample returns a random intensity of type T: floats in thousandths from
// -700 to 1300, integers over their whole range.
template <typename T> static T sample(std::mt19937_64& rng)
{
  if constexpr (std::is_floating_point_v<T>) return (T)((double)(rng() % 2000000) / 1000.0 - 700.0);
  else return (T)rng();
}

template <typename T = float> static void check(int w, int h, int d, int nlab, unsigned seed, int flags)
{
  std::mt19937_64 rng(seed);
  const long long n = (long long)w * h * d;
  std::vector<unsigned int> lab(n);
  // Runs of random lengths of random labels (0 a third of the time).
  for (long long i = 0; i < n;) {
    const int len = 1 + (int)(rng() % 40);
    const unsigned int l = (rng() % 3 == 0) ? 0 : 1 + (unsigned int)(rng() % nlab);
    for (int k = 0; k < len && i < n; k++) lab[i++] = l;
  }
  std::vector<T> inten(n);
  // Three scalings by seed: positive, negative (which reverses the
  // samples' order), and none, with signed zeros among the samples.
  const int scaling = (int)(seed % 3);
  for (auto& v : inten) {
    v = sample<T>(rng);
    if (std::is_floating_point_v<T> && scaling == 2 && rng() % 4 == 0) v = (rng() % 2) ? (T)-0.0 : (T)0.0;
  }
  StatsShape s{};
  s.w = w;
  s.h = h;
  s.d = d;
  s.flags = flags;
  s.stride = (flags & 4) ? 27 : 10;
  s.slope = scaling == 0 ? 1.5 : scaling == 1 ? -0.75 : 1.0;
  s.inter = scaling == 0 ? -3.25 : scaling == 1 ? 2.5 : 0.0;
  const long long slots = 1 << 12;
  s.mask = slots - 1;
  std::vector<su64> table((nlab + 1) * (long long)s.stride), keys(slots);
  std::vector<unsigned int> counts(3 * slots), overflow(1);
  std::vector<su64> absmax(1);
  emuLaunch(7, STATS_THREADS, [&] { stats_init(table.data(), nlab + 1, keys.data(), counts.data(), slots, s.stride); });
  if (flags & 4) {
    emuLaunch(3, STATS_THREADS, [&] { runAbsmax(inten.data(), n, s, absmax.data()); });
    double m;
    std::memcpy(&m, &absmax[0], 8);
    int e;
    std::frexp(m, &e);
    s.scale = 58 - e;
  }
  emuLaunch(5, STATS_THREADS, [&] {
    if (flags & 4)
      runPass(lab.data(), inten.data(), table.data(), keys.data(), counts.data(), overflow.data(), s);
    else
      stats_none(lab.data(), nullptr, table.data(), keys.data(), counts.data(), overflow.data(), s);
  });

  // Reference.
  std::vector<su64> ref((nlab + 1) * (long long)s.stride);
  std::vector<si128> sq(nlab + 1), sqx(nlab + 1), sqy(nlab + 1), sqz(nlab + 1);
  std::vector<su128> sq2(nlab + 1);
  for (int l = 0; l <= nlab; l++) {
    su64* e = &ref[(long long)l * s.stride];
    e[4] = e[5] = e[6] = 0xffffffffull;
    e[7] = 0xffffffffull;
    if (flags & 4) e[10] = ~0ull;
  }
  std::map<std::pair<unsigned, unsigned>, std::array<unsigned, 3>> contacts;
  auto at = [&](long long x, long long y, long long z) -> unsigned int {
    if (x < 0 || y < 0 || z < 0 || x >= w || y >= h || z >= d) return STATS_BORDER;
    return lab[(z * h + y) * w + x];
  };
  for (long long z = 0; z < d; z++)
    for (long long y = 0; y < h; y++)
      for (long long x = 0; x < w; x++) {
        const long long i = (z * h + y) * w + x;
        const unsigned int L = lab[i];
        if (!L) continue;
        su64* e = &ref[(long long)L * s.stride];
        unsigned int* e32 = reinterpret_cast<unsigned int*>(e);
        e[0]++;
        e[1] += x;
        e[2] += y;
        e[3] += z;
        e32[8] = std::min<unsigned>(e32[8], x);
        e32[9] = std::max<unsigned>(e32[9], x);
        e32[10] = std::min<unsigned>(e32[10], y);
        e32[11] = std::max<unsigned>(e32[11], y);
        e32[12] = std::min<unsigned>(e32[12], z);
        e32[13] = std::max<unsigned>(e32[13], z);
        e32[14] = std::min<unsigned>(e32[14], i);
        if (flags & 1) { // pairs of face neighbours inside the label
          e32[16] += at(x + 1, y, z) == L;
          e32[17] += at(x, y + 1, z) == L;
          if (d > 1) e32[18] += at(x, y, z + 1) == L;
        }
        if (flags & 2) {
          const unsigned int nb[3] = {at(x + 1, y, z), at(x, y + 1, z), d > 1 ? at(x, y, z + 1) : STATS_BORDER};
          for (int a = 0; a < 3; a++)
            if (nb[a] != L && nb[a] != 0 && nb[a] != STATS_BORDER) contacts[{std::min(L, nb[a]), std::max(L, nb[a])}][a]++;
        }
        if (flags & 4) {
          const double v = sval(inten[i], s);
          e[10] = std::min(e[10], sorder(v));
          e[11] = std::max(e[11], sorder(v));
          const long long q = llrint(scalbn(v, s.scale));
          sq[L] += q;
          sq2[L] += (su128)((si128)q * q);
          sqx[L] += (si128)q * x;
          sqy[L] += (si128)q * y;
          sqz[L] += (si128)q * z;
        }
      }
  // The intensity sums: the kernels' limb words decoded (any split of the
  // sums among the words is right), against the reference's.
  int bad = 0;
  for (int l = 0; l <= nlab && (flags & 4); l++) {
    su64* e = &table[(long long)l * s.stride];
    const std::array<su64, 3> want[5] = {wide(sq[l]), wide((si128)sq2[l]), wide(sqx[l]), wide(sqy[l]), wide(sqz[l])};
    const std::array<su64, 3> got[5] = {limbs(e + 12, 2), limbs(e + 14, 4), limbs(e + 18, 3), limbs(e + 21, 3), limbs(e + 24, 3)};
    for (int k = 0; k < 5; k++)
      if (got[k] != want[k] && bad++ < 5)
        fprintf(stderr, "  %dx%dx%d flags %d: label %d sum %d: got %llx:%llx:%llx want %llx:%llx:%llx\n", w, h, d, flags, l, k,
                (unsigned long long)got[k][2], (unsigned long long)got[k][1], (unsigned long long)got[k][0], (unsigned long long)want[k][2],
                (unsigned long long)want[k][1], (unsigned long long)want[k][0]);
    for (int k = 12; k < s.stride; k++) ref[(long long)l * s.stride + k] = e[k];
  }
  for (size_t k = 0; k < ref.size(); k++)
    if (ref[k] != table[k] && bad++ < 5)
      fprintf(stderr, "  %dx%dx%d flags %d: label %zu word %zu: got %llx want %llx\n", w, h, d, flags, k / s.stride, k % s.stride,
              (unsigned long long)table[k], (unsigned long long)ref[k]);
  std::map<std::pair<unsigned, unsigned>, std::array<unsigned, 3>> got;
  for (long long k = 0; k < slots; k++)
    if (keys[k]) got[{(unsigned)(keys[k] >> 32), (unsigned)keys[k]}] = {counts[3 * k], counts[3 * k + 1], counts[3 * k + 2]};
  if ((flags & 2) && (got != contacts || overflow[0])) {
    bad++;
    fprintf(stderr, "  %dx%dx%d flags %d: contacts differ (%zu pairs, want %zu; overflow %u)\n", w, h, d, flags, got.size(), contacts.size(),
            overflow[0]);
  }
  if (bad) {
    failures++;
    fprintf(stderr, "FAIL %dx%dx%d labels %d flags %d seed %u: %d differences\n", w, h, d, nlab, flags, seed, bad);
  }
}

int main(int argc, char** argv)
{
  const unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  const int shapes[][3] = {{37, 23, 1}, {16, 16, 1}, {70, 9, 7}, {33, 5, 6}, {1, 40, 3}, {129, 3, 2}, {5, 1, 1}, {32, 7, 5}, {64, 9, 3}, {48, 2, 1}};
  int k = 0;
  for (auto& sh : shapes)
    for (int flags : {0, 1, 3, 7, 6})
      for (int nlab : {1, 3, 50}) check(sh[0], sh[1], sh[2], nlab, seed + k++, flags);
  // The other intensity types, with every measurement.
  for (auto& sh : shapes)
    for (int nlab : {3, 50}) {
      check<unsigned char>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
      check<signed char>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
      check<unsigned short>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
      check<short>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
      check<unsigned int>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
      check<int>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
      check<double>(sh[0], sh[1], sh[2], nlab, seed + k++, 7);
    }
  printf("%s: %d checks failed\n", failures ? "FAIL" : "ok", failures);
  return failures != 0;
}
