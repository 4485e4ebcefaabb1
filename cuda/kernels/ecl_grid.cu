// ECL-CC on implicit grids (images and volumes) for cclabel: neighbours
// come from the connectivity stencil, only backward neighbours (smaller
// index) are hooked, and the labels are numbered 1..N by first occurrence
// (the representative is the smallest index, so a prefix scan over the
// roots in index order numbers the components), background 0.
// The union-find steps (representative, hook) are ecl_graph.cu's: build.sh
// compiles the kernel files as one unit, in name order.
// Input: samples of type T (uint8, uint16, int16, uint32, int32, float32;
// kernels suffixed _u8, _u16, _i16, _u32, _i32, _f32); rule 0 multilabel
// (equal nonzero values join; floats by bit pattern, -0 and NaN are
// background), 1 binary (nonzero, not NaN), 2 threshold (v*slope+inter >=
// t), 3 threshold inverted (<).

struct GridShape {
  int w, h, d;
  int conn;
  int rule;
  int pad;
  double t, slope, inter;
};

template <typename T> static __device__ __forceinline__ unsigned int gbits(const T v) { return (unsigned int)v; }
template <> __device__ __forceinline__ unsigned int gbits<float>(const float v)
{
  return (v == 0.0f || v != v) ? 0u : __float_as_uint(v);
}

// gkey is the connectivity key of a sample: 0 for background, equal for
// samples that join.
template <typename T> static __device__ __forceinline__ unsigned int gkey(const T v, const GridShape s)
{
  if (s.rule == 0) return gbits(v);
  if (s.rule == 1) return (v != 0 && v == v) ? 1u : 0u;
  const double f = __dadd_rn(__dmul_rn((double)v, s.slope), s.inter); // rounded product, as the CPU: no fused multiply-add
  if (f != f) return 0u;
  return ((f >= s.t) != (s.rule == 3)) ? 1u : 0u;
}

// Backward neighbours (smaller index) as (dx, dy, dz). 2D 4, 2D 8, 3D 18
// and 3D 26 use the first 2, 4, 9 and 13 entries of gBack; 3D 6 uses
// gBack6.
__constant__ int gBack[13][3] = {{-1, 0, 0}, {0, -1, 0}, {-1, -1, 0}, {1, -1, 0}, {0, 0, -1}, {-1, 0, -1}, {1, 0, -1},
                                 {0, -1, -1}, {0, 1, -1}, {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}};
__constant__ int gBack6[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};

// gneighbour sets (dx, dy, dz) to backward neighbour k of the
// connectivity and reports whether there is one.
static __device__ __forceinline__ bool gneighbour(const int k, const int conn, int& dx, int& dy, int& dz)
{
  if (conn == 6) {
    if (k >= 3) return false;
    dx = gBack6[k][0]; dy = gBack6[k][1]; dz = gBack6[k][2];
    return true;
  }
  const int count = conn == 4 ? 2 : conn == 8 ? 4 : conn == 18 ? 9 : 13;
  if (k >= count) return false;
  dx = gBack[k][0]; dy = gBack[k][1]; dz = gBack[k][2];
  return true;
}

// gjoined returns the index of backward neighbour k of v if it is inside
// the grid and joined to v (same key), else -1.
template <typename T>
static __device__ __forceinline__ int gjoined(const int v, const int x, const int y, const int z, const unsigned int key, const int k,
                                              const T* const __restrict__ in, const GridShape s)
{
  int dx, dy, dz;
  if (!gneighbour(k, s.conn, dx, dy, dz)) return -2;
  const int nx = x + dx, ny = y + dy, nz = z + dz;
  if (nx < 0 || ny < 0 || nz < 0 || nx >= s.w || ny >= s.h) return -1;
  const int u = v + dx + dy * s.w + dz * s.w * s.h;
  return (gkey(in[u], s) == key) ? u : -1;
}

template <typename T> static __device__ void grid_init(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape s)
{
  const long long n = (long long)s.w * s.h * s.d;
  for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const int v = (int)i;
    const unsigned int key = gkey(in[v], s);
    if (key == 0) {
      parent[v] = -1;
      continue;
    }
    const int x = v % s.w, y = (v / s.w) % s.h, z = v / (s.w * s.h);
    int m = v;
    for (int k = 0;; k++) {
      const int u = gjoined(v, x, y, z, key, k, in, s);
      if (u == -2) break;
      if (u >= 0 && u < m) m = u;
    }
    parent[v] = m;
  }
}

