// ECL-CC hooking by priority, for graphs of long paths (road networks).
// ECL-CC hooks the larger root under the smaller: along a road, where
// neighbouring vertices have close IDs, the init's trees hook one under
// the next and compute1's walks follow chains of hundreds of roots, which
// take most of the run on road networks. Here
//   prio_block_init joins the edges within each block of ThreadsPerBlock
//     consecutive IDs in shared memory and points every vertex at the
//     smallest vertex of its block-local component (road IDs are local:
//     the NY network keeps 62,772 of its 365,050 edges between blocks),
//     and sets every least entry to none;
//   prio_compute1 hooks the edges between blocks, once each from the
//     larger end, as ecl_compute1 but the root of lower priority under
//     the other, the priority a bijective hash of the vertex ID: the
//     forest of hooked roots is then as shallow as a random one
//     (logarithmic depth) instead of a chain along the road;
//   prio_least finds each component's smallest vertex (its label as
//     ECL-CC gives it) among the vertices without a smaller neighbour (a
//     component's smallest vertex is one), per root of the forest;
//   prio_flatten gives every vertex that vertex in least, which the host
//     downloads.
// Every degree works (a thread per vertex); the host sends graphs without
// vertices above 16 here. Parents may be larger than their children (a
// root goes under the root of higher priority), so walks stop at a vertex
// that is its own parent; they end because the forest has no cycle: a CAS
// hooks only a root, under a root of higher priority (a total order), and
// pointer jumps store only ancestors.

// prioOf is the hooking priority of root v: a bijection of 32-bit IDs
// (odd multiplier, then an xor-shift), so no two roots tie.
static __device__ __forceinline__ unsigned prioOf(const int v)
{
  unsigned h = (unsigned)v * 0x9E3779B1u;
  return h ^ (h >> 16);
}

// prioRoot returns the root of idx in the hooked forest, pointing each
// vertex on the way at its grandparent (intermediate pointer jumping: a
// racing jump still stores an ancestor).
static __device__ __forceinline__ int prioRoot(const int idx, int* const __restrict__ nstat)
{
  int curr = nstat[idx];
  if (curr != idx) {
    int next, prev = idx;
    while (curr != (next = nstat[curr])) {
      nstat[prev] = next;
      prev = curr;
      curr = next;
    }
  }
  return curr;
}

// prioHook joins the tree of u to the tree whose root (or an ancestor of
// it) the caller holds in vstat: the root of lower priority goes under the
// other with a CAS that only succeeds on a root, retried from the value
// the CAS found, as ECL-CC's hook.
static __device__ __forceinline__ void prioHook(int& vstat, const int u, int* const __restrict__ nstat)
{
  if (nstat[u] == vstat) return;
  int ostat = prioRoot(u, nstat);
  while (vstat != ostat) {
    int ret;
    if (prioOf(vstat) > prioOf(ostat)) {
      if ((ret = atomicCAS(&nstat[ostat], ostat, vstat)) == ostat) return;
      ostat = ret;
    } else {
      if ((ret = atomicCAS(&nstat[vstat], vstat, ostat)) == vstat) return;
      vstat = ret;
    }
  }
}

// localFind returns the root of slot t of a block's shared union-find,
// halving the path on the way.
static __device__ __forceinline__ int localFind(int t, int* const sp)
{
  for (int p; (p = sp[t]) != t;) {
    const int g = sp[p];
    if (g != p) sp[t] = g;
    t = g;
  }
  return t;
}

// localUnion joins slots a and b of a block's shared union-find, the
// larger root under the smaller (CAS, retried from the new roots).
static __device__ __forceinline__ void localUnion(int a, int b, int* const sp)
{
  a = localFind(a, sp);
  b = localFind(b, sp);
  while (a != b) {
    if (a > b) {
      const int t = a;
      a = b;
      b = t;
    }
    const int old = atomicCAS(&sp[b], b, a);
    if (old == b) return;
    b = localFind(old, sp);
    a = localFind(a, sp);
  }
}

// prio_block_init joins, in shared memory, every edge between two
// vertices of the same block of ThreadsPerBlock consecutive IDs (the
// larger root under the smaller), then points each vertex at the smallest
// vertex of its block-local component, so prio_compute1 only hooks the
// edges between blocks (the NY network: 62,772 of its 365,050 edges,
// 27,166 local components); it also sets every least entry to none.
extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
prio_block_init(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ least)
{
  __shared__ int sp[ThreadsPerBlock];
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int base = blockIdx.x * ThreadsPerBlock; base < nodes; base += incr) {
    const int v = base + threadIdx.x;
    sp[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (v < nodes) {
      least[v] = 0x7fffffff;
      for (int i = nidx[v], end = nidx[v + 1]; i < end; i++) {
        const int u = nlist[i];
        if (u >= v) break; // sorted lists
        if (u >= base) localUnion(threadIdx.x, u - base, sp);
      }
    }
    __syncthreads();
    if (v < nodes) nstat[v] = base + localFind(threadIdx.x, sp);
    __syncthreads(); // sp is reused
  }
}

// prio_compute1 hooks by priority every edge (v, u) of every vertex with
// u below v's block of ThreadsPerBlock consecutive IDs (the edges within
// a block prio_block_init joined).
extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
prio_compute1(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat)
{
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = threadIdx.x + blockIdx.x * ThreadsPerBlock; v < nodes; v += incr) {
    const int beg = nidx[v], end = nidx[v + 1];
    const int below = v - v % ThreadsPerBlock;
    if (beg == end || nlist[beg] >= below) continue; // no such neighbour
    int vrep = prioRoot(v, nstat);
    for (int i = beg; i < end; i++) {
      const int u = nlist[i];
      if (u >= below) break; // sorted lists
      prioHook(vrep, u, nstat);
    }
  }
}

// prio_least records at each root of the hooked forest the smallest of
// the vertices below it without a smaller neighbour: its component's
// smallest vertex.
extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
prio_least(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ least)
{
  const int incr = gridDim.x * ThreadsPerBlock;
  // Whole blocks iterate together: the warp's lanes meet in the match.
  for (int first = blockIdx.x * ThreadsPerBlock; first < nodes; first += incr) {
    const int v = first + threadIdx.x;
    int root = -1;
    if (v < nodes) {
      const int beg = nidx[v];
      if (beg == nidx[v + 1] || nlist[beg] >= v) root = prioRoot(v, nstat);
    }
#if __CUDA_ARCH__ >= 800
    const unsigned group = __match_any_sync(0xffffffff, root);
    const unsigned smallest = __reduce_min_sync(group, root >= 0 ? (unsigned)v : 0xffffffffu);
    if (root >= 0 && threadIdx.x % WarpSize == __ffs(group) - 1) atomicMin(&least[root], (int)smallest);
#else
    if (root >= 0) atomicMin(&least[root], v); // no warp reductions before sm_80
#endif
  }
}

// prio_flatten gives every vertex its component's smallest vertex in
// least (the run's result; nstat keeps the forest, which the walks of
// other threads need whole). A vertex that is not a root takes its root's
// entry, which no thread changes: a root's own thread leaves it as it is.
extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
prio_flatten(const int nodes, int* const __restrict__ nstat, int* const __restrict__ least)
{
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = threadIdx.x + blockIdx.x * ThreadsPerBlock; v < nodes; v += incr) {
    const int root = prioRoot(v, nstat);
    if (root != v) least[v] = least[root];
  }
}
