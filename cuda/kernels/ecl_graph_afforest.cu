// Afforest (Sutton, Ben-Nun & Barak, IPDPS'18) on a CSR graph, with
// ECL-CC's hooking (larger root under smaller, CAS) so the representatives
// are each component's smallest vertex ID, as ecl_graph.cu gives them.
// Sampling: round 0 is ecl_init (each vertex at its closest smaller
// neighbour, plain stores) or, after aff_identity, aff_round 0 (link to the
// first neighbour); round r > 0 links each vertex to the neighbour at
// position r. After an init round 0, aff_compress_links points every
// vertex at its root and links each vertex the init left a root to its
// two largest neighbours (see affCompressLinks). After each round
// compressVertex points v, whose parent is old (not v), at its root.
static __device__ __forceinline__ void compressVertex(const int v, const int old, int* const __restrict__ nstat)
{
  const int rep = representative(v, nstat);
  if (rep != old) nstat[v] = rep;
}

// aff_compress points every vertex at its root and aff_sample takes the
// most frequent root of a fixed pseudo-random sample as the giant; with adaptive set, rounds after the
// first (and their compress and sample) are skipped once the giant holds
// a quarter of the samples. The finishing kernels (thread per vertex, then
// warps and blocks per degree in one launch, as ecl_compute1 and
// ecl_compute23) link every remaining edge of the vertices outside the
// giant, from both ends: a vertex found in the giant has all its edges
// covered by their other ends or by the giant itself. ecl_flatten ends.
// The _f kernels record each hook's edge (spanning forests).

// AffSamples is the number of vertices aff_sample draws (its block size).
static const int AffSamples = 256;

// affGiant is the sampled giant, affCount its count among the samples,
// affLinked the number of rounds that ran (the positions 0 .. affLinked-1
// of the lists were linked, or with ecl_init as round 0, 1 .. affLinked-1
// and the closest smaller neighbour).
__device__ int affGiant, affCount, affLinked;

// affDone reports whether an adaptive run (adaptive > 0) may skip its
// later rounds: the giant holds at least a quarter of the samples. The
// compress and sample after round 0 take adaptive = -1: they always run,
// and the compress starts the count of rounds.
static __device__ __forceinline__ bool affDone(const int adaptive)
{
  return adaptive > 0 && 4 * *(volatile int*)&affCount >= AffSamples;
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_identity(const int nodes, int* const __restrict__ nstat)
{
  resetWorklist(nodes);
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) nstat[v] = v;
}

// affRound links every vertex to its neighbour at position r.
template <bool F>
static __device__ __forceinline__ void affRound(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, unsigned long long* const __restrict__ fe, const int r, const int adaptive)
{
  if (affDone(adaptive)) return;
  if (threadIdx.x == 0 && blockIdx.x == 0) affLinked = r + 1;
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    const int i = nidx[v] + r;
    if (i < nidx[v + 1]) {
      const int u = nlist[i];
      // After a compress most pairs already share a parent: skip them
      // without reading their (hot) root.
      if (nstat[v] == nstat[u]) continue;
      int vrep = representative(v, nstat);
      hookEdge<F>(vrep, u, nstat, v, fe);
    }
  }
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_round(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int r, const int adaptive)
{
  affRound<false>(nodes, nidx, nlist, nstat, nullptr, r, adaptive);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_round_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int r, const int adaptive, unsigned long long* const __restrict__ fe)
{
  affRound<true>(nodes, nidx, nlist, nstat, fe, r, adaptive);
}

// aff_compress points every vertex at its root, shortening the paths it
// walks for the other threads (intermediate pointer jumping).
extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_compress(const int nodes, int* const __restrict__ nstat, const int adaptive)
{
  if (affDone(adaptive)) return;
  if (adaptive < 0 && threadIdx.x == 0 && blockIdx.x == 0) affLinked = 1; // after round 0
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    const int old = nstat[v];
    if (old != v) compressVertex(v, old, nstat);
  }
}

