// stats for cclabel: the statistics of a labeled grid computed where its
// labels are, on the device, so that only the table comes back.
//
// Launches, in order (cuda/stats.go):
//   stats_init: every label's entry of the table set to its start (zeros;
//     the bounding box's minima, the first index and the intensity minimum
//     key to all ones), the contact hash table cleared.
//   stats_absmax_<t> (with an intensity image): the largest |v| of the
//     scaled intensities v = raw * slope + inter, as the bits of a
//     non-negative double (their order is the doubles' order), so that the
//     host picks the fixed-point scale 2^s with |v| * 2^s <= 2^58. A NaN or
//     infinity shows there as bits at or above those of +Inf.
//   stats_<t> (stats_none without intensity): one pass over the labels.
//     A thread takes STATS_SEG voxels of a row and sums the runs of equal
//     labels in registers; a run that ends inside the segment goes to the
//     table by atomics, the run still open at the segment's end is merged
//     with the open runs of the warp's other lanes of the same row and
//     label (a segmented shuffle reduction) and goes by its first lane.
//
// Each label L (1..N) has an entry of `stride` 64-bit words at table +
// L * stride:
//   0 size, 1..3 the sums of x, y and z;
//   4..7 as 32-bit halves: min x, max x, min y, max y, min z, max z, the
//     smallest index (its first voxel), unused;
//   8..9 as 32-bit halves: the exposed faces across x, y and z (faces to
//     another label, background or the border), unused;
//   with intensity (stride 24): 10, 11 the ordered keys of the smallest and
//     largest v; 12..13 the sum of q (128-bit two's complement), 14..16 the
//     sum of q^2 (192-bit), 17..18, 19..20, 21..22 the sums of q*x, q*y and
//     q*z (128-bit), where q = rint(v * 2^s) as an integer: the sums are
//     exact, so the table does not depend on the order of the atomics.
//
// Contacts: the faces between voxels of two different nonzero labels a < b
// (6-faces in 3D, 4-edges in 2D), each counted once by the voxel below it
// along the axis, summed by runs of equal pairs along the row and added to
// an open-addressing hash table of keys a << 32 | b (0 empty) with three
// 32-bit counts per slot (faces across x, y, z). A key that finds no slot
// within STATS_PROBES probes counts in overflow, and the host runs the pass
// again with a larger table.

#define STATS_SEG 16
#define STATS_PROBES 4096
#define STATS_THREADS 256
#define STATS_BORDER 0xffffffffu

// StatsShape matches cuda/stats.go's statsShape.
struct StatsShape {
  int w, h, d;
  int flags; // 1 faces (surface), 2 contacts, 4 intensity
  int stride;
  int scale; // s: q = rint(v * 2^s)
  double slope, inter;
  unsigned long long mask; // contact table slots - 1
};

typedef unsigned long long su64;
typedef unsigned __int128 su128;
typedef __int128 si128;

static __device__ __forceinline__ su64 sdbits(const double v)
{
#ifdef __CUDACC__
  return (su64)__double_as_longlong(v);
#else
  su64 b;
  std::memcpy(&b, &v, 8);
  return b;
#endif
}

// sorder maps a double to an unsigned key of the same order.
static __device__ __forceinline__ su64 sorder(const double v)
{
  const su64 b = sdbits(v);
  return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}

// sval is the scaled intensity of raw sample r: the product rounded, then
// the sum (no fused multiply-add), as package measure scales.
template <typename T> static __device__ __forceinline__ double sval(const T r, const StatsShape& s)
{
  const double v = (double)r;
  if (s.slope != 1.0 || s.inter != 0.0) return __dadd_rn(__dmul_rn(v, s.slope), s.inter);
  return v;
}

extern "C" __global__ void __launch_bounds__(STATS_THREADS)
stats_init(su64* const __restrict__ table, const long long entries, su64* const __restrict__ keys,
           unsigned int* const __restrict__ counts, const long long slots, const int stride)
{
  const long long id = threadIdx.x + (long long)blockIdx.x * blockDim.x, step = (long long)gridDim.x * blockDim.x;
  for (long long i = id; i < entries * stride; i += step) {
    const int f = (int)(i % stride);
    su64 v = 0;
    if (f == 4 || f == 5 || f == 6) v = 0x00000000ffffffffull; // min all ones, max 0
    if (f == 7) v = 0xffffffffull;
    if (f == 10 && stride > 10) v = ~0ull;
    table[i] = v;
  }
  for (long long i = id; i < slots; i += step) {
    keys[i] = 0;
    counts[3 * i] = counts[3 * i + 1] = counts[3 * i + 2] = 0;
  }
}

