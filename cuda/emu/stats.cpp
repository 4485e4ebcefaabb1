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

static void check(int w, int h, int d, int nlab, unsigned seed, int flags)
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
  std::vector<float> inten(n);
  for (auto& v : inten) v = (float)((double)(rng() % 2000000) / 1000.0 - 700.0);
  StatsShape s{};
  s.w = w;
  s.h = h;
  s.d = d;
  s.flags = flags;
  s.stride = (flags & 4) ? 24 : 10;
  s.slope = 1.5;
  s.inter = -3.25;
  const long long slots = 1 << 12;
  s.mask = slots - 1;
  std::vector<su64> table((nlab + 1) * (long long)s.stride), keys(slots);
  std::vector<unsigned int> counts(3 * slots), overflow(1);
  std::vector<su64> absmax(1);
  emuLaunch(7, STATS_THREADS, [&] { stats_init(table.data(), nlab + 1, keys.data(), counts.data(), slots, s.stride); });
  if (flags & 4) {
    emuLaunch(3, STATS_THREADS, [&] { stats_absmax_f32(inten.data(), n, s, absmax.data()); });
    double m;
    std::memcpy(&m, &absmax[0], 8);
    int e;
    std::frexp(m, &e);
    s.scale = 58 - e;
  }
  emuLaunch(5, STATS_THREADS, [&] {
    if (flags & 4)
      stats_f32(lab.data(), inten.data(), table.data(), keys.data(), counts.data(), overflow.data(), s);
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
        if (flags & 1) {
          e32[16] += (at(x - 1, y, z) != L) + (at(x + 1, y, z) != L);
          e32[17] += (at(x, y - 1, z) != L) + (at(x, y + 1, z) != L);
          if (d > 1) e32[18] += (at(x, y, z - 1) != L) + (at(x, y, z + 1) != L);
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
  for (int l = 0; l <= nlab; l++) {
    su64* e = &ref[(long long)l * s.stride];
    if (flags & 4) {
      e[12] = (su64)sq[l], e[13] = (su64)((su128)sq[l] >> 64);
      e[14] = (su64)sq2[l], e[15] = (su64)(sq2[l] >> 64), e[16] = 0;
      e[17] = (su64)sqx[l], e[18] = (su64)((su128)sqx[l] >> 64);
      e[19] = (su64)sqy[l], e[20] = (su64)((su128)sqy[l] >> 64);
      e[21] = (su64)sqz[l], e[22] = (su64)((su128)sqz[l] >> 64);
    }
  }
  int bad = 0;
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
  const int shapes[][3] = {{37, 23, 1}, {16, 16, 1}, {70, 9, 7}, {33, 5, 6}, {1, 40, 3}, {129, 3, 2}, {5, 1, 1}};
  int k = 0;
  for (auto& sh : shapes)
    for (int flags : {0, 1, 3, 7, 6})
      for (int nlab : {1, 3, 50}) check(sh[0], sh[1], sh[2], nlab, seed + k++, flags);
  printf("%s: %d checks failed\n", failures ? "FAIL" : "ok", failures);
  return failures != 0;
}
