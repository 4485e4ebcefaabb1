// Run-based ECL-CC for every rule and connectivity: the vertices are the
// runs of a row (maximal stretches of one nonzero key along x, cut where a
// segment of RSEG voxels ends), numbered in memory order, so the parent
// array has an entry per run instead of per voxel (a dense segmentation
// of long runs keeps it in L2) and the smallest run of a component — its
// root — is its first in memory order.
//
// Kernels, in order (a warp per segment; a segment is RSEG voxels of one
// row, x0 <= x < x1, swept 32 voxels a step):
//   runs_count: counts[g] = the runs of segment g (and, for the multilabel
//     rule, grid_values' two words: whether one value is all); a whole
//     segment of byte samples under the multilabel and binary rules is
//     counted from 32-bit words (rcountWords).
//   scan_tiles, grid_scan (ecl_grid.cu, ecl_grid_blocks.cu): the counts
//     become offsets (the run numbers of each segment's first run), the
//     number of runs R into runTotal.
//   runs_init: parent[i] = i for the R runs; masks: a bit per run set.
//   runs_link: each pair of joined runs of the segment's row and one of
//     its backward neighbour rows (and across the segment's left end)
//     hooked once (ECL-CC: intermediate pointer jumping, CAS of the larger
//     root under the smaller).
//   tiles_roots (ecl_grid_tiles.cu): every run pointed at its root, masks
//     keep the roots, per-word counts into the labels buffer.
//   scan_tiles, grid_scan: those counts become offsets, the component count
//     into total.
//   runs_number: parent[i] = the label of run i (its root's rank + 1).
//   runs_relabel: every voxel gets its run's label, background 0.
// A pair of runs R = [a, b] (own row) and S = [c, d] (neighbour row) joins
// when their keys are equal and [a - r, b + r] meets [c, d], r the reach
// of the neighbour row's offset (1 where the stencil holds the diagonal
// neighbours in that row, else 0). It is hooked at one lane q only: at
// reach 0 where q = max(a, c); at reach 1 at q = a when S holds a - 1
// (with x = a, p = a - 1), at q = a when S starts at a, at q = c when S
// starts at c > a and the voxel q - 1 is in R. Each lane sees its own and
// its left neighbour's voxels (shuffles; the segment's first lane loads
// x0 - 1), so every case is one test of its keys and start flags.
// Device memory: the input, parent (an entry per run), labels (first the
// root counts and their sums), the segments' counts and sums, the masks.

#define RSEG 256     // voxels of a segment
#define RUN_WARPS 8  // segments (warps) per thread block
#define RSTEPS (RSEG / 32)

// RSegment is the warp's segment: row (z * h + y), y, z, the voxel range
// [x0, x1) and the index of the row's first voxel.
struct RSegment {
  long long g, row, base;
  int y, z, x0, x1;
};

// rsegmentAt returns segment g.
static __device__ __forceinline__ RSegment rsegmentAt(const GridShape& s, const long long g)
{
  RSegment r;
  const long long spr = (s.w + RSEG - 1) / RSEG;
  r.g = g;
  r.row = r.g / spr;
  r.x0 = (int)(r.g - r.row * spr) * RSEG;
  r.x1 = min(r.x0 + RSEG, s.w);
  r.y = (int)(r.row % s.h);
  r.z = (int)(r.row / s.h);
  r.base = r.row * s.w;
  return r;
}

// rsegments is the number of segments.
static __device__ __forceinline__ long long rsegments(const GridShape& s) { return (s.w + RSEG - 1) / RSEG * (long long)s.h * s.d; }

// rsegment returns the calling warp's segment; ok is false past the last.
static __device__ __forceinline__ RSegment rsegment(const GridShape& s, bool& ok)
{
  const long long g = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  ok = g < rsegments(s);
  return rsegmentAt(s, g);
}

