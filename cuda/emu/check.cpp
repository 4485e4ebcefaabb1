// Runs grid_values and grid_narrow_u16, then the tile kernels (and the value-block kernels at
// 26) on the CPU through emu.h and compares their labels with a plain
// reference labeling: every sample type, rule and connectivity, on shapes
// that cut tiles unevenly and on structured patterns. Development only:
//   cuda/emu/run.sh [seed [w h d]]  (grid_values only: cuda/emu/run.sh values;
//     the tile kernels only: cuda/emu/run.sh tiles [seed [w h d]]; the
//     run kernels only, with Voronoi cells too: cuda/emu/run.sh runs [seed [w h d]])
//   cuda/emu/run.sh blocks [seed [w h d]]: the block kernels alone (binary
//     and threshold rules at 8, 18 and 26), every sample type for small
//     grids; the full run checks them too where the rule is not multilabel.
//   cuda/emu/run.sh vblocks [seed [w h d]]: the value-block kernels alone
//     (26-connectivity) on random values, patches, Voronoi cells with
//     walls and patterns, every sample type for small grids.
//   cuda/emu/run.sh narrow [seed]: grid_narrow_u16 alone (labels narrowed
//     to uint16 for the download), lengths around its group and tail sizes.
#include "emu.h"
#include "all_kernels.cu"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <type_traits>

static int failures = 0;

// reference labels: union-find over the full stencil, numbered by first
// occurrence.
template <typename T> static std::vector<unsigned int> reference(const std::vector<T>& in, const GridShape& s, unsigned int& count)
{
  const long long n = (long long)s.w * s.h * s.d;
  std::vector<int> p(n);
  for (long long i = 0; i < n; i++) p[i] = (int)i;
  std::function<int(int)> find = [&](int x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  };
  std::vector<unsigned int> key(n);
  for (long long i = 0; i < n; i++) key[i] = gkey(in[i], s);
  for (int z = 0; z < s.d; z++)
    for (int y = 0; y < s.h; y++)
      for (int x = 0; x < s.w; x++) {
        const long long v = ((long long)z * s.h + y) * s.w + x;
        if (!key[v]) continue;
        for (int dz = -1; dz <= 0; dz++)
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
              const int nz = abs(dx) + abs(dy) + abs(dz);
              if (nz == 0) continue;
              if (dz == 0 && (dy > 0 || (dy == 0 && dx > 0))) continue; // forward
              if (s.d == 1 && dz != 0) continue;
              if ((s.conn == 4 || s.conn == 6) && nz > 1) continue;
              if (s.conn == 18 && nz > 2) continue;
              const int xx = x + dx, yy = y + dy, zz = z + dz;
              if (xx < 0 || yy < 0 || zz < 0 || xx >= s.w || yy >= s.h) continue;
              const long long u = ((long long)zz * s.h + yy) * s.w + xx;
              if (key[u] != key[v]) continue;
              int a = find((int)v), b = find((int)u);
              if (a != b) p[std::max(a, b)] = std::min(a, b);
            }
      }
  std::vector<unsigned int> labels(n), byRoot(n, 0);
  count = 0;
  for (long long i = 0; i < n; i++) {
    if (!key[i]) continue;
    const int r = find((int)i);
    if (!byRoot[r]) byRoot[r] = ++count;
    labels[i] = byRoot[r];
  }
  return labels;
}