template <typename T>
static __device__ void stats_absmax(const T* const __restrict__ in, const long long n, const StatsShape s, su64* const __restrict__ out)
{
  const long long id = threadIdx.x + (long long)blockIdx.x * blockDim.x, step = (long long)gridDim.x * blockDim.x;
  su64 m = 0;
  for (long long i = id; i < n; i += step) m = max(m, sdbits(sval(in[i], s)) & 0x7fffffffffffffffull);
  for (int o = 16; o > 0; o /= 2) m = max(m, __shfl_down_sync(0xffffffffu, m, o));
  if ((threadIdx.x & 31) == 0 && m) atomicMax(out, m);
}

// SRun is the sums of one run of equal labels in one row.
struct SRun {
  unsigned int label, cnt, minx, maxx, first;
  su64 sx, faces; // faces: x | y << 21 | z << 42
  su64 kmin, kmax;
  si128 sq, sqx;
  su128 sq2;
};

static __device__ __forceinline__ void srun_reset(SRun& r, const unsigned int label)
{
  r.label = label;
  r.cnt = 0;
  r.sx = 0;
  r.faces = 0;
  r.kmin = ~0ull;
  r.kmax = 0;
  r.sq = 0;
  r.sqx = 0;
  r.sq2 = 0;
}

// sadd128 adds v to the 128-bit two's complement number at p.
static __device__ __forceinline__ void sadd128(su64* const p, const si128 v)
{
  const su64 lo = (su64)v;
  su64 hi = (su64)((su128)v >> 64);
  if (lo) {
    const su64 old = atomicAdd(p, lo);
    if (old + lo < old) hi++;
  }
  if (hi) atomicAdd(p + 1, hi);
}

// sadd192 adds v (below 2^127) to the 192-bit number at p.
static __device__ __forceinline__ void sadd192(su64* const p, const su128 v)
{
  const su64 lo = (su64)v;
  su64 hi = (su64)(v >> 64);
  if (lo) {
    const su64 old = atomicAdd(p, lo);
    if (old + lo < old) hi++;
  }
  if (hi) {
    const su64 old = atomicAdd(p + 1, hi);
    if (old + hi < old) atomicAdd(p + 2, 1ull);
  }
}

// sflush adds run r of row (y, z) to the table.
static __device__ void sflush(su64* const __restrict__ table, const StatsShape& s, const SRun& r, const unsigned int y, const unsigned int z)
{
  su64* const e = table + (long long)r.label * s.stride;
  unsigned int* const e32 = reinterpret_cast<unsigned int*>(e);
  atomicAdd(&e[0], (su64)r.cnt);
  atomicAdd(&e[1], r.sx);
  if (y) atomicAdd(&e[2], (su64)r.cnt * y);
  if (z) atomicAdd(&e[3], (su64)r.cnt * z);
  // The bounds only move one way, so a stale read only costs an atomic.
  if (r.minx < e32[8]) atomicMin(&e32[8], r.minx);
  if (r.maxx > e32[9]) atomicMax(&e32[9], r.maxx);
  if (y < e32[10]) atomicMin(&e32[10], y);
  if (y > e32[11]) atomicMax(&e32[11], y);
  if (z < e32[12]) atomicMin(&e32[12], z);
  if (z > e32[13]) atomicMax(&e32[13], z);
  if (r.first < e32[14]) atomicMin(&e32[14], r.first);
  const unsigned int fx = (unsigned int)(r.faces & 0x1fffff), fy = (unsigned int)((r.faces >> 21) & 0x1fffff),
                     fz = (unsigned int)(r.faces >> 42);
  if (fx) atomicAdd(&e32[16], fx);
  if (fy) atomicAdd(&e32[17], fy);
  if (fz) atomicAdd(&e32[18], fz);
  if (s.flags & 4) {
    if (r.kmin < e[10]) atomicMin(&e[10], r.kmin);
    if (r.kmax > e[11]) atomicMax(&e[11], r.kmax);
    sadd128(&e[12], r.sq);
    sadd192(&e[14], r.sq2);
    sadd128(&e[17], r.sqx);
    sadd128(&e[19], r.sq * (si128)y);
    sadd128(&e[21], r.sq * (si128)z);
  }
}

