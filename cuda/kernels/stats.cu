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
//     A thread takes STATS_SEG voxels of a row and sums the runs of
//     equal labels in registers; a run that ends inside the segment goes to the table by
//     atomics, unless it is the segment's first and continues the segment
//     before: that one joins the open run of the lane before. The runs
//     still open at the segments' ends are merged across the warp's lanes
//     of the same row and label (a segmented shuffle reduction) and go by
//     the first lane. Every sum goes by reductions whose results are not
//     used, so no thread waits for them.
//
// Each label L (1..N) has an entry of `stride` 64-bit words at table +
// L * stride:
//   0 size, 1..3 the sums of x, y and z;
//   4..7 as 32-bit halves: min x, max x, min y, max y, min z, max z, the
//     smallest index (its first voxel), unused;
//   8..9 as 32-bit halves: the pairs of face neighbours of the label along
//     x, y and z (the host's exposed faces are 2 * size - 2 * pairs),
//     unused;
//   with intensity (stride 27): 10, 11 the ordered keys of the smallest
//     and largest v; then, with q = rint(v * 2^s) as an integer, the sums
//     in limb words (slimbs): 12..13 the sum of q, 14..17 the sum of q^2,
//     18..20, 21..23, 24..26 the sums of q*x, q*y and q*z. Word k < K-1 of
//     a sum of K words sums the k-th 32-bit limbs of the runs' sums, the
//     last their bits from 32(K-1) up, signed; the sum is
//     sum_k word_k * 2^(32k). With |q| <= 2^58, fewer than 2^31 voxels and
//     coordinates below 2^31, the last words' sums stay inside 64 bits (the
//     sums of q below 2^89, of q*x below 2^120, of q^2 below 2^147), and
//     each run's sums, of at most 32 * STATS_SEG voxels, inside 128 bits.
//     The sums are exact, so the table does not depend on the order of the
//     atomics.
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

// sred adds v to the 64-bit word at p, its result unused, so that the
// thread does not wait for it (a reduction, not an atomic that returns).
static __device__ __forceinline__ void sred(su64* const p, const su64 v)
{
  if (v) atomicAdd(p, v);
}

// slimbs adds v (two's complement) to the K limb words at p: word k < K-1
// sums the k-th 32-bit limb of v (unsigned), word K-1 sums v >> 32(K-1)
// (arithmetic). A word never carries into the next: each takes fewer than
// 2^31 additions (one a run, fewer runs than voxels), so the unsigned
// words stay below 2^63, and the last holds the exact high part of the
// sum, whose bound (see the table) keeps it inside 64 bits. The host
// adds the words, shifted, into the sum.
template <int K> static __device__ __forceinline__ void slimbs(su64* const p, const si128 v)
{
#pragma unroll
  for (int k = 0; k < K - 1; k++) sred(p + k, (su64)(unsigned int)((su128)v >> (32 * k)));
  sred(p + K - 1, (su64)(long long)(v >> (32 * (K - 1))));
}

