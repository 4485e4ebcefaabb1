// Incremental connectivity on the GPU: a parent array that stays
// on the device across batches of edge insertions, ECL-CC's hooking (the
// larger root under the smaller with compare-and-swap, intermediate pointer
// jumping on every find), one edge per thread in grid-stride loops, and an
// exact component count (successful hooks summed per block, one atomicAdd).
// Every vertex points at itself or at a smaller vertex, so a root is the
// smallest vertex of its tree: the representative the CPU backend gives.
//
// stat[0] counts the hooks of a batch; stat[1] holds the first pair with a
// vertex outside [0, n) (IncNoBad when none), found by inc_check before the
// hooks or queries run; stat[2] is the root inc_pick_giant chose.
//
// After a compress pass, bit v of the giant bitmap (n bits: 2 MiB for 2^24
// vertices, where the parent array's 64 MiB overflow the L2 cache) says
// that v's root was stat[2]. Components only merge, so all the set bits
// stay in one component, and inc_hook skips an edge whose two bits are set
// after two loads from the bitmap, which the cache holds.

static const int IncThreads = 256;
static const int IncNoBad = 0x7fffffff;

// inc_block_add adds each thread's count to *total: a warp sum by shuffles,
// a block sum in shared memory, one atomicAdd per block.
static __device__ __forceinline__ void inc_block_add(int count, int* const total)
{
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  for (int d = 16; d > 0; d /= 2) count += __shfl_down_sync(0xffffffff, count, d);
  if (threadIdx.x % 32 == 0 && count != 0) atomicAdd(&sum, count);
  __syncthreads();
  if (threadIdx.x == 0 && sum != 0) atomicAdd(total, sum);
}

// inc_init points every vertex at itself.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_init(const int n, int* const __restrict__ parent)
{
  for (int v = threadIdx.x + blockIdx.x * IncThreads; v < n; v += gridDim.x * IncThreads) parent[v] = v;
}

// inc_reset clears the hook count and the first bad pair.
extern "C" __global__ void inc_reset(int* const stat)
{
  stat[0] = 0;
  stat[1] = IncNoBad;
}

// inc_check records in stat[1] the first pair i of [0, m) with us[i] or
// vs[i] outside [0, n).
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_check(const int m, const int n, const int* const __restrict__ us, const int* const __restrict__ vs, int* const stat)
{
  for (int i = threadIdx.x + blockIdx.x * IncThreads; i < m; i += gridDim.x * IncThreads) {
    if ((unsigned)us[i] >= (unsigned)n || (unsigned)vs[i] >= (unsigned)n) {
      if (i < *(volatile int*)&stat[1]) atomicMin(&stat[1], i);
    }
  }
}

// inc_hook links the edges lo..hi-1 of us, vs, unless inc_check found a bad
// pair, and adds the number of successful hooks to stat[0]. An edge whose
// endpoints are both in the giant bitmap (when given), or whose endpoints'
// parents agree (after a compress pass: the same root), is skipped after
// two loads.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_hook(const int lo, const int hi, const int* const __restrict__ us, const int* const __restrict__ vs, int* const __restrict__ parent, int* const stat, const unsigned* const __restrict__ giant)
{
  if (stat[1] != IncNoBad) return;
  int hooks = 0;
  for (int i = lo + threadIdx.x + blockIdx.x * IncThreads; i < hi; i += gridDim.x * IncThreads) {
    const int u = us[i], v = vs[i];
    if (giant != nullptr && ((giant[u >> 5] >> (u & 31)) & (giant[v >> 5] >> (v & 31)) & 1)) continue;
    const int pu = parent[u], pv = parent[v];
    if (pu == pv) continue;
    int ru = rootFrom(u, pu, parent), rv = rootFrom(v, pv, parent);
    while (ru != rv) {
      if (ru < rv) {
        const int ret = atomicCAS(&parent[rv], rv, ru);
        if (ret == rv) {
          hooks++;
          break;
        }
        rv = rootFrom(rv, ret, parent);
      } else {
        const int ret = atomicCAS(&parent[ru], ru, rv);
        if (ret == ru) {
          hooks++;
          break;
        }
        ru = rootFrom(ru, ret, parent);
      }
    }
  }
  inc_block_add(hooks, &stat[0]);
}