// rkeys loads the keys of a row's segment voxels x0 + 32 j + lane (0 past
// x1) and returns the key of voxel x0 - 1 (0 at x0 = 0). The rule is
// tested once per row (warp-uniform), not per sample inside gkey, which
// would slow the binary rule in every run kernel; under the binary
// and threshold rules the samples are all loaded before their keys are
// made, under the multilabel rule each is its key as loaded (loading them
// all first takes more registers).
template <typename T>
static __device__ __forceinline__ unsigned int rkeys(const T* const __restrict__ in, const long long base, const int x0, const int x1,
                                                     const GridShape& s, unsigned int (&k)[RSTEPS])
{
  const int lane = threadIdx.x % 32;
  if (s.rule == 0) {
#pragma unroll
    for (int j = 0; j < RSTEPS; j++) {
      const int x = x0 + 32 * j + lane;
      k[j] = x < x1 ? gbits(in[base + x]) : 0u;
    }
    return x0 > 0 ? gbits(in[base + x0 - 1]) : 0u;
  }
  T v[RSTEPS];
#pragma unroll
  for (int j = 0; j < RSTEPS; j++) {
    const int x = x0 + 32 * j + lane;
    v[j] = x < x1 ? in[base + x] : T(0);
  }
  const T l = x0 > 0 ? in[base + x0 - 1] : T(0);
  if (s.rule == 1) { // gbits is 0 exactly for zero (and NaN) samples
#pragma unroll
    for (int j = 0; j < RSTEPS; j++) k[j] = gbits(v[j]) != 0u ? 1u : 0u;
    return gbits(l) != 0u ? 1u : 0u;
  }
#pragma unroll
  for (int j = 0; j < RSTEPS; j++) k[j] = x0 + 32 * j + lane < x1 ? gkey(v[j], s) : 0u;
  return x0 > 0 ? gkey(l, s) : 0u;
}

// rstarts returns the ballot of run starts of step j (keys k, the key
// left of the step's first voxel in left, updated to the step's last) and
// sets kp to the key of the lane's left neighbour: a run starts at a
// nonzero key that differs from its left neighbour's, or at x0.
static __device__ __forceinline__ unsigned int rstarts(const unsigned int k, const int j, unsigned int& left, unsigned int& kp)
{
  const int lane = threadIdx.x % 32;
  kp = __shfl_up_sync(0xffffffffu, k, 1);
  if (lane == 0) kp = left;
  left = __shfl_sync(0xffffffffu, k, 31);
  const bool start = k != 0u && (k != kp || (j == 0 && lane == 0));
  return __ballot_sync(0xffffffffu, start);
}

// segOffset is the number of segment g's first run.
static __device__ __forceinline__ int segOffset(const unsigned int* const __restrict__ offsets,
                                                const unsigned int* const __restrict__ sums, const long long g)
{
  return (int)(offsets[g] + sums[g / SCAN_TILE]);
}

// rcountWords counts the runs of segment r of byte samples under the
// multilabel or binary rule (the count in lane 0) from 32-bit words, two
// a lane, and returns true; it returns false, counting nothing, for other
// samples and rules, a segment shorter than RSEG or words not aligned
// (warp-uniform). As rstarts, a run starts at a nonzero key that differs
// from the key before it, or at x0: four keys a word, compared bytewise.
template <typename T>
static __device__ __forceinline__ bool rcountWords(const T* const __restrict__, const RSegment&, const GridShape&, unsigned int&)
{
  return false;
}
template <>
__device__ __forceinline__ bool rcountWords<unsigned char>(const unsigned char* const __restrict__ in, const RSegment& r,
                                                          const GridShape& s, unsigned int& runs)
{
  const unsigned char* const p = in + r.base + r.x0;
  if (s.rule > 1 || r.x1 - r.x0 != RSEG || ((unsigned long long)p & 3u) != 0u) return false;
  const int lane = threadIdx.x % 32;
  const unsigned int* const w = (const unsigned int*)p;
  unsigned int a = w[lane], b = w[lane + 32]; // voxels 4 lane.. and 128 + 4 lane..
  if (s.rule == 1) {
    a = __vcmpne4(a, 0u);
    b = __vcmpne4(b, 0u);
  }
  // The key before each word's first byte: the last of the lane before;
  // at x0 one that differs, at x0 + 128 the last of lane 31's a.
  unsigned int pa = __shfl_up_sync(0xffffffffu, a, 1) >> 24, pb = __shfl_up_sync(0xffffffffu, b, 1) >> 24;
  const unsigned int a31 = __shfl_sync(0xffffffffu, a, 31) >> 24;
  if (lane == 0) {
    pa = ~a & 0xffu;
    pb = a31;
  }
  const unsigned int sa = __vcmpne4(a, a << 8 | pa) & __vcmpne4(a, 0u), sb = __vcmpne4(b, b << 8 | pb) & __vcmpne4(b, 0u);
  unsigned int c = (__popc(sa) + __popc(sb)) / 8u;
#pragma unroll
  for (int o = 16; o > 0; o /= 2) c += __shfl_down_sync(0xffffffffu, c, o);
  runs = c;
  return true;
}

