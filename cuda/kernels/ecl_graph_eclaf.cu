// ECLaf: the atomic-free variant of ECL-CC. After ecl_init, each pass
// hooks every undirected edge once (from its larger endpoint, thread, warp
// or block per degree as ecl_compute1..3) with plain stores, larger
// representative under smaller: a concurrent store to the same root can
// overwrite a hook, so passes repeat until one stores nothing. Pass p sets
// flags[p] when it stored; its kernels return at once when flags[p-1] is
// clear (the host queues several passes and reads the flags after them).
// Only the worklist of pass 0, which sorts the vertices by degree, takes
// atomics; the hooks and the changed flags are plain stores.

extern "C" __global__ void eaf_reset(const int nodes, int* const __restrict__ flags, const int count)
{
  if (threadIdx.x == 0) {
    topL = 0;
    posL = 0;
    topH = nodes - 1;
    posH = nodes - 1;
  }
  for (int i = threadIdx.x; i < count; i += blockDim.x) flags[i] = 0;
}

// eafHook joins the representatives of v (held in vrep) and u with a
// plain store and reports whether it stored.
static __device__ __forceinline__ bool eafHook(int& vrep, const int u, int* const __restrict__ nstat)
{
  const int urep = representative(u, nstat);
  if (vrep < urep) {
    nstat[urep] = vrep;
    return true;
  }
  if (urep < vrep) {
    nstat[vrep] = urep;
    vrep = urep;
    return true;
  }
  return false;
}

// eafSkip reports whether pass p is not needed: pass p-1 stored nothing.
static __device__ __forceinline__ bool eafSkip(const int* const __restrict__ flags, const int pass)
{
  return pass > 0 && ((const volatile int*)flags)[pass - 1] == 0;
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
eaf_compute1(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, int* const __restrict__ wl, int* const __restrict__ flags, const int pass)
{
  if (eafSkip(flags, pass)) return;
  __shared__ int stored;
  if (threadIdx.x == 0) {
    stored = 0;
    if (pass > 0 && blockIdx.x == 0) { // the previous pass's claims are done
      posL = 0;
      posH = nodes - 1;
    }
  }
  __syncthreads();
  bool changed = false;
  const int from = threadIdx.x + blockIdx.x * ThreadsPerBlock;
  const int incr = gridDim.x * ThreadsPerBlock;
  for (int v = from; v < nodes; v += incr) {
    const int beg = nidx[v];
    const int end = nidx[v + 1];
    const int deg = end - beg;
    if (pass == 0) {
      if (nstat[v] == v) continue; // no smaller neighbour
      if (deg > 16) {
        listVertex(v, deg, wl);
        continue;
      }
    } else if (deg > 16 || deg == 0 || nlist[beg] > v) {
      continue; // on the worklist, or no smaller neighbour
    }
    int vrep = representative(v, nstat);
    for (int i = beg; i < end; i++) {
      const int nli = nlist[i];
      if (v > nli && eafHook(vrep, nli, nstat)) changed = true;
    }
  }
  if (changed) stored = 1;
  __syncthreads();
  if (threadIdx.x == 0 && stored) flags[pass] = 1;
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
eaf_compute2(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, int* const __restrict__ flags, const int pass)
{
  if (eafSkip(flags, pass)) return;
  const int lane = threadIdx.x % WarpSize;
  bool changed = false;
  int idx;
  if (lane == 0) idx = claim(&posL, topL, 1);
  idx = __shfl_sync(0xffffffff, idx, 0);
  while (idx < topL) {
    const int v = wl[idx];
    int vrep = representative(v, nstat);
    for (int i = nidx[v] + lane; i < nidx[v + 1]; i += WarpSize) {
      const int nli = nlist[i];
      if (v > nli && eafHook(vrep, nli, nstat)) changed = true;
    }
    if (lane == 0) idx = atomicAdd(&posL, 1);
    idx = __shfl_sync(0xffffffff, idx, 0);
  }
  if (__any_sync(0xffffffff, changed) && lane == 0) flags[pass] = 1;
}

extern "C" __global__ void __launch_bounds__(ThreadsPerBlock)
eaf_compute3(const int nodes, const int* const __restrict__ nidx, const int* const __restrict__ nlist, int* const __restrict__ nstat, const int* const __restrict__ wl, int* const __restrict__ flags, const int pass)
{
  if (eafSkip(flags, pass)) return;
  __shared__ int vB, stored;
  if (threadIdx.x == 0) {
    stored = 0;
    const int idx = claim(&posH, topH, -1);
    vB = (idx > topH) ? wl[idx] : -1;
  }
  __syncthreads();
  bool changed = false;
  while (vB >= 0) {
    const int v = vB;
    __syncthreads();
    int vrep = representative(v, nstat);
    for (int i = nidx[v] + threadIdx.x; i < nidx[v + 1]; i += ThreadsPerBlock) {
      const int nli = nlist[i];
      if (v > nli && eafHook(vrep, nli, nstat)) changed = true;
    }
    if (threadIdx.x == 0) {
      const int idx = atomicAdd(&posH, -1);
      vB = (idx > topH) ? wl[idx] : -1;
    }
    __syncthreads();
  }
  if (changed) stored = 1;
  __syncthreads();
  if (threadIdx.x == 0 && stored) flags[pass] = 1;
}
