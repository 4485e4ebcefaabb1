// ECL-CC connected components on a CSR graph (Jaiganesh & Burtscher,
// HPDC'18), written for cclabel: init to the first smaller neighbour (in
// descending adjacency order: the closest smaller ID, by binary search),
// (which also empties the worklist), compute by degree (thread <= 16 in
// compute1; warp <= 352, then block above, in one launch, compute23) with
// a double-sided worklist, lock-free CAS hooking of each
// undirected edge once (from its larger endpoint), intermediate pointer
// jumping, then flatten. The _f kernels also record, for every vertex
// that stops being a root, the edge that hooked it (spanning forests).

static const int ThreadsPerBlock = 256;
static const int WarpSize = 32;

__device__ int topL, posL, topH, posH;

// claim takes a kernel's first worklist entry (pos moves by step towards
// top) with an atomic, or, when a plain read already shows the list used
// up, returns an index past its end without one: an empty list then costs
// no contended atomics. (Later claims use the atomic directly: the extra
// read would lengthen every claim of a long list.)
static __device__ __forceinline__ int claim(int* const pos, const int top, const int step)
{
  const int seen = *(volatile int*)pos;
  if (step > 0 ? seen >= top : seen <= top) return seen;
  return atomicAdd(pos, step);
}

// rootFrom returns the root of idx, whose parent the caller loaded into
// curr; on the way each visited vertex is pointed at its grandparent
// (ECL-CC's intermediate pointer jumping).
static __device__ __forceinline__ int rootFrom(const int idx, int curr, int* const __restrict__ nstat)
{
  if (curr != idx) {
    int next, prev = idx;
    while (curr > (next = nstat[curr])) {
      nstat[prev] = next;
      prev = curr;
      curr = next;
    }
  }
  return curr;
}

// representative returns the root of idx (rootFrom).
static __device__ __forceinline__ int representative(const int idx, int* const __restrict__ nstat)
{
  return rootFrom(idx, nstat[idx], nstat);
}

// listVertex puts v, of degree deg above 16, on the worklist: at the
// warps' end up to 352, else at the blocks'.
static __device__ __forceinline__ void listVertex(const int v, const long long deg, int* const __restrict__ wl)
{
  const int idx = deg <= 352 ? atomicAdd(&topL, 1) : atomicAdd(&topH, -1);
  wl[idx] = v;
}

// forestEdge packs the edge (v, u) as cclabel's hook logs do: v in the
// high word.
static __device__ __forceinline__ unsigned long long forestEdge(const int v, const int u)
{
  return ((unsigned long long)(unsigned)v << 32) | (unsigned)u;
}

// hook joins the tree of u to the tree whose representative the caller
// holds in vstat, the larger root under the smaller (CAS), retrying when
// another thread got there first. vstat follows the hooks, so the caller
// carries an up-to-date representative to its next neighbour. With F, the
// edge (v, u) is recorded in fe at the root that the successful CAS hooked
// (one success per root, so the records form a spanning forest).
template <bool F>
static __device__ __forceinline__ void hookEdge(int& vstat, const int u, int* const __restrict__ nstat, const int v, unsigned long long* const __restrict__ fe)
{
  // u already points at the caller's tree: nothing to join, and the
  // (often hot) root is not read.
  if (nstat[u] == vstat) return;
  int ostat = representative(u, nstat);
  bool repeat;
  do {
    repeat = false;
    if (vstat != ostat) {
      int ret;
      if (vstat < ostat) {
        if ((ret = atomicCAS(&nstat[ostat], ostat, vstat)) != ostat) {
          ostat = ret;
          repeat = true;
        } else if (F) {
          fe[ostat] = forestEdge(v, u);
        }
      } else {
        if ((ret = atomicCAS(&nstat[vstat], vstat, ostat)) != vstat) {
          vstat = ret;
          repeat = true;
        } else if (F) {
          fe[vstat] = forestEdge(v, u);
        }
      }
    }
  } while (repeat);
}

// hook is hookEdge without recording.
static __device__ __forceinline__ void hook(int& vstat, const int u, int* const __restrict__ nstat)
{
  hookEdge<false>(vstat, u, nstat, 0, nullptr);
}

// resetWorklist empties the worklist (one thread of the first kernel of a
// run: the init, or Afforest's identity).
static __device__ __forceinline__ void resetWorklist(const int nodes)
{
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    topL = 0;
    posL = 0;
    topH = nodes - 1;
    posH = nodes - 1;
  }
}