// runs_count: a warp per segment, grid-stride. With values set (the
// multilabel rule on integer samples) it also does grid_values' work on
// the keys (ecl_grid_values.cu: values must hold {0, 0} before the launch;
// then values[0] is the largest -v and values[1] the largest v of the
// nonzero sample patterns v), so that the samples are read once.
template <typename T>
static __device__ void runs_count(const T* const __restrict__ in, unsigned int* const __restrict__ counts, const GridShape s,
                                  unsigned int* const __restrict__ values)
{
  constexpr unsigned int width = sizeof(T) >= 4 ? 0xffffffffu : (1u << (8 * sizeof(T))) - 1u;
  const long long segs = rsegments(s), warps = (long long)gridDim.x * blockDim.x / 32;
  const int lane = threadIdx.x % 32;
  unsigned int lo = 0, hi = 0;
  for (long long g = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32; g < segs; g += warps) { // warp-uniform
    const RSegment r = rsegmentAt(s, g);
    unsigned int runs = 0;
    if (values == nullptr && rcountWords(in, r, s, runs)) { // warp-uniform
      if (lane == 0) counts[g] = runs;
      continue;
    }
    unsigned int k[RSTEPS];
    unsigned int left = rkeys(in, r.base, r.x0, r.x1, s, k), kp;
#pragma unroll
    for (int j = 0; j < RSTEPS; j++) {
      runs += __popc(rstarts(k[j], j, left, kp));
      const unsigned int v = k[j] & width;
      if (v != 0u) {
        lo = max(lo, (0u - v) & width);
        hi = max(hi, v);
      }
    }
    if (lane == 0) counts[g] = runs;
  }
  if (values == nullptr) return; // uniform
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    lo = max(lo, __shfl_down_sync(0xffffffffu, lo, o));
    hi = max(hi, __shfl_down_sync(0xffffffffu, hi, o));
  }
  __shared__ unsigned int part[2][RUN_WARPS];
  if (lane == 0) {
    part[0][threadIdx.x / 32] = lo;
    part[1][threadIdx.x / 32] = hi;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < RUN_WARPS; w++) {
      lo = max(lo, part[0][w]);
      hi = max(hi, part[1][w]);
    }
    if (hi != 0u) {
      atomicMax(&values[0], lo);
      atomicMax(&values[1], hi);
    }
  }
}

// runs_init sets parent[i] = i for the R = *runTotal runs and a mask bit
// per run (words: the masks' length), grid-stride.
extern "C" __global__ void __launch_bounds__(256)
runs_init(int* const __restrict__ parent, unsigned int* const __restrict__ masks, const unsigned int* const __restrict__ runTotal,
          const long long words)
{
  const long long runs = *runTotal;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride) {
    const long long lo = 32 * i;
    masks[i] = lo + 32 <= runs ? 0xffffffffu : (lo < runs ? (1u << (runs - lo)) - 1u : 0u);
  }
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < runs; i += stride) parent[i] = (int)i;
}