// scontact adds n faces across axis between labels a and b to the contact
// table.
static __device__ void scontact(su64* const __restrict__ keys, unsigned int* const __restrict__ counts, unsigned int* const overflow,
                                const StatsShape& s, unsigned int a, unsigned int b, const int axis, const unsigned int n)
{
  if (a > b) {
    const unsigned int t = a;
    a = b;
    b = t;
  }
  const su64 key = (su64)a << 32 | b;
  su64 slot = (key * 0x9e3779b97f4a7c15ull) >> 20;
  for (int p = 0; p < STATS_PROBES; p++) {
    slot &= s.mask;
    su64 k = keys[slot];
    if (k == 0) k = atomicCAS(&keys[slot], 0ull, key);
    if (k == 0 || k == key) {
      atomicAdd(&counts[3 * slot + axis], n);
      return;
    }
    slot++;
  }
  atomicAdd(overflow, 1u);
}

// SPair is a run of faces between the run's label and one other label
// across one axis.
struct SPair {
  unsigned int other, n;
};

static __device__ __forceinline__ void spair(su64* const __restrict__ keys, unsigned int* const __restrict__ counts, unsigned int* const overflow,
                                             const StatsShape& s, SPair& p, const unsigned int label, const unsigned int other, const int axis)
{
  if (other == p.other) {
    if (other) p.n++;
    return;
  }
  if (p.n) scontact(keys, counts, overflow, s, label, p.other, axis, p.n);
  p.other = other;
  p.n = other ? 1 : 0;
}

static __device__ __forceinline__ unsigned int sshfl_u32(const unsigned int v, const int o) { return __shfl_down_sync(0xffffffffu, v, o); }
static __device__ __forceinline__ su64 sshfl_u64(const su64 v, const int o)
{
  return (su64)sshfl_u32((unsigned int)v, o) | (su64)sshfl_u32((unsigned int)(v >> 32), o) << 32;
}
static __device__ __forceinline__ su128 sshfl_u128(const su128 v, const int o)
{
  return (su128)sshfl_u64((su64)v, o) | (su128)sshfl_u64((su64)(v >> 64), o) << 64;
}