// inc_compress points every vertex straight at its root.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_compress(const int n, int* const __restrict__ parent)
{
  for (int v = threadIdx.x + blockIdx.x * IncThreads; v < n; v += gridDim.x * IncThreads) {
    const int old = parent[v];
    int next, curr = old;
    while (curr > (next = parent[curr])) curr = next;
    if (curr != old) parent[v] = curr;
  }
}

// inc_pick_giant (one warp) sets stat[2] to the most frequent root among
// 32 vertices spread over [0, n), n > 0, after a compress pass.
extern "C" __global__ void inc_pick_giant(const int n, const int* const __restrict__ parent, int* const stat)
{
  const int lane = threadIdx.x;
  int r = parent[(int)((2LL * lane + 1) * n / 64)];
  for (int next; (next = parent[r]) != r;) r = next;
  int best = __popc(__match_any_sync(0xffffffff, r)), bestLane = lane;
  for (int d = 16; d > 0; d /= 2) {
    const int c = __shfl_down_sync(0xffffffff, best, d), l = __shfl_down_sync(0xffffffff, bestLane, d);
    if (c > best) {
      best = c;
      bestLane = l;
    }
  }
  if (lane == __shfl_sync(0xffffffff, bestLane, 0)) stat[2] = r;
}

// inc_giant_bits sets bit v of giant when parent[v] is stat[2] (after a
// compress pass: v's root), one warp ballot a word.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_giant_bits(const int n, const int* const __restrict__ parent, const int* const stat, unsigned* const __restrict__ giant)
{
  const int root = stat[2];
  for (int base = blockIdx.x * IncThreads; base < n; base += gridDim.x * IncThreads) {
    const int v = base + threadIdx.x;
    const unsigned word = __ballot_sync(0xffffffff, v < n && parent[v] == root);
    if (threadIdx.x % 32 == 0 && v < n) giant[v >> 5] = word;
  }
}

// inc_connected sets us[i] to 1 when us[i] and vs[i] have the same root,
// else 0, for the queries of [0, m), unless inc_check found a bad pair.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_connected(const int m, int* const __restrict__ us, const int* const __restrict__ vs, int* const __restrict__ parent, const int* const stat)
{
  if (stat[1] != IncNoBad) return;
  for (int i = threadIdx.x + blockIdx.x * IncThreads; i < m; i += gridDim.x * IncThreads) {
    const int u = us[i], v = vs[i];
    const int pu = parent[u], pv = parent[v];
    us[i] = (pu == pv || rootFrom(u, pu, parent) == rootFrom(v, pv, parent)) ? 1 : 0;
  }
}

// inc_representatives replaces vs[i] by its root for the queries of
// [0, m), unless inc_check found a bad pair.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_representatives(const int m, int* const __restrict__ vs, int* const __restrict__ parent, const int* const stat)
{
  if (stat[1] != IncNoBad) return;
  for (int i = threadIdx.x + blockIdx.x * IncThreads; i < m; i += gridDim.x * IncThreads) {
    const int v = vs[i];
    vs[i] = rootFrom(v, parent[v], parent);
  }
}

// inc_random_edges fills us and vs with m pseudo-random vertices of
// [0, n) (tests and benchmarks): a splitmix64 hash of seed and i.
extern "C" __global__ void __launch_bounds__(IncThreads)
inc_random_edges(const int m, const int n, const unsigned long long seed, int* const __restrict__ us, int* const __restrict__ vs)
{
  for (int i = threadIdx.x + blockIdx.x * IncThreads; i < m; i += gridDim.x * IncThreads) {
    unsigned long long z = seed + 0x9e3779b97f4a7c15ull * (unsigned long long)(i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    us[i] = (int)((z & 0xffffffffull) % (unsigned)n);
    vs[i] = (int)((z >> 32) % (unsigned)n);
  }
}