// RNeighbour is a backward neighbour row of the stencil: offset (dy, dz)
// and reach (1: the diagonal neighbours of that row join too).
struct RNeighbour {
  int dy, dz, reach;
};
template <int CONN> static __device__ __forceinline__ int rneighbours() { return CONN == 4 || CONN == 8 ? 1 : CONN == 6 ? 2 : 4; }
// In 3D the plane below comes first, and a pair of runs R (own row) and S
// (another row) is skipped where the plane below joins them otherwise,
// which holds by induction over z: pairs with row (y, z - 1) are never
// skipped, the others only on pairs of plane z - 1 and on pairs of plane z
// skipped only on those. With T the run holding the voxel below R's voxel
// of the pair (in row (y, z - 1)), when it has the key:
// - S in row (y - 1 or y + 1, z - 1), at 18 and 26: S and T touch in plane
//   z - 1 (their rows' reach there is at least this row's).
// - S in row (y - 1, z), at 26: T is in S's row (y + 1, z - 1) at reach 1,
//   so the pair S, T of the previous case joins them; at 18 the same where
//   S's voxel is above R's. Else (at 18 and 6) where U, the run holding the
//   voxel of row (y - 1, z - 1) below R's voxel, has the key too: R's and
//   S's voxels are at most one apart in x, so U touches S through row
//   (y - 1, z - 1) and T in plane z - 1.
template <int CONN> static __device__ __forceinline__ RNeighbour rneighbour(const int j)
{
  if (CONN == 4 || CONN == 8) return {-1, 0, CONN == 8 ? 1 : 0};
  if (j == 0) return {0, -1, CONN == 18 || CONN == 26 ? 1 : 0};
  if (j == 1) return {-1, 0, CONN == 18 || CONN == 26 ? 1 : 0};
  if (j == 2) return {-1, -1, CONN == 26 ? 1 : 0};
  return {1, -1, CONN == 26 ? 1 : 0};
}

// RQueue holds a warp's joined pairs of runs until it hooks them, a lane
// per pair: hooked as found, a warp would wait for each union's chain of
// dependent loads in turn (the segment's steps and neighbour rows one
// after another); queued, 32 chains run at once. A step and neighbour row
// adds at most 64 pairs (two per lane), so the queue is drained when it
// holds more than RQUEUE - 64.
#define RQUEUE 128
struct RQueue {
  int2* pairs;
  int count; // warp-uniform
};

// rqueue adds the pair (a, b) of each lane with want set (all lanes call it).
static __device__ __forceinline__ void rqueue(RQueue& q, const bool want, const int a, const int b)
{
  const unsigned int m = __ballot_sync(0xffffffffu, want);
  if (want) q.pairs[q.count + __popc(m & ((1u << (threadIdx.x % 32)) - 1u))] = make_int2(a, b);
  q.count += __popc(m);
}

// rdrain hooks the queued pairs (ECL-CC: intermediate pointer jumping, CAS
// of the larger root under the smaller) when more than limit are queued,
// a lane per pair, and empties the queue (all lanes call it).
static __device__ __forceinline__ void rdrain(RQueue& q, int* const __restrict__ parent, const int limit)
{
  if (q.count <= limit) return; // warp-uniform
  __syncwarp();
  for (int i = threadIdx.x % 32; i < q.count; i += 32) {
    const int2 p = q.pairs[i];
    ghook(parent, p.x, p.y);
  }
  __syncwarp();
  q.count = 0;
}