// ecl_init points every vertex at its first smaller neighbour, scanning
// its adjacency list from the end: in the sorted lists of cclabel's CSR
// that is the closest smaller ID, found by binary search in O(log degree)
// reads whatever the degree. (Scanning from the front, as the reference
// code does on its inputs, gives the smallest ID: on grids that makes
// column-long chains that compute1 then walks, about twice the time.) The
// lists must be sorted: a vertex left pointing at
// itself is skipped by compute, so a missed smaller neighbour would lose
// its edges (GraphComponents checks). With F the edge to that neighbour is
// recorded as the one that hooked the vertex.
template <bool F, typename O>
static __device__ __forceinline__ void initBody(const int nodes, const O* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, unsigned long long* const __restrict__ fe)
{
  resetWorklist(nodes);
  const int lane = threadIdx.x % WarpSize;
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  // The whole warp runs each iteration (for the ballot); its lanes hold
  // consecutive vertices.
  for (int base = from - lane; base < nodes; base += incr) {
    const int v = base + lane;
    int m = v;
    if (v < nodes) {
      const O beg = nidx[v];
      O lo = beg, hi = nidx[v + 1];
      while (lo < hi) { // first position not below v
        const O mid = lo + (hi - lo) / 2;
        if (nlist[mid] < v) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo > beg) {
        const int u = nlist[lo - 1];
        if (u < v) m = u;
      }
    }
    // A run of lanes each at its predecessor (v - 1, as along the rows
    // of a grid) all point at the run's first target instead: the same
    // tree, a chain 32 times shorter. The forest keeps the edges
    // (v, v - 1), which form the same tree's edges.
    const unsigned run = __ballot_sync(0xffffffff, v < nodes && m == v - 1 && v > 0);
    if (v < nodes) {
      if ((run >> lane) & 1) {
        const unsigned below = ~run & ((2u << lane) - 1); // lanes <= lane outside runs (bit lane is set in run)
        const int h = below ? 31 - __clz(below) : -1;
        m = v - (lane - h);
      }
      nstat[v] = m;
      if (F && m != v) fe[v] = forestEdge(v, ((run >> lane) & 1) ? v - 1 : m);
    }
  }
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_init(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat)
{
  initBody<false, int>(nodes, nidx, nlist, nstat, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_init_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, unsigned long long* const __restrict__ fe)
{
  initBody<true, int>(nodes, nidx, nlist, nstat, fe);
}

template <bool F, typename O>
static __device__ __forceinline__ void compute1Body(const int nodes, const O* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    const int vstat = nstat[v];
    if (v != vstat) {
      const O beg = nidx[v];
      const O end = nidx[v + 1];
      const O deg = end - beg;
      if (deg > 16) {
        listVertex(v, deg, wl);
      } else {
        int vrep = representative(v, nstat);
        for (O i = beg; i < end; i++) {
          const int nli = nlist[i];
          if (v > nli) {
            hookEdge<F>(vrep, nli, nstat, v, fe);
          }
        }
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute1(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl)
{
  compute1Body<false, int>(nodes, nidx, nlist, nstat, wl, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute1_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  compute1Body<true, int>(nodes, nidx, nlist, nstat, wl, fe);
}

template <bool F, typename O>
static __device__ __forceinline__ void compute2Body(const O* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  const int lane = threadIdx.x % WarpSize;
  int idx;
  if (lane == 0) idx = claim(&posL, topL, 1);
  idx = __shfl_sync(0xffffffff, idx, 0);
  while (idx < topL) {
    const int v = wl[idx];
    int vrep = representative(v, nstat);
    for (O i = nidx[v] + lane; i < nidx[v + 1]; i += WarpSize) {
      const int nli = nlist[i];
      if (v > nli) {
        hookEdge<F>(vrep, nli, nstat, v, fe);
      }
    }
    if (lane == 0) idx = atomicAdd(&posL, 1);
    idx = __shfl_sync(0xffffffff, idx, 0);
  }
}

template <bool F, typename O>
static __device__ __forceinline__ void compute3Body(const O* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  __shared__ int vB;
  if (threadIdx.x == 0) {
    const int idx = claim(&posH, topH, -1);
    vB = (idx > topH) ? wl[idx] : -1;
  }
  __syncthreads();
  while (vB >= 0) {
    const int v = vB;
    __syncthreads();
    int vrep = representative(v, nstat);
    for (O i = nidx[v] + threadIdx.x; i < nidx[v + 1]; i += ThreadsPerBlock) {
      const int nli = nlist[i];
      if (v > nli) {
        hookEdge<F>(vrep, nli, nstat, v, fe);
      }
    }
    if (threadIdx.x == 0) {
      const int idx = atomicAdd(&posH, -1);
      vB = (idx > topH) ? wl[idx] : -1;
    }
    __syncthreads();
  }
}

// compute23 runs compute2's warps and then compute3's blocks in one
// launch: the two lists are independent (every hook is a CAS), and an
// empty list then costs one launch, not two.
template <bool F, typename O>
static __device__ __forceinline__ void compute23Body(const O* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  compute2Body<F, O>(nidx, nlist, nstat, wl, fe);
  compute3Body<F, O>(nidx, nlist, nstat, wl, fe);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute23(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl)
{
  compute23Body<false, int>(nidx, nlist, nstat, wl, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute23_f(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  compute23Body<true, int>(nidx, nlist, nstat, wl, fe);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_flatten(const int nodes, int* const __restrict__ nstat)
{
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    int next, vstat = nstat[v];
    const int old = vstat;
    while (vstat > (next = nstat[vstat])) {
      vstat = next;
    }
    if (old != vstat) nstat[v] = vstat;
  }
}

// The _w kernels take 64-bit offsets, for graphs of 2^31 arcs or more
// (vertex IDs stay 32-bit); _fw also record a spanning forest.
typedef long long WideOffset;

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_init_w(const int nodes, const WideOffset* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat)
{
  initBody<false, WideOffset>(nodes, nidx, nlist, nstat, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_init_fw(const int nodes, const WideOffset* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, unsigned long long* const __restrict__ fe)
{
  initBody<true, WideOffset>(nodes, nidx, nlist, nstat, fe);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute1_w(const int nodes, const WideOffset* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl)
{
  compute1Body<false, WideOffset>(nodes, nidx, nlist, nstat, wl, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute1_fw(const int nodes, const WideOffset* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  compute1Body<true, WideOffset>(nodes, nidx, nlist, nstat, wl, fe);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute23_w(const int nodes, const WideOffset* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl)
{
  compute23Body<false, WideOffset>(nidx, nlist, nstat, wl, nullptr);
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
ecl_compute23_fw(const int nodes, const WideOffset* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, unsigned long long* const __restrict__ fe)
{
  compute23Body<true, WideOffset>(nidx, nlist, nstat, wl, fe);
}