#define SCAN_ARGS
template <typename T> struct Kern;
#define KERN(suffix, T)                                                                                         \
  template <> struct Kern<T> {                                                                                  \
    static void local(int conn, const T* in, int* parent, unsigned int* masks, GridShape s)                      \
    {                                                                                                           \
      switch (conn) {                                                                                           \
      case 4: tiles_local_c4_##suffix(in, parent, masks, s); break;                                             \
      case 8: tiles_local_c8_##suffix(in, parent, masks, s); break;                                             \
      case 6: tiles_local_c6_##suffix(in, parent, masks, s); break;                                             \
      case 18: tiles_local_c18_##suffix(in, parent, masks, s); break;                                           \
      case 26: tiles_local_c26_##suffix(in, parent, masks, s); break;                                           \
      }                                                                                                         \
    }                                                                                                           \
    static void border(int conn, const T* in, int* parent, GridShape s)                                         \
    {                                                                                                           \
      switch (conn) {                                                                                           \
      case 4: tiles_border_c4_##suffix(in, parent, s); break;                                                   \
      case 8: tiles_border_c8_##suffix(in, parent, s); break;                                                   \
      case 6: tiles_border_c6_##suffix(in, parent, s); break;                                                   \
      case 18: tiles_border_c18_##suffix(in, parent, s); break;                                                 \
      case 26: tiles_border_c26_##suffix(in, parent, s); break;                                                 \
      }                                                                                                         \
    }                                                                                                           \
    static void vlocal(const T* in, int* parent, unsigned int* masks, GridShape s)                               \
    {                                                                                                           \
      vblocks_local_##suffix(in, parent, masks, s);                                                             \
    }                                                                                                           \
    static void vborder(const T* in, int* parent, GridShape s) { vblocks_border_##suffix(in, parent, s); }       \
  };
KERN(u8, unsigned char)
KERN(u16, unsigned short)
KERN(i16, short)
KERN(u32, unsigned int)
KERN(i32, int)
KERN(f32, float)

static unsigned int cdiv(long long a, long long b) { return (unsigned int)((a + b - 1) / b); }

// BKern dispatches the block kernels of a sample type by connectivity: 8
// (2D, 2x2 blocks), 26 (2x2x2) and 18 (2x2x1).
template <typename T> struct BKern;
#define BKERN(suffix, T)                                                                                        \
  template <> struct BKern<T> {                                                                                 \
    static void local(int conn, const T* in, int* parent, int* br, unsigned int* reps, unsigned int* cursor,    \
                      unsigned int* tileReps, GridShape s)                                                      \
    {                                                                                                           \
      if (conn == 8) blocks_local2_##suffix(in, parent, br, reps, cursor, tileReps, s);                         \
      else if (conn == 26) blocks_local3_##suffix(in, parent, br, reps, cursor, tileReps, s);                   \
      else blocks_local18_##suffix(in, parent, br, reps, cursor, tileReps, s);                                  \
    }                                                                                                           \
    static void border(int conn, const T* in, int* parent, const int* br, GridShape s)                          \
    {                                                                                                           \
      if (conn == 8) blocks_border2_##suffix(in, parent, br, s);                                                \
      else if (conn == 26) blocks_border3_##suffix(in, parent, br, s);                                          \
      else blocks_border18_##suffix(in, parent, br, s);                                                         \
    }                                                                                                           \
    static void relabel(int conn, const T* in, const int* parent, const int* br, unsigned int* labels, GridShape s) \
    {                                                                                                           \
      if (conn == 18) blocks_relabel18_##suffix(in, parent, br, labels, s);                                     \
      else blocks_relabel_##suffix(in, parent, br, labels, s);                                                  \
    }                                                                                                           \
  };
BKERN(u8, unsigned char)
BKERN(u16, unsigned short)
BKERN(i16, short)
BKERN(u32, unsigned int)
BKERN(i32, int)
BKERN(f32, float)

// blocks runs the block pipeline (binary and threshold rules at 8, 26 and
// 18) as cuda/grid_plan.go launches it.
template <typename T> static std::vector<unsigned int> blocks(const std::vector<T>& in, const GridShape& s, unsigned int& count)
{
  const long long n = (long long)s.w * s.h * s.d;
  const bool d3 = s.d > 1;
  const int bz = s.conn == 18 ? 1 : 2;
  const long long bw = cdiv(s.w, 2), bh = cdiv(s.h, 2), bd = cdiv(s.d, bz);
  const unsigned int tileCount = cdiv(bw, BTX) * cdiv(bh, d3 ? 8 : 32) * cdiv(bd, d3 ? 8 : 1);
  const unsigned int borderThreads = d3 ? BBorder<8, 8, true>::threads : BBorder<32, 1, false>::threads;
  const long long segs = cdiv(bw, BSEG);
  const long long nCounts = s.d * (long long)s.h * segs, nBits = nCounts * BSEG / 32;
  const int sumsLen = (int)cdiv(nCounts, SCAN_TILE);
  std::vector<int> parent(n, 0x5a5a5a5a), blockReps(bw * bh * bd, 0x3c3c3c3c);
  std::vector<unsigned int> labels(n, 0xdeadbeef), counts(nCounts + nBits + 1, 7), sums(std::max(1, sumsLen), 9), tileReps(2 * tileCount, 0xa5a5a5a5u);
  unsigned int* const bits = counts.data() + nCounts;
  unsigned int* const cursor = bits + nBits;
  unsigned int total = 12345;
  emuLaunch(cdiv(nCounts + nBits + 1, 256), 256, [&] { zero_u32(counts.data(), nCounts + nBits + 1); });
  emuLaunch(tileCount, 256, [&] { BKern<T>::local(s.conn, in.data(), parent.data(), blockReps.data(), labels.data(), cursor, tileReps.data(), s); });
  emuLaunch(tileCount, borderThreads, [&] { BKern<T>::border(s.conn, in.data(), parent.data(), blockReps.data(), s); });
  emuLaunch(cdiv(tileCount, 8), 256, [&] { blocks_roots(parent.data(), labels.data(), tileReps.data(), (int)tileCount, counts.data(), bits, s); });
  emuLaunch(sumsLen, 1024, [&] { scan_tiles(counts.data(), (int)nCounts, sums.data()); });
  emuLaunch(1, 1024, [&] { grid_scan(sums.data(), sumsLen, &total); });
  emuLaunch(cdiv(tileCount, 8), 256, [&] { blocks_number(parent.data(), labels.data(), tileReps.data(), (int)tileCount, counts.data(), sums.data(), bits, s); });
  emuLaunch(segs * cdiv(bh, s.conn == 18 ? RELABEL_ROWS18 : RELABEL_ROWS) * bd, BSEG, [&] { BKern<T>::relabel(s.conn, in.data(), parent.data(), blockReps.data(), labels.data(), s); });
  count = total;
  return labels;
}

// tiles runs the tile pipeline as cuda/grid_plan.go launches it.
template <typename T> static std::vector<unsigned int> tiles(const std::vector<T>& in, const GridShape& s, unsigned int& count)
{
  const long long n = (long long)s.w * s.h * s.d;
  const bool d3 = s.d > 1;
  const int tx = d3 ? TX3 : TX2, ty = d3 ? TY3 : TY2, tz = d3 ? TZ3 : 1;
  const unsigned int tileCount = cdiv(s.w, tx) * cdiv(s.h, ty) * cdiv(s.d, tz);
  const long long words = (n + 31) / 32;
  const int sumsLen = (int)cdiv(words, SCAN_TILE);
  std::vector<int> parent(n, 0x5a5a5a5a);
  std::vector<unsigned int> labels(n, 0xdeadbeef), masks(words, 0xffffffffu), counts(words, 7), sums(std::max(1, sumsLen), 9);
  unsigned int total = 12345;
  if (s.w % 32 != 0) emuLaunch(cdiv(words, 256), 256, [&] { zero_u32(masks.data(), words); }); // as grid_plan.go: tiles_local stores whole words
  emuLaunch(tileCount, TILE_THREADS, [&] { Kern<T>::local(s.conn, in.data(), parent.data(), masks.data(), s); });
  emuLaunch(tileCount, TILE_THREADS, [&] { Kern<T>::border(s.conn, in.data(), parent.data(), s); });
  emuLaunch(cdiv(words, 8 * ROOTS_WORDS), 256, [&] { tiles_roots(parent.data(), masks.data(), counts.data(), n); });
  emuLaunch(sumsLen, 1024, [&] { scan_tiles(counts.data(), (int)words, sums.data()); });
  emuLaunch(1, 1024, [&] { grid_scan(sums.data(), sumsLen, &total); });
  emuLaunch(cdiv(n, 1024), 256, [&] { tiles_relabel(parent.data(), masks.data(), counts.data(), sums.data(), labels.data(), n); });
  count = total;
  return labels;
}

// RKern dispatches the run kernels of a sample type.
template <typename T> struct RKern;
#define RKERN(suffix, T)                                                                                        \
  template <> struct RKern<T> {                                                                                 \
    static void count(const T* in, unsigned int* counts, GridShape s, unsigned int* values)                      \
    {                                                                                                           \
      runs_count_##suffix(in, counts, s, values);                                                               \
    }                                                                                                           \
    static void link(int conn, const T* in, const unsigned int* offsets, const unsigned int* sums, int* parent,  \
                     GridShape s)                                                                               \
    {                                                                                                           \
      switch (conn) {                                                                                           \
      case 4: runs_link_c4_##suffix(in, offsets, sums, parent, s); break;                                       \
      case 8: runs_link_c8_##suffix(in, offsets, sums, parent, s); break;                                       \
      case 6: runs_link_c6_##suffix(in, offsets, sums, parent, s); break;                                       \
      case 18: runs_link_c18_##suffix(in, offsets, sums, parent, s); break;                                     \
      case 26: runs_link_c26_##suffix(in, offsets, sums, parent, s); break;                                     \
      }                                                                                                         \
    }                                                                                                           \
    static void relabel(const T* in, const unsigned int* offsets, const unsigned int* sums, const int* runLabels, \
                        unsigned int* labels, GridShape s)                                                      \
    {                                                                                                           \
      runs_relabel_##suffix(in, offsets, sums, runLabels, labels, s);                                           \
    }                                                                                                           \
  };
RKERN(u8, unsigned char)
RKERN(u16, unsigned short)
RKERN(i16, short)
RKERN(u32, unsigned int)
RKERN(i32, int)
RKERN(f32, float)

// runs runs the run pipeline as cuda/grid_plan.go launches it: the labels
// buffer holds the root counts and their sums before the labels.
template <typename T> static std::vector<unsigned int> runs(const std::vector<T>& in, const GridShape& s, unsigned int& count)
{
  const long long n = (long long)s.w * s.h * s.d;
  const long long segs = (long long)cdiv(s.w, RSEG) * s.h * s.d;
  const long long words = (n + 31) / 32;
  const int segSums = (int)cdiv(segs, SCAN_TILE), wordSums = (int)cdiv(words, SCAN_TILE);
  std::vector<int> parent(n, 0x5a5a5a5a);
  std::vector<unsigned int> labels(std::max(n, words + wordSums), 0xdeadbeef), masks(words, 0xa5a5a5a5u), counts(segs, 7),
      sums(std::max(1, segSums), 9);
  unsigned int total[2] = {12345, 54321};
  unsigned int* const rootCounts = labels.data();
  unsigned int* const rootSums = labels.data() + words;
  const unsigned int warpBlocks = cdiv(segs, RUN_WARPS);
  // runs_count is grid-stride (a few blocks, so that it wraps) and, for the
  // multilabel rule on integer samples, also finds grid_values' two words.
  unsigned int values[2] = {0, 0};
  unsigned int* const vals = s.rule == 0 && !std::is_same_v<T, float> && sizeof(T) > 1 ? values : nullptr; // as cuda/grid.go: bytes run grid_values
  emuLaunch(std::min(warpBlocks, 3u), 32 * RUN_WARPS, [&] { RKern<T>::count(in.data(), counts.data(), s, vals); });
  if (vals != nullptr) {
    const unsigned int width = sizeof(T) >= 4 ? 0xffffffffu : (1u << (8 * sizeof(T))) - 1u;
    unsigned int lo = 0, hi = 0;
    for (const T& e : in) {
      unsigned int v = 0;
      memcpy(&v, &e, sizeof(T));
      if (v != 0) {
        lo = std::max(lo, (0u - v) & width);
        hi = std::max(hi, v);
      }
    }
    if (values[0] != lo || values[1] != hi) {
      failures++;
      printf("FAIL runs_count values %dx%dx%d: got %x %x, want %x %x\n", s.w, s.h, s.d, values[0], values[1], lo, hi);
    }
  }
  emuLaunch(segSums, 1024, [&] { scan_tiles(counts.data(), (int)segs, sums.data()); });
  emuLaunch(1, 1024, [&] { grid_scan(sums.data(), segSums, &total[1]); });
  emuLaunch(3, 256, [&] { runs_init(parent.data(), masks.data(), &total[1], words); });
  emuLaunch(warpBlocks, 32 * RUN_WARPS, [&] { RKern<T>::link(s.conn, in.data(), counts.data(), sums.data(), parent.data(), s); });
  emuLaunch(cdiv(words, 8 * ROOTS_WORDS), 256, [&] { tiles_roots(parent.data(), masks.data(), rootCounts, n); });
  emuLaunch(wordSums, 1024, [&] { scan_tiles(rootCounts, (int)words, rootSums); });
  emuLaunch(1, 1024, [&] { grid_scan(rootSums, wordSums, &total[0]); });
  emuLaunch(3, 256, [&] { runs_number(parent.data(), masks.data(), rootCounts, rootSums, &total[1]); });
  emuLaunch(warpBlocks, 32 * RUN_WARPS, [&] { RKern<T>::relabel(in.data(), counts.data(), sums.data(), parent.data(), labels.data(), s); });
  count = total[0];
  labels.resize(n);
  return labels;
}

// vblocks runs the value-block pipeline (3D, 26-connectivity) as
// cuda/grid_plan.go launches it: vblocks_local and vblocks_border, then the
// tile kernels' numbering.
template <typename T> static std::vector<unsigned int> vblocks(const std::vector<T>& in, const GridShape& s, unsigned int& count)
{
  const long long n = (long long)s.w * s.h * s.d;
  const unsigned int tileCount = cdiv(cdiv(s.w, 2), BTX) * cdiv(cdiv(s.h, 2), VB_TY) * cdiv(cdiv(s.d, 2), VB_TZ);
  const long long words = (n + 31) / 32;
  const int sumsLen = (int)cdiv(words, SCAN_TILE);
  std::vector<int> parent(n, 0x5a5a5a5a);
  std::vector<unsigned int> labels(n, 0xdeadbeef), masks(words, 0xffffffffu), counts(words, 7), sums(std::max(1, sumsLen), 9);
  unsigned int total = 12345;
  emuLaunch(cdiv(words, 256), 256, [&] { zero_u32(masks.data(), words); });
  emuLaunch(tileCount, 256, [&] { Kern<T>::vlocal(in.data(), parent.data(), masks.data(), s); });
  emuLaunch(tileCount, BBorder<VB_TY, VB_TZ, true>::threads, [&] { Kern<T>::vborder(in.data(), parent.data(), s); });
  emuLaunch(cdiv(words, 8 * ROOTS_WORDS), 256, [&] { tiles_roots(parent.data(), masks.data(), counts.data(), n); });
  emuLaunch(sumsLen, 1024, [&] { scan_tiles(counts.data(), (int)words, sums.data()); });
  emuLaunch(1, 1024, [&] { grid_scan(sums.data(), sumsLen, &total); });
  emuLaunch(cdiv(n, 1024), 256, [&] { tiles_relabel(parent.data(), masks.data(), counts.data(), sums.data(), labels.data(), n); });
  count = total;
  return labels;
}

static bool onlyVblocks = false, onlyBlocks = false, onlyRuns = false;
static int blockCases = 0;

template <typename T> static void compare(const std::vector<unsigned int>& want, unsigned int wantN, const std::vector<unsigned int>& got,
                                          unsigned int gotN, const GridShape& s, const std::string& what)
{
  if (want == got && wantN == gotN) return;
  size_t i = 0;
  while (i < want.size() && want[i] == got[i]) i++;
  failures++;
  if (failures <= 20)
    printf("FAIL %s %dx%dx%d c%d rule %d: got %u components, want %u; first difference at %zu: got %u want %u\n", what.c_str(),
           s.w, s.h, s.d, s.conn, s.rule, gotN, wantN, i, i < got.size() ? got[i] : 0, i < want.size() ? want[i] : 0);
}

static int vblockCases = 0;

template <typename T> static void check(const std::vector<T>& in, GridShape s, const std::string& what)
{
  unsigned int wantN = 0, gotN = 0;
  const auto want = reference(in, s, wantN);
  if (s.rule != 0 && (s.conn == 8 || s.conn == 18 || s.conn == 26)) {
    const auto got = blocks(in, s, gotN);
    compare<T>(want, wantN, got, gotN, s, what + " blocks");
    blockCases++;
  }
  if (onlyBlocks) return;
  if (!onlyVblocks) {
    const auto got = runs(in, s, gotN);
    compare<T>(want, wantN, got, gotN, s, what + " runs");
  }
  if (onlyRuns) return;
  if (!onlyVblocks) {
    const auto got = tiles(in, s, gotN);
    compare<T>(want, wantN, got, gotN, s, what);
  }
  if (s.d > 1 && s.conn == 26) {
    const auto got = vblocks(in, s, gotN);
    compare<T>(want, wantN, got, gotN, s, what + " vblocks");
    vblockCases++;
  }
}

// typed runs check on v (values 0..k) converted to T.
template <typename T> static void typed(const std::vector<unsigned int>& v, GridShape s, const std::string& what, T scale, T shift)
{
  std::vector<T> in(v.size());
  for (size_t i = 0; i < v.size(); i++) in[i] = v[i] == 0 ? (T)0 : (T)((T)v[i] * scale + shift);
  check(in, s, what);
}

// checkValues runs grid_values (as cuda/grid.go launches it, on a few
// thread blocks so that the grid-stride loop wraps) on in and compares its
// verdict and extremes with a plain scan.
template <typename T> static void checkValues(const std::vector<T>& in, const unsigned int blocks, const std::string& what)
{
  typedef std::make_unsigned_t<T> U;
  const long long n = (long long)in.size();
  std::vector<uint4> buf((n * sizeof(T) + 15) / 16 + 1, uint4{0xa5a5a5a5u, 0xa5a5a5a5u, 0xa5a5a5a5u, 0xa5a5a5a5u});
  std::memcpy(buf.data(), in.data(), n * sizeof(T));
  const unsigned char* p = reinterpret_cast<const unsigned char*>(buf.data());
  unsigned int out[2] = {0, 0};
  emuLaunch(blocks, 256, [&] {
    if constexpr (sizeof(T) == 1) grid_values_u8(p, n, out);
    else if constexpr (std::is_same_v<T, unsigned short>) grid_values_u16(p, n, out);
    else if constexpr (std::is_same_v<T, short>) grid_values_i16(p, n, out);
    else if constexpr (std::is_same_v<T, unsigned int>) grid_values_u32(p, n, out);
    else grid_values_i32(p, n, out);
  });
  unsigned int lo = 0xffffffffu, hi = 0;
  for (const T v : in)
    if (v != 0) {
      lo = std::min(lo, (unsigned int)(U)v);
      hi = std::max(hi, (unsigned int)(U)v);
    }
  const unsigned int mask = sizeof(T) == 4 ? 0xffffffffu : (1u << (8 * sizeof(T))) - 1;
  const bool wantOne = hi == 0 || lo == hi, gotOne = out[1] == 0 || ((0u - out[0]) & mask) == out[1];
  const bool ok = hi == 0 ? out[0] == 0 && out[1] == 0 : ((0u - out[0]) & mask) == lo && out[1] == hi;
  if (ok && wantOne == gotOne) return;
  failures++;
  if (failures <= 20)
    printf("FAIL grid_values %s n=%lld blocks=%u: out %#x %#x, want min %#x max %#x\n", what.c_str(), n, blocks, out[0], out[1], lo, hi);
}

// values checks grid_values on lengths around the vector and tail sizes,
// with no, one and two nonzero values at the ends, inside and in the tail.
template <typename T> static int values(const std::vector<T>& ones, const std::vector<T>& others, const char* type)
{
  int cases = 0;
  for (const long long n : {1LL, 2LL, 3LL, 7LL, 15LL, 16LL, 17LL, 31LL, 33LL, 255LL, 4103LL, 20011LL}) {
    for (const unsigned int blocks : {1u, 3u}) {
      const std::string what = std::string(type) + " n=" + std::to_string(n);
      std::vector<T> v(n, 0);
      checkValues(v, blocks, what + " background");
      cases++;
      for (const T a : ones) {
        for (const long long at : {0LL, n / 2, n - 1}) {
          std::fill(v.begin(), v.end(), T(0));
          v[at] = a;
          checkValues(v, blocks, what + " one voxel");
          for (const T b : others) {
            for (const long long at2 : {0LL, n / 3, n - 1, n - 2}) {
              if (at2 < 0 || at2 == at) continue;
              std::vector<T> w = v;
              w[at2] = b;
              checkValues(w, blocks, what + " two values");
              cases++;
            }
          }
          std::fill(v.begin(), v.end(), a);
          checkValues(v, blocks, what + " all one value");
          for (long long i = 0; i < n; i += 3) v[i] = 0;
          checkValues(v, blocks, what + " one value, gaps");
          if (n > 1) {
            v[n - 1] = others[0];
            checkValues(v, blocks, what + " second value last");
            v[n - 1] = a;
            v[1] = others[0];
            checkValues(v, blocks, what + " second value second");
          }
          cases += 5;
        }
      }
    }
  }
  return cases;
}

// narrow runs grid_narrow_u16 (as cuda/grid_narrow.go launches it, on 1
// and 3 thread blocks so that the grid-stride loop wraps) on lengths
// around its group and tail sizes and compares every label, and that
// nothing past the n-th output is written.
static int narrow(std::mt19937_64& rng)
{
  int cases = 0;
  for (const long long n : {1LL, 2LL, 7LL, 8LL, 9LL, 15LL, 16LL, 17LL, 255LL, 2047LL, 2048LL, 2049LL, 4103LL, 20011LL}) {
    for (const unsigned int blocks : {1u, 3u}) {
      std::vector<uint4> in((n + 3) / 4 + 1), out((n + 7) / 8 + 1, uint4{0xa5a5a5a5u, 0xa5a5a5a5u, 0xa5a5a5a5u, 0xa5a5a5a5u});
      unsigned int* l = reinterpret_cast<unsigned int*>(in.data());
      for (long long i = 0; i < n; i++) l[i] = i % 5 == 0 ? 0u : (i % 7 == 0 ? 65535u : (unsigned int)(rng() % 65536));
      unsigned short* o = reinterpret_cast<unsigned short*>(out.data());
      emuLaunch(blocks, 256, [&] { grid_narrow_u16(l, n, o); });
      long long bad = -1;
      for (long long i = 0; i < n && bad < 0; i++)
        if (o[i] != l[i]) bad = i;
      for (long long i = n; i < (long long)(8 * out.size()) && bad < 0; i++)
        if (o[i] != 0xa5a5) bad = i;
      cases++;
      if (bad < 0) continue;
      failures++;
      if (failures <= 20) printf("FAIL grid_narrow_u16 n=%lld blocks=%u: entry %lld\n", n, blocks, bad);
    }
  }
  return cases;
}

// cellsPattern fills a w x h x d grid with Voronoi cells of random seeds
// (about one per cell^3 voxels), each cell its own value 1..values (values
// repeat when there are few), and a background wall on the lower-index
// side of about half the cell boundaries, like gen.CellsRaster.
static std::vector<unsigned int> cellsPattern(int w, int h, int d, int cell, int values, std::mt19937_64& rng)
{
  const long long n = (long long)w * h * d;
  const int seeds = std::max(2LL, n / ((long long)cell * cell * cell));
  std::vector<int> sx(seeds), sy(seeds), sz(seeds);
  std::vector<unsigned int> val(seeds);
  for (int i = 0; i < seeds; i++) {
    sx[i] = rng() % w, sy[i] = rng() % h, sz[i] = rng() % d;
    val[i] = 1 + (unsigned int)(rng() % values);
  }
  std::vector<int> owner(n);
  for (long long v = 0; v < n; v++) {
    const int x = v % w, y = (v / w) % h, z = v / ((long long)w * h);
    long long best = -1;
    int bi = 0;
    for (int i = 0; i < seeds; i++) {
      const long long dd = (long long)(x - sx[i]) * (x - sx[i]) + (long long)(y - sy[i]) * (y - sy[i]) + (long long)(z - sz[i]) * (z - sz[i]);
      if (best < 0 || dd < best) best = dd, bi = i;
    }
    owner[v] = bi;
  }
  std::vector<unsigned int> out(n);
  for (long long v = 0; v < n; v++) {
    const int x = v % w, y = (v / w) % h, z = v / ((long long)w * h);
    out[v] = val[owner[v]];
    // a wall where the next voxel along x, y or z belongs to another cell
    // and the pair's hash says so
    const long long next[3] = {x + 1 < w ? v + 1 : -1, y + 1 < h ? v + w : -1, z + 1 < d ? v + (long long)w * h : -1};
    for (const long long u : next) {
      if (u < 0 || owner[u] == owner[v]) continue;
      const unsigned long long a = std::min(owner[u], owner[v]), b = std::max(owner[u], owner[v]);
      if (((a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full)) >> 63) out[v] = 0;
    }
  }
  return out;
}

// vblocksOnly checks the value-block kernels (3D, 26-connectivity) on
// awkward shapes: random values, patches, cells, patterns, every sample
// type and rule.
static int vblocksOnly(std::mt19937_64& rng, int argc, char** argv)
{
  onlyVblocks = true;
  struct Shape {
    int w, h, d;
  };
  std::vector<Shape> shapes = argc > 5 ? std::vector<Shape>{{atoi(argv[3]), atoi(argv[4]), atoi(argv[5])}}
                                       : std::vector<Shape>{{1, 1, 2},   {2, 2, 2},    {3, 3, 3},    {7, 5, 3},    {1, 9, 40},
                                                            {65, 9, 9},  {67, 17, 11}, {130, 3, 17}, {3, 19, 21}, {4097, 3, 2},
                                                            {70, 35, 40}, {128, 32, 33}, {129, 34, 18}};
  for (const Shape& sh : shapes) {
    const long long n = (long long)sh.w * sh.h * sh.d;
    std::uniform_real_distribution<double> u(0, 1);
    auto run = [&](const std::vector<unsigned int>& v, const std::string& what, bool allTypes) {
      for (int rule = 0; rule < 4; rule++) {
        GridShape s{sh.w, sh.h, sh.d, 26, rule, 0, 2.0, 1.0, 0.0};
        unsigned int hi = 0;
        for (auto x : v) hi = std::max(hi, x);
        if (hi < 256) typed<unsigned char>(v, s, what + " u8", 1, 0);
        if (rule != 0) continue;
        typed<unsigned int>(v, s, what + " u32", 65599, 0);
        if (!allTypes) continue;
        typed<unsigned short>(v, s, what + " u16", 3, 0);
        typed<short>(v, s, what + " i16", -7, 1);
        typed<int>(v, s, what + " i32", -7, 0);
        typed<float>(v, s, what + " f32", 0.5f, 0);
      }
    };
    const bool small = n < 40000;
    for (double p : {0.3, 0.6, 0.95, 1.0}) {
      for (int values : {1, 2, 3, 200}) {
        std::vector<unsigned int> v(n);
        for (auto& x : v) x = u(rng) < p ? 1 + (unsigned int)(rng() % values) : 0;
        run(v, "random p=" + std::to_string(p) + " values=" + std::to_string(values), small);
      }
    }
    for (int values : {2, 5, 300}) { // patches of one value, a fifth background
      const int px = 1 + rng() % 4, py = 1 + rng() % 3, pz = 1 + rng() % 3;
      std::map<long long, unsigned int> patch;
      std::vector<unsigned int> v(n);
      for (long long i = 0; i < n; i++) {
        const long long x = i % sh.w, y = (i / sh.w) % sh.h, z = i / ((long long)sh.w * sh.h);
        const long long key = (x / px) + 100000LL * ((y / py) + 100000LL * (z / pz));
        auto it = patch.find(key);
        if (it == patch.end()) it = patch.emplace(key, rng() % 5 ? 1 + (unsigned int)(rng() % values) : 0u).first;
        v[i] = it->second;
      }
      run(v, "patches " + std::to_string(px) + "," + std::to_string(py) + "," + std::to_string(pz) + " values=" + std::to_string(values), small);
    }
    for (int cell : {3, 6, 12}) {
      for (int values : {4, 100000}) {
        run(cellsPattern(sh.w, sh.h, sh.d, cell, values, rng), "cells " + std::to_string(cell) + " values=" + std::to_string(values), small);
      }
    }
    const char* names[] = {"all", "checker", "checker2", "vstripes", "diagonal", "valuestripes", "distinct", "blockvalues"};
    for (int pat = 0; pat < 8; pat++) {
      std::vector<unsigned int> v(n);
      for (long long i = 0; i < n; i++) {
        const int x = i % sh.w, y = (i / sh.w) % sh.h, z = i / ((long long)sh.w * sh.h);
        bool on = pat == 0 || (pat == 1 && (x + y + z) % 2 == 0) || (pat == 2 && (x / 2 + y / 2 + z / 2) % 2 == 0) ||
                  (pat == 3 && x % 3 == 0) || (pat == 4 && (x + y + z) % 5 == 0) || pat >= 5;
        v[i] = on ? (pat == 5 ? 1 + (x + 2 * y + 3 * z) % 4 : pat == 6 ? 1 + (unsigned int)i : pat == 7 ? 1 + (x & 1) + 2 * (y & 1) + 4 * (z & 1) : 1) : 0;
      }
      run(v, names[pat], small);
    }
    fprintf(stderr, "%dx%dx%d done, %d vblock cases, %d failures\n", sh.w, sh.h, sh.d, vblockCases, failures);
  }
  printf("vblocks: %d cases, %d failures\n", vblockCases, failures);
  return failures != 0;
}

// blocksOnly checks the block kernels (binary and threshold rules; 8 in
// 2D, 18 and 26 in 3D) on awkward shapes: random foreground at several
// densities under every rule (every sample type for small grids) and
// patterns.
static int blocksOnly(std::mt19937_64& rng, int argc, char** argv)
{
  onlyBlocks = true;
  struct Shape {
    int w, h, d;
  };
  std::vector<Shape> shapes = argc > 5 ? std::vector<Shape>{{atoi(argv[3]), atoi(argv[4]), atoi(argv[5])}}
                                       : std::vector<Shape>{{1, 1, 1},   {3, 1, 1},    {1, 5, 1},   {129, 17, 1}, {4097, 3, 1},
                                                            {3, 300, 1}, {1, 1, 2},    {2, 2, 2},   {1, 1, 7},    {3, 3, 3},
                                                            {7, 5, 3},   {65, 9, 9},   {67, 17, 11}, {130, 3, 17}, {3, 19, 21},
                                                            {4097, 3, 2}, {70, 35, 40}, {129, 34, 18}};
  for (const Shape& sh : shapes) {
    const long long n = (long long)sh.w * sh.h * sh.d;
    const std::vector<int> conns = sh.d > 1 ? std::vector<int>{18, 26} : std::vector<int>{8};
    const bool small = n < 40000;
    std::uniform_real_distribution<double> u(0, 1);
    for (double p : {0.1, 0.3, 0.5, 0.7, 0.95, 1.0}) {
      std::vector<unsigned int> v(n);
      for (auto& x : v) x = u(rng) < p ? 1 + (unsigned int)(rng() % 3) : 0;
      const std::string what = "random p=" + std::to_string(p);
      for (int conn : conns) {
        for (int rule = 1; rule < 4; rule++) {
          GridShape s{sh.w, sh.h, sh.d, conn, rule, 0, 2.0, 1.0, 0.0};
          typed<unsigned char>(v, s, what + " u8", 1, 0);
          if (!small) continue;
          typed<unsigned short>(v, s, what + " u16", 300, 0);
          typed<short>(v, s, what + " i16", -7, 1);
          typed<unsigned int>(v, s, what + " u32", 1 << 20, 0);
          typed<int>(v, s, what + " i32", -7, 0);
          typed<float>(v, s, what + " f32", 0.5f, 0);
        }
      }
    }
    const char* names[] = {"all", "checker", "checker2", "vstripes", "diagonal", "zstairs", "xyplanes"};
    for (int pat = 0; pat < 7; pat++) {
      std::vector<unsigned int> v(n);
      for (long long i = 0; i < n; i++) {
        const int x = i % sh.w, y = (i / sh.w) % sh.h, z = i / ((long long)sh.w * sh.h);
        const bool on = pat == 0 || (pat == 1 && (x + y + z) % 2 == 0) || (pat == 2 && (x / 2 + y / 2 + z / 2) % 2 == 0) ||
                        (pat == 3 && x % 3 == 0) || (pat == 4 && (x + y + z) % 5 == 0) || (pat == 5 && (x + z) % 4 == 0 && y % 2 == 0) ||
                        (pat == 6 && (x + y) % 2 == z % 2 && (x % 3 != 0));
        v[i] = on ? 1 : 0;
      }
      for (int conn : conns) {
        GridShape s{sh.w, sh.h, sh.d, conn, 1, 0, 2.0, 1.0, 0.0};
        typed<unsigned char>(v, s, names[pat], 1, 0);
      }
    }
    fprintf(stderr, "%dx%dx%d done, %d block cases, %d failures\n", sh.w, sh.h, sh.d, blockCases, failures);
  }
  printf("blocks: %d cases, %d failures\n", blockCases, failures);
  return failures != 0;
}

int main(int argc, char** argv)
{
  if (argc > 1 && std::string(argv[1]) == "blocks") {
    std::mt19937_64 rng(argc > 2 ? atoi(argv[2]) : 1);
    return blocksOnly(rng, argc, argv);
  }
  if (argc > 1 && std::string(argv[1]) == "narrow") {
    std::mt19937_64 rng(argc > 2 ? atoi(argv[2]) : 1);
    const int cases = narrow(rng);
    printf("grid_narrow_u16: %d cases, %d failures\n", cases, failures);
    return failures != 0;
  }
  if (argc > 1 && std::string(argv[1]) == "vblocks") {
    std::mt19937_64 rng(argc > 2 ? atoi(argv[2]) : 1);
    return vblocksOnly(rng, argc, argv);
  }
  onlyRuns = argc > 1 && std::string(argv[1]) == "runs"; // the tile and run kernels alone, or the run kernels
  const bool onlyTiles = onlyRuns || (argc > 1 && std::string(argv[1]) == "tiles");
  if (onlyTiles) {
    argc--;
    argv++;
  } else {
    int cases = values<unsigned char>({1, 7, 255}, {2, 1, 255, 128}, "u8");
    cases += values<unsigned short>({1, 255, 256, 65535}, {2, 1, 65535, 257}, "u16");
    cases += values<short>({1, -1, -32768, 32767}, {-1, 1, 2, -32768}, "i16");
    cases += values<unsigned int>({1, 0xffffffffu, 0x10000u}, {2, 1, 0xffffffffu, 0x100u}, "u32");
    cases += values<int>({1, -1, INT32_MIN, INT32_MAX}, {-1, 1, INT32_MIN, 2}, "i32");
    printf("grid_values: %d cases, %d failures\n", cases, failures);
    std::mt19937_64 nrng(1);
    const int narrowed = narrow(nrng);
    printf("grid_narrow_u16: %d cases, %d failures\n", narrowed, failures);
    if (argc > 1 && std::string(argv[1]) == "values") return failures != 0;
  }
  std::mt19937_64 rng(argc > 1 ? atoi(argv[1]) : 1);
  struct Shape {
    int w, h, d;
  };
  std::vector<Shape> shapes = argc > 2 ? std::vector<Shape>{{atoi(argv[2]), atoi(argv[3]), atoi(argv[4])}} : std::vector<Shape>{{1, 1, 1},  {3, 1, 1},    {1, 5, 1},    {129, 17, 1}, {257, 33, 1}, {4097, 3, 1}, {3, 300, 1},
                               {160, 40, 1}, {1, 1, 7},  {2, 2, 2},    {65, 9, 9},   {67, 17, 11}, {130, 3, 17}, {3, 19, 21},
                               {300, 7, 5},  {513, 3, 4}};
  const double dens[] = {0.3, 0.6, 0.95};
  int cases = 0;
  for (const Shape& sh : shapes) {
    const long long n = (long long)sh.w * sh.h * sh.d;
    std::vector<int> conns = sh.d > 1 ? std::vector<int>{6, 18, 26} : std::vector<int>{4, 8};
    for (double p : dens) {
      for (int values : {1, 3, 200}) {
        std::vector<unsigned int> v(n);
        std::uniform_real_distribution<double> u(0, 1);
        for (auto& x : v) x = u(rng) < p ? 1 + (unsigned int)(rng() % values) : 0;
        for (int conn : conns) {
          for (int rule = 0; rule < 4; rule++) {
            GridShape s{sh.w, sh.h, sh.d, conn, rule, 0, 2.0, 1.0, 0.0};
            const std::string what = "p=" + std::to_string(p) + " values=" + std::to_string(values);
            if (rule == 0 || values == 3) {
              typed<unsigned char>(v, s, what + " u8", 1, 0);
              cases++;
            }
            if (rule == 0 && sh.w * sh.h * sh.d < 5000) {
              typed<unsigned short>(v, s, what + " u16", 300, 0);
              typed<short>(v, s, what + " i16", -7, 1);
              typed<unsigned int>(v, s, what + " u32", 1 << 20, 0);
              typed<int>(v, s, what + " i32", -7, 0);
              typed<float>(v, s, what + " f32", 0.5f, 0);
              cases += 5;
            }
          }
        }
      }
    }
    // patterns: all, checkerboards, stripes
    const char* names[] = {"all", "checker", "checker2", "vstripes", "diagonal", "valuestripes"};
    for (int pat = 0; pat < 6; pat++) {
      std::vector<unsigned int> v(n);
      for (long long i = 0; i < n; i++) {
        const int x = i % sh.w, y = (i / sh.w) % sh.h, z = i / ((long long)sh.w * sh.h);
        bool on = pat == 0 || (pat == 1 && (x + y + z) % 2 == 0) || (pat == 2 && (x / 2 + y / 2 + z / 2) % 2 == 0) ||
                  (pat == 3 && x % 3 == 0) || (pat == 4 && (x + y + z) % 5 == 0) || pat == 5;
        v[i] = on ? (pat == 5 ? 1 + (x + 2 * y + 3 * z) % 4 : 1) : 0;
      }
      for (int conn : conns) {
        GridShape s{sh.w, sh.h, sh.d, conn, 0, 0, 2.0, 1.0, 0.0};
        typed<unsigned char>(v, s, names[pat], 1, 0);
        cases++;
      }
    }
    if (onlyRuns) { // dense segmentations: long runs, many values
      for (const int cell : {2, 5, 40}) {
        const std::vector<unsigned int> v = cellsPattern(sh.w, sh.h, sh.d, cell, 300, rng);
        for (int conn : conns) {
          GridShape s{sh.w, sh.h, sh.d, conn, 0, 0, 2.0, 1.0, 0.0};
          typed<unsigned int>(v, s, "cells " + std::to_string(cell), 1, 0);
          typed<unsigned short>(v, s, "cells u16 " + std::to_string(cell), 1, 0);
          cases += 2;
        }
      }
    }
    fprintf(stderr, "%dx%dx%d done, %d cases, %d failures\n", sh.w, sh.h, sh.d, cases, failures);
  }
  printf("%d cases, %d failures\n", cases, failures);
  return failures != 0;
}