template <typename T, int CONN>
static __device__ void runs_link(const T* const __restrict__ in, const unsigned int* const __restrict__ offsets,
                                 const unsigned int* const __restrict__ sums, int* const __restrict__ parent, const GridShape s)
{
  __shared__ int2 pairs[RUN_WARPS][RQUEUE];
  bool ok;
  const RSegment r = rsegment(s, ok);
  if (!ok) return; // warp-uniform
  constexpr bool conn3d = CONN == 6 || CONN == 18 || CONN == 26;
  const int lane = threadIdx.x % 32;
  const unsigned int le = 0xffffffffu >> (31 - lane), lt = le >> 1;
  RQueue queue{pairs[threadIdx.x / 32], 0};
  unsigned int k[RSTEPS];
  unsigned int left = rkeys(in, r.base, r.x0, r.x1, s, k);
  const int own = segOffset(offsets, sums, r.g);
  // The run left of the segment, when it has the first voxel's key, is
  // the same run of the row: join them.
  rqueue(queue, lane == 0 && k[0] != 0u && k[0] == left, own - 1, own);
  unsigned int ownStarts[RSTEPS], kps[RSTEPS];
  {
    unsigned int l = left;
#pragma unroll
    for (int j = 0; j < RSTEPS; j++) ownStarts[j] = rstarts(k[j], j, l, kps[j]);
  }
  const long long spr = (s.w + RSEG - 1) / RSEG;
  // Keys of row (y, z - 1) at each lane's voxel and the one left of it
  // (0: no skipping).
  unsigned int below[RSTEPS], belowLeft[RSTEPS];
#pragma unroll
  for (int j = 0; j < RSTEPS; j++) below[j] = belowLeft[j] = 0u;
  // Keys of row (y - 1, z - 1) at each lane's voxel, for the pairs with
  // row (y - 1, z) at 6 and 18 (0: no skipping).
  unsigned int under[RSTEPS];
#pragma unroll
  for (int j = 0; j < RSTEPS; j++) under[j] = 0u;
  if ((CONN == 6 || CONN == 18) && r.y > 0 && r.z > 0) rkeys(in, (r.row - s.h - 1) * s.w, r.x0, r.x1, s, under); // warp-uniform
#pragma unroll
  for (int n = 0; n < rneighbours<CONN>(); n++) {
    const RNeighbour nb = rneighbour<CONN>(n);
    const int ny = r.y + nb.dy, nz = r.z + nb.dz;
    if (ny < 0 || ny >= s.h || nz < 0) continue; // warp-uniform
    const bool beside = (CONN == 18 || CONN == 26) && nb.dz < 0 && nb.dy != 0, above = conn3d && nb.dz == 0;
    const long long nrow = (long long)nz * s.h + ny;
    unsigned int q[RSTEPS];
    unsigned int nleft = rkeys(in, nrow * s.w, r.x0, r.x1, s, q);
    const int other = segOffset(offsets, sums, nrow * spr + (r.g - r.row * spr));
    int ownBefore = own, otherBefore = other; // runs of the steps before
#pragma unroll
    for (int j = 0; j < RSTEPS; j++) {
      unsigned int qp;
      const unsigned int nstarts = rstarts(q[j], j, nleft, qp);
      const bool S = ((ownStarts[j] >> lane) & 1u) != 0u, nS = ((nstarts >> lane) & 1u) != 0u;
      const int id = ownBefore + __popc(ownStarts[j] & le) - 1, idLeft = ownBefore + __popc(ownStarts[j] & lt) - 1;
      const int nid = otherBefore + __popc(nstarts & le) - 1, nidLeft = otherBefore + __popc(nstarts & lt) - 1;
      const unsigned int key = k[j], kp = kps[j], nk = q[j];
      if (conn3d && nb.dz < 0 && nb.dy == 0) {
        below[j] = nk;
        belowLeft[j] = qp;
      }
      // Pairs of the own voxel q (or q - 1) skipped where the plane below
      // joins their runs (see rneighbour).
      const bool skip = (beside || (above && CONN != 6)) ? below[j] == key : above ? below[j] == key && under[j] == key : false;
      const bool skipLeft = (beside || (above && CONN == 26)) ? belowLeft[j] == kp : above ? belowLeft[j] == kp && under[j] == kp : false;
      if (nb.reach == 0) {
        rqueue(queue, (S || nS) && key != 0u && nk == key && !skip, id, nid);
      } else {
        // The neighbour run holding a - 1, else the one starting at a (when
        // both, at a segment's start, the neighbour row's own segment join
        // joins them).
        const bool skipOwn = CONN == 18 && above && qp == key ? below[j] == key && under[j] == key : skip;
        rqueue(queue, S && (qp == key || (nS && nk == key)) && !skipOwn, id, qp == key ? nidLeft : nid);
        rqueue(queue, nS && kp != 0u && nk == kp && !skipLeft, idLeft, nid);
      }
      rdrain(queue, parent, RQUEUE - 64);
      ownBefore += __popc(ownStarts[j]);
      otherBefore += __popc(nstarts);
    }
  }
  rdrain(queue, parent, 0);
}