template <typename T, bool INTENSITY>
static __device__ void stats_pass(const unsigned int* const __restrict__ labels, const T* const __restrict__ in, su64* const __restrict__ table,
                                  su64* const __restrict__ keys, unsigned int* const __restrict__ counts, unsigned int* const overflow,
                                  const StatsShape s)
{
  const long long w = s.w, h = s.h, d = s.d, plane = w * h;
  const long long segs = (w + STATS_SEG - 1) / STATS_SEG, total = segs * h * d;
  const long long units = (total + 31) / 32;
  const int lane = threadIdx.x & 31;
  const bool faces = s.flags & 1, contacts = s.flags & 2, three = d > 1;
  const long long warp = (threadIdx.x + (long long)blockIdx.x * blockDim.x) / 32, warps = (long long)gridDim.x * blockDim.x / 32;
  for (long long u = warp; u < units; u += warps) {
    const long long t = 32 * u + lane;
    SRun r;
    srun_reset(r, 0);
    long long row = 0;
    unsigned int y = 0, z = 0;
    if (t < total) {
      row = t / segs;
      const long long x0 = (t - row * segs) * STATS_SEG, x1 = min(x0 + STATS_SEG, w);
      y = (unsigned int)(row % h);
      z = (unsigned int)(row / h);
      const long long base = row * w;
      const bool hasDown = y > 0, hasUp = y + 1 < h, hasBack = z > 0, hasFront = z + 1 < d;
      unsigned int left = x0 > 0 ? labels[base + x0 - 1] : STATS_BORDER, cur = labels[base + x0];
      SPair px = {0, 0}, py = {0, 0}, pz = {0, 0};
      for (long long x = x0; x < x1; x++) {
        const long long i = base + x;
        const unsigned int right = x + 1 < w ? labels[i + 1] : STATS_BORDER;
        const unsigned int L = cur;
        if (L != r.label) {
          if (r.cnt) sflush(table, s, r, y, z);
          if (contacts && r.label) {
            spair(keys, counts, overflow, s, py, r.label, 0, 1);
            spair(keys, counts, overflow, s, pz, r.label, 0, 2);
          }
          srun_reset(r, L);
          r.minx = (unsigned int)x;
          r.first = (unsigned int)i;
        }
        if (L != 0) {
          r.cnt++;
          r.sx += (su64)x;
          r.maxx = (unsigned int)x;
          if (faces || contacts) {
            const unsigned int down = hasDown ? labels[i - w] : STATS_BORDER, up = hasUp ? labels[i + w] : STATS_BORDER;
            unsigned int back = STATS_BORDER, front = STATS_BORDER;
            if (three) {
              back = hasBack ? labels[i - plane] : STATS_BORDER;
              front = hasFront ? labels[i + plane] : STATS_BORDER;
            }
            if (faces) {
              r.faces += (su64)((left != L) + (right != L)) | (su64)((down != L) + (up != L)) << 21;
              if (three) r.faces += (su64)((back != L) + (front != L)) << 42;
            }
            if (contacts) {
              if (right != L && right != 0 && right != STATS_BORDER) scontact(keys, counts, overflow, s, L, right, 0, 1);
              spair(keys, counts, overflow, s, py, L, (up != L && up != STATS_BORDER) ? up : 0, 1);
              if (three) spair(keys, counts, overflow, s, pz, L, (front != L && front != STATS_BORDER) ? front : 0, 2);
            }
          }
          if (INTENSITY) {
            const double v = sval(in[i], s);
            const su64 k = sorder(v);
            r.kmin = min(r.kmin, k);
            r.kmax = max(r.kmax, k);
            const long long q = llrint(scalbn(v, s.scale));
            r.sq += q;
            r.sqx += (si128)q * x;
            r.sq2 += (su128)((si128)q * q);
          }
        }
        left = L;
        cur = right;
      }
      if (contacts && r.label) {
        spair(keys, counts, overflow, s, py, r.label, 0, 1);
        spair(keys, counts, overflow, s, pz, r.label, 0, 2);
      }
    }
    // The open runs of the warp: lanes of one row and label in a row
    // (segments follow each other) merge into the first.
    const unsigned int label = r.cnt ? r.label : 0;
    const unsigned int upLabel = __shfl_up_sync(0xffffffffu, label, 1);
    const long long upRow = __shfl_up_sync(0xffffffffu, row, 1);
    const bool head = lane == 0 || upLabel != label || upRow != row;
    const unsigned int heads = __ballot_sync(0xffffffffu, head);
    const unsigned int after = heads & ~((2u << lane) - 1u); // heads above this lane
    const int end = lane == 31 || after == 0 ? 32 : __ffs(after) - 1;
    for (int o = 1; o < 32; o *= 2) {
      const bool take = lane + o < end;
      const unsigned int cnt = sshfl_u32(r.cnt, o), maxx = sshfl_u32(r.maxx, o);
      const su64 sx = sshfl_u64(r.sx, o), f = sshfl_u64(r.faces, o);
      if (take) {
        r.cnt += cnt;
        r.maxx = max(r.maxx, maxx);
        r.sx += sx;
        r.faces += f;
      }
      if (INTENSITY) {
        const su64 kmin = sshfl_u64(r.kmin, o), kmax = sshfl_u64(r.kmax, o);
        const su128 sq = sshfl_u128((su128)r.sq, o), sqx = sshfl_u128((su128)r.sqx, o), sq2 = sshfl_u128(r.sq2, o);
        if (take) {
          r.kmin = min(r.kmin, kmin);
          r.kmax = max(r.kmax, kmax);
          r.sq += (si128)sq;
          r.sqx += (si128)sqx;
          r.sq2 += sq2;
        }
      }
    }
    if (head && label) sflush(table, s, r, y, z);
  }
}

extern "C" __global__ void __launch_bounds__(STATS_THREADS)
stats_none(const unsigned int* const __restrict__ labels, const void* const __restrict__ in, su64* const __restrict__ table,
           su64* const __restrict__ keys, unsigned int* const __restrict__ counts, unsigned int* const overflow, const StatsShape s)
{
  stats_pass<unsigned char, false>(labels, nullptr, table, keys, counts, overflow, s);
}

#define STATS_KERNELS(sfx, T)                                                                                                              \
  extern "C" __global__ void __launch_bounds__(STATS_THREADS)                                                                              \
  stats_absmax_##sfx(const T* const __restrict__ in, const long long n, const StatsShape s, su64* const __restrict__ out)                 \
  {                                                                                                                                        \
    stats_absmax<T>(in, n, s, out);                                                                                                        \
  }                                                                                                                                        \
  extern "C" __global__ void __launch_bounds__(STATS_THREADS)                                                                              \
  stats_##sfx(const unsigned int* const __restrict__ labels, const T* const __restrict__ in, su64* const __restrict__ table,              \
              su64* const __restrict__ keys, unsigned int* const __restrict__ counts, unsigned int* const overflow, const StatsShape s)    \
  {                                                                                                                                        \
    stats_pass<T, true>(labels, in, table, keys, counts, overflow, s);                                                                     \
  }

STATS_KERNELS(u8, unsigned char)
STATS_KERNELS(i8, signed char)
STATS_KERNELS(u16, unsigned short)
STATS_KERNELS(i16, short)
STATS_KERNELS(u32, unsigned int)
STATS_KERNELS(i32, int)
STATS_KERNELS(f32, float)
STATS_KERNELS(f64, double)