// affCompressLinks points every vertex at its root after ECL-CC's init,
// as aff_compress, and links each vertex the init left a root (read as
// one: a root hooked meanwhile is compressed instead) to its two largest
// neighbours, the last two of its sorted list. After the init a uniform
// random graph is about n/9 small trees rooted at vertices without a
// smaller neighbour; their largest neighbours lie in other trees, and two
// such links per tree join nearly all of them (a random 2-out graph of
// the trees is connected), so the giant is found for 2/9 of a link per
// vertex instead of a full round's one. Grids have one such root, road
// networks few, so the links cost them nothing.
template <bool F>
static __device__ __forceinline__ void affCompressLinks(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, unsigned long long* const __restrict__ fe)
{
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    const int old = nstat[v];
    if (old != v) {
      compressVertex(v, old, nstat);
    } else {
      const int beg = nidx[v];
      const int end = nidx[v + 1];
      int vrep = representative(v, nstat);
      for (int i = end - 1; i >= beg && i >= end - 2; i--) {
        hookEdge<F>(vrep, nlist[i], nstat, v, fe);
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_compress_links(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat)
{
  affCompressLinks<false>(nodes, nidx, nlist, nstat, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_compress_links_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, unsigned long long* const __restrict__ fe)
{
  affCompressLinks<true>(nodes, nidx, nlist, nstat, fe);
}

static __device__ __forceinline__ unsigned long long affMix(unsigned long long z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// aff_sample runs as one block of AffSamples threads, one sampled vertex
// each (SplitMix64 of the thread index, as ecl.ComponentsAfforest draws
// them), and stores the most frequent root among them in affGiant (the
// smallest such root among equals) and its count in affCount.
extern "C" __global__ void __launch_bounds__(AffSamples)
aff_sample(const int nodes, const int* const __restrict__ nstat, const int adaptive)
{
  if (affDone(adaptive)) return;
  __shared__ int roots[AffSamples];
  __shared__ unsigned long long best[AffSamples / WarpSize];
  const int t = threadIdx.x;
  const int samples = AffSamples;
  const unsigned long long x = affMix((unsigned long long)(t + 1) * 0x9e3779b97f4a7c15ull);
  int r = nstat[(int)(((x >> 32) * (unsigned long long)nodes) >> 32)];
  for (int next; r > (next = nstat[r]);) r = next;
  roots[t] = r;
  __syncthreads();
  int count = 0;
#pragma unroll 16
  for (int j = 0; j < samples; j++) count += roots[j] == r;
  // The largest count wins, then the smallest root: pack both in a key
  // whose maximum is the answer.
  unsigned long long key = ((unsigned long long)count << 32) | (unsigned)(0x7fffffff - r);
  for (int d = 16; d > 0; d /= 2) {
    const unsigned long long o = __shfl_down_sync(0xffffffff, key, d);
    if (o > key) key = o;
  }
  if (t % WarpSize == 0) best[t / WarpSize] = key;
  __syncthreads();
  if (t == 0) {
    for (int w = 1; w < samples / WarpSize; w++) {
      if (best[w] > key) key = best[w];
    }
    affGiant = 0x7fffffff - (int)(unsigned)key;
    affCount = (int)(key >> 32);
  }
}

// affSkipped reports whether position p of an adjacency list was linked
// during sampling (positions from0 .. k-1, k the rounds that ran: see
// affRounds; with ecl_init as round 0, position 0 was not, from0 = 1).
// affRounds is the number of sampling rounds that ran, at most k.
static __device__ __forceinline__ int affRounds(const int k)
{
  const int linked = *(volatile int*)&affLinked;
  return linked < k ? linked : k;
}

static __device__ __forceinline__ bool affSkipped(const int p, const int k, const int from0)
{
  return p >= from0 && p < k;
}

template <bool F>
static __device__ __forceinline__ void affFinish1(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, unsigned long long* const __restrict__ fe, int k, const int from0)
{
  const int giant = affGiant;
  k = affRounds(k);
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    if (nstat[v] == giant) continue;
    const int beg = nidx[v];
    const int end = nidx[v + 1];
    const int deg = end - beg;
    if (deg <= k && from0 == 0) continue;
    if (deg > 16) {
      listVertex(v, deg, wl);
    } else {
      int vrep = representative(v, nstat);
      for (int i = beg; i < end; i++) {
        if (affSkipped(i - beg, k, from0)) continue;
        hookEdge<F>(vrep, nlist[i], nstat, v, fe);
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_finish1(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, const int k, const int from0)
{
  affFinish1<false>(nodes, nidx, nlist, nstat, wl, nullptr, k, from0);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_finish1_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, const int k, const int from0, unsigned long long* const __restrict__ fe)
{
  affFinish1<true>(nodes, nidx, nlist, nstat, wl, fe, k, from0);
}

template <bool F>
static __device__ __forceinline__ void affFinish2(const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe, int k, const int from0)
{
  k = affRounds(k);
  const int lane = threadIdx.x % WarpSize;
  int idx;
  if (lane == 0) idx = claim(&posL, topL, 1);
  idx = __shfl_sync(0xffffffff, idx, 0);
  while (idx < topL) {
    const int v = wl[idx];
    const int beg = nidx[v];
    int vrep = representative(v, nstat);
    for (int i = beg + lane; i < nidx[v + 1]; i += WarpSize) {
      if (affSkipped(i - beg, k, from0)) continue;
      hookEdge<F>(vrep, nlist[i], nstat, v, fe);
    }
    if (lane == 0) idx = atomicAdd(&posL, 1);
    idx = __shfl_sync(0xffffffff, idx, 0);
  }
}

template <bool F>
static __device__ __forceinline__ void affFinish3(const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe, int k, const int from0)
{
  k = affRounds(k);
  __shared__ int vB;
  if (threadIdx.x == 0) {
    const int idx = claim(&posH, topH, -1);
    vB = (idx > topH) ? wl[idx] : -1;
  }
  __syncthreads();
  while (vB >= 0) {
    const int v = vB;
    __syncthreads();
    const int beg = nidx[v];
    int vrep = representative(v, nstat);
    for (int i = beg + threadIdx.x; i < nidx[v + 1]; i += ThreadsPerBlock) {
      if (affSkipped(i - beg, k, from0)) continue;
      hookEdge<F>(vrep, nlist[i], nstat, v, fe);
    }
    if (threadIdx.x == 0) {
      const int idx = atomicAdd(&posH, -1);
      vB = (idx > topH) ? wl[idx] : -1;
    }
    __syncthreads();
  }
}

// aff_finish23 runs the finish's warps and then its blocks in one launch,
// as ecl_compute23.
extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_finish23(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, const int k, const int from0)
{
  affFinish2<false>(nidx, nlist, nstat, wl, nullptr, k, from0);
  affFinish3<false>(nidx, nlist, nstat, wl, nullptr, k, from0);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
aff_finish23_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, const int k, const int from0, unsigned long long* const __restrict__ fe)
{
  affFinish2<true>(nidx, nlist, nstat, wl, fe, k, from0);
  affFinish3<true>(nidx, nlist, nstat, wl, fe, k, from0);
}