template <typename T> static __device__ void grid_compute(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape s)
{
  const long long n = (long long)s.w * s.h * s.d;
  for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const int v = (int)i;
    const int p = parent[v];
    if (p < 0 || p == v) continue; // background, or no backward neighbour to hook
    const unsigned int key = gkey(in[v], s);
    const int x = v % s.w, y = (v / s.w) % s.h, z = v / (s.w * s.h);
    int vstat = representative(v, parent);
    for (int k = 0;; k++) {
      const int u = gjoined(v, x, y, z, key, k, in, s);
      if (u == -2) break;
      if (u >= 0) hook(vstat, u, parent);
    }
  }
}

#define GRID_TYPE(suffix, T)                                                                                   \
  extern "C" __global__ void grid_init_##suffix(const T* const __restrict__ in, int* const __restrict__ parent, \
                                                const GridShape s)                                             \
  {                                                                                                            \
    grid_init<T>(in, parent, s);                                                                               \
  }                                                                                                            \
  extern "C" __global__ void grid_compute_##suffix(const T* const __restrict__ in, int* const __restrict__ parent, \
                                                   const GridShape s)                                          \
  {                                                                                                            \
    grid_compute<T>(in, parent, s);                                                                            \
  }
GRID_TYPE(u8, unsigned char)
GRID_TYPE(u16, unsigned short)
GRID_TYPE(i16, short)
GRID_TYPE(u32, unsigned int)
GRID_TYPE(i32, int)
GRID_TYPE(f32, float)

// grid_flatten points every foreground pixel at its root and counts the
// roots of each block of 1024 pixels.
extern "C" __global__ void __launch_bounds__(256)
grid_flatten(int* const __restrict__ parent, unsigned int* const __restrict__ blockRoots, const long long n)
{
  __shared__ unsigned int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  const long long base = (long long)blockIdx.x * 1024;
  unsigned int mine = 0;
  for (int j = threadIdx.x; j < 1024; j += 256) {
    const long long i = base + j;
    if (i >= n) break;
    const int v = (int)i;
    int next, vstat = parent[v];
    if (vstat < 0) continue;
    const int old = vstat;
    while (vstat > (next = parent[vstat])) vstat = next;
    if (old != vstat) parent[v] = vstat;
    mine += (vstat == v);
  }
  atomicAdd(&count, mine);
  __syncthreads();
  if (threadIdx.x == 0) blockRoots[blockIdx.x] = count;
}

// grid_scan turns the per-block root counts into exclusive offsets (one
// block; blocks is at most a few million).
extern "C" __global__ void __launch_bounds__(1024)
grid_scan(unsigned int* const __restrict__ blockRoots, const int blocks, unsigned int* const __restrict__ total)
{
  __shared__ unsigned int partial[1024];
  const int per = (blocks + 1023) / 1024;
  const int lo = threadIdx.x * per, hi = min(lo + per, blocks);
  unsigned int sum = 0;
  for (int i = lo; i < hi; i++) sum += blockRoots[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int run = 0;
    for (int i = 0; i < 1024; i++) {
      const unsigned int c = partial[i];
      partial[i] = run;
      run += c;
    }
    *total = run;
  }
  __syncthreads();
  unsigned int run = partial[threadIdx.x];
  for (int i = lo; i < hi; i++) {
    const unsigned int c = blockRoots[i];
    blockRoots[i] = run;
    run += c;
  }
}

// grid_number gives every root its label: its block's offset plus its rank
// among the block's roots, in index order.
extern "C" __global__ void __launch_bounds__(256)
grid_number(const int* const __restrict__ parent, const unsigned int* const __restrict__ blockRoots,
            unsigned int* const __restrict__ labels, const long long n)
{
  __shared__ unsigned int counts[256];
  const long long base = (long long)blockIdx.x * 1024 + threadIdx.x * 4;
  unsigned int flags[4];
  unsigned int mine = 0;
  for (int j = 0; j < 4; j++) {
    const long long i = base + j;
    flags[j] = (i < n && parent[i] == (int)i) ? 1u : 0u;
    mine += flags[j];
  }
  counts[threadIdx.x] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int run = 0;
    for (int t = 0; t < 256; t++) {
      const unsigned int c = counts[t];
      counts[t] = run;
      run += c;
    }
  }
  __syncthreads();
  unsigned int next = blockRoots[blockIdx.x] + counts[threadIdx.x] + 1;
  for (int j = 0; j < 4; j++) {
    const long long i = base + j;
    if (flags[j]) labels[i] = next++;
  }
}

// grid_relabel gives every pixel its root's label, background 0.
extern "C" __global__ void grid_relabel(const int* const __restrict__ parent, unsigned int* const __restrict__ labels, const long long n)
{
  for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    const int p = parent[i];
    if (p < 0) {
      labels[i] = 0;
    } else if (p != (int)i) {
      labels[i] = labels[p];
    }
  }
}