// sflush adds run r of row (y, z) to the table.
static __device__ void sflush(su64* const __restrict__ table, const StatsShape& s, const SRun& r, const unsigned int y, const unsigned int z)
{
  su64* const e = table + (long long)r.label * s.stride;
  unsigned int* const e32 = reinterpret_cast<unsigned int*>(e);
  sred(&e[0], (su64)r.cnt);
  sred(&e[1], r.sx);
  sred(&e[2], (su64)r.cnt * y);
  sred(&e[3], (su64)r.cnt * z);
  // The bounds by reductions too: a read of the entry first would wait.
  atomicMin(&e32[8], r.minx);
  atomicMax(&e32[9], r.maxx);
  atomicMin(&e32[10], y);
  atomicMax(&e32[11], y);
  atomicMin(&e32[12], z);
  atomicMax(&e32[13], z);
  atomicMin(&e32[14], r.first);
  // The pairs along x and y in one word: x's sum, below 2^31, never
  // carries into y's half.
  const unsigned int px = (unsigned int)(r.faces & 0x1fffff), py = (unsigned int)((r.faces >> 21) & 0x1fffff),
                     pz = (unsigned int)(r.faces >> 42);
  sred(&e[8], (su64)px | (su64)py << 32);
  if (pz) atomicAdd(&e32[18], pz);
  if (s.flags & 4) {
    atomicMin(&e[10], r.kmin);
    atomicMax(&e[11], r.kmax);
    slimbs<2>(&e[12], r.sq);
    slimbs<4>(&e[14], (si128)r.sq2);
    slimbs<3>(&e[18], r.sqx);
    slimbs<3>(&e[21], r.sq * (si128)y);
    slimbs<3>(&e[24], r.sq * (si128)z);
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

// smerge adds the sums of run o (the same label and row, further along
// it) to r.
template <bool INTENSITY> static __device__ __forceinline__ void smerge(SRun& r, const SRun& o)
{
  r.cnt += o.cnt;
  r.maxx = max(r.maxx, o.maxx);
  r.sx += o.sx;
  r.faces += o.faces;
  if (INTENSITY) {
    r.kmin = min(r.kmin, o.kmin);
    r.kmax = max(r.kmax, o.kmax);
    r.sq += o.sq;
    r.sqx += o.sqx;
    r.sq2 += o.sq2;
  }
}

// sshfl_run returns run r of the lane o above (shuffled down by o).
template <bool INTENSITY> static __device__ __forceinline__ SRun sshfl_run(const SRun& r, const int o)
{
  SRun t;
  t.cnt = sshfl_u32(r.cnt, o);
  t.maxx = sshfl_u32(r.maxx, o);
  t.sx = sshfl_u64(r.sx, o);
  t.faces = sshfl_u64(r.faces, o);
  if (INTENSITY) {
    t.kmin = sshfl_u64(r.kmin, o);
    t.kmax = sshfl_u64(r.kmax, o);
    t.sq = (si128)sshfl_u128((su128)r.sq, o);
    t.sqx = (si128)sshfl_u128((su128)r.sqx, o);
    t.sq2 = sshfl_u128(r.sq2, o);
  }
  return t;
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
  const bool faces = s.flags & 1, contacts = s.flags & 2, three = d > 1, near = faces || contacts;
  // 2^s where it is a normal double, by which v * 2^s is scalbn(v, s)
  // (both the exact product rounded once; q of a subnormal one is 0).
  const double pow2 = s.scale <= 1023 ? scalbn(1.0, s.scale) : 0.0;
  const long long warp = (threadIdx.x + (long long)blockIdx.x * blockDim.x) / 32, warps = (long long)gridDim.x * blockDim.x / 32;
  for (long long u = warp; u < units; u += warps) {
    const long long t = 32 * u + lane;
    // r is the open run; f the segment's first run when it continues the
    // lane before's open run (the same row and label) and ends inside the
    // segment: it joins that run rather than going to the table alone.
    SRun r, f;
    srun_reset(r, 0);
    srun_reset(f, 0);
    f.maxx = 0;
    long long row = 0;
    unsigned int y = 0, z = 0;
    if (t < total) {
      row = t / segs;
      const long long x0 = (t - row * segs) * STATS_SEG, x1 = min(x0 + STATS_SEG, w);
      y = (unsigned int)(row % h);
      z = (unsigned int)(row / h);
      const long long base = row * w;
      const bool hasUp = y + 1 < h, hasFront = z + 1 < d;
      const unsigned int left = x0 > 0 ? labels[base + x0 - 1] : STATS_BORDER;
      const bool join = lane > 0 && x0 > 0;
      SPair py = {0, 0}, pz = {0, 0};
      // step adds voxel x of label L, whose face neighbours along +x, +y
      // and +z are right, up and front, and whose sample is v.
      const auto step = [&](const long long x, const unsigned int L, const unsigned int right, const unsigned int up, const unsigned int front,
                            const T v) {
        if (L != r.label) {
          if (r.cnt) {
            if (join && r.minx == x0 && r.label == left)
              f = r;
            else
              sflush(table, s, r, y, z);
          }
          if (contacts && r.label) {
            spair(keys, counts, overflow, s, py, r.label, 0, 1);
            spair(keys, counts, overflow, s, pz, r.label, 0, 2);
          }
          srun_reset(r, L);
          r.minx = (unsigned int)x;
          r.first = (unsigned int)(base + x);
        }
        if (L != 0) {
          r.cnt++;
          r.sx += (su64)x;
          r.maxx = (unsigned int)x;
          // Pairs of face neighbours inside the label, along x, y, z.
          if (faces) r.faces += (su64)(right == L) | (su64)(up == L) << 21 | (su64)(front == L) << 42;
          if (contacts) {
            if (right != L && right != 0 && right != STATS_BORDER) scontact(keys, counts, overflow, s, L, right, 0, 1);
            spair(keys, counts, overflow, s, py, L, (up != L && up != STATS_BORDER) ? up : 0, 1);
            if (three) spair(keys, counts, overflow, s, pz, L, (front != L && front != STATS_BORDER) ? front : 0, 2);
          }
          if (INTENSITY) {
            const double sv = sval(v, s);
            const su64 k = sorder(sv);
            r.kmin = min(r.kmin, k);
            r.kmax = max(r.kmax, k);
            const long long q = llrint(pow2 != 0 ? sv * pow2 : scalbn(sv, s.scale));
            r.sq += q;
            r.sqx += (si128)q * x;
            r.sq2 += (su128)((si128)q * q);
          }
        }
      };
      {
        unsigned int cur = labels[base + x0];
        for (long long x = x0; x < x1; x++) {
          const long long i = base + x;
          const unsigned int right = x + 1 < w ? labels[i + 1] : STATS_BORDER;
          unsigned int up = STATS_BORDER, front = STATS_BORDER;
          if (near && cur != 0) {
            if (hasUp) up = labels[i + w];
            if (three && hasFront) front = labels[i + plane];
          }
          step(x, cur, right, up, front, INTENSITY && cur != 0 ? in[i] : T());
          cur = right;
        }
      }
      if (contacts && r.label) {
        spair(keys, counts, overflow, s, py, r.label, 0, 1);
        spair(keys, counts, overflow, s, pz, r.label, 0, 2);
      }
    }
    // The first run of the lane after joins this lane's open run.
    const SRun g = sshfl_run<INTENSITY>(f, 1);
    if (lane < 31 && g.cnt) smerge<INTENSITY>(r, g);
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
      const SRun g = sshfl_run<INTENSITY>(r, o);
      if (lane + o < end) smerge<INTENSITY>(r, g);
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