// runs_number replaces each run's parent entry (its root, after
// tiles_roots) by its label: the root's rank among the roots in memory
// order + 1 (masks: the roots; offsets and sums: the scanned per-word root
// counts), grid-stride over the *runTotal runs.
extern "C" __global__ void __launch_bounds__(256)
runs_number(int* const __restrict__ parent, const unsigned int* const __restrict__ masks,
            const unsigned int* const __restrict__ offsets, const unsigned int* const __restrict__ sums,
            const unsigned int* const __restrict__ runTotal)
{
  const long long runs = *runTotal;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < runs; i += stride) {
    const int root = parent[i];
    const unsigned int word = (unsigned int)root >> 5;
    parent[i] = (int)(sums[word / SCAN_TILE] + offsets[word] + __popc(masks[word] & ((1u << (root & 31)) - 1u)) + 1u);
  }
}

template <typename T>
static __device__ void runs_relabel(const T* const __restrict__ in, const unsigned int* const __restrict__ offsets,
                                    const unsigned int* const __restrict__ sums, const int* const __restrict__ runLabels,
                                    unsigned int* const __restrict__ labels, const GridShape s)
{
  bool ok;
  const RSegment r = rsegment(s, ok);
  if (!ok) return; // warp-uniform
  const int lane = threadIdx.x % 32;
  const unsigned int le = 0xffffffffu >> (31 - lane);
  unsigned int k[RSTEPS];
  unsigned int left = rkeys(in, r.base, r.x0, r.x1, s, k), kp;
  int before = segOffset(offsets, sums, r.g);
#pragma unroll
  for (int j = 0; j < RSTEPS; j++) {
    const unsigned int starts = rstarts(k[j], j, left, kp);
    const int x = r.x0 + 32 * j + lane;
    if (x < r.x1) labels[r.base + x] = k[j] != 0u ? (unsigned int)runLabels[before + __popc(starts & le) - 1] : 0u;
    before += __popc(starts);
  }
}

#define RUNS_CONN(suffix, T, conn)                                                                                            \
  extern "C" __global__ void __launch_bounds__(32 * RUN_WARPS)                                                                \
      runs_link_c##conn##_##suffix(const T* const __restrict__ in, const unsigned int* const __restrict__ offsets,          \
                                   const unsigned int* const __restrict__ sums, int* const __restrict__ parent, const GridShape s) \
  {                                                                                                                         \
    runs_link<T, conn>(in, offsets, sums, parent, s);                                                                       \
  }
#define RUNS_TYPE(suffix, T)                                                                                                  \
  extern "C" __global__ void __launch_bounds__(32 * RUN_WARPS)                                                                \
      runs_count_##suffix(const T* const __restrict__ in, unsigned int* const __restrict__ counts, const GridShape s,        \
                          unsigned int* const __restrict__ values)                                                          \
  {                                                                                                                         \
    runs_count<T>(in, counts, s, values);                                                                                   \
  }                                                                                                                         \
  extern "C" __global__ void __launch_bounds__(32 * RUN_WARPS) runs_relabel_##suffix(                                       \
      const T* const __restrict__ in, const unsigned int* const __restrict__ offsets, const unsigned int* const __restrict__ sums, \
      const int* const __restrict__ runLabels, unsigned int* const __restrict__ labels, const GridShape s)                  \
  {                                                                                                                         \
    runs_relabel<T>(in, offsets, sums, runLabels, labels, s);                                                               \
  }                                                                                                                         \
  RUNS_CONN(suffix, T, 4)                                                                                                   \
  RUNS_CONN(suffix, T, 8)                                                                                                   \
  RUNS_CONN(suffix, T, 6)                                                                                                   \
  RUNS_CONN(suffix, T, 18)                                                                                                  \
  RUNS_CONN(suffix, T, 26)
RUNS_TYPE(u8, unsigned char)
RUNS_TYPE(u16, unsigned short)
RUNS_TYPE(i16, short)
RUNS_TYPE(u32, unsigned int)
RUNS_TYPE(i32, int)
RUNS_TYPE(f32, float)
