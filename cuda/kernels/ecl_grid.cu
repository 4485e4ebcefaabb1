// Shared pieces of the grid kernels (ecl_grid_blocks.cu, ecl_grid_tiles.cu)
// for cclabel: the grid's shape and foreground rule, the connectivity key
// of a sample, and the one-block scan of per-tile counts. Labels are
// numbered 1..N by first occurrence (the representative of a component is
// its smallest index, so a prefix scan over the roots in index order
// numbers the components), background 0.
// build.sh compiles the kernel files as one unit, in name order.
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

// blockScan returns the exclusive prefix sum of v over the threads of a
// 1024-thread block and sets total to the block's sum (all threads must
// call it): a scan within each warp by shuffles, then of the warps'
// totals by the first warp. warpSums is 32 words of shared memory.
static __device__ __forceinline__ unsigned int blockScan(const unsigned int v, unsigned int* const warpSums, unsigned int& total)
{
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned int x = v; // inclusive within the warp
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) warpSums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    unsigned int w = warpSums[lane];
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned int y = __shfl_up_sync(0xffffffffu, w, o);
      if (lane >= o) w += y;
    }
    warpSums[lane] = w;
  }
  __syncthreads();
  total = warpSums[31];
  return x - v + (warp > 0 ? warpSums[warp - 1] : 0u);
}

// grid_scan turns the per-block root counts into exclusive offsets (one
// block of 1024 threads; blocks is at most a few million): each thread
// sums a stretch, the stretch sums are scanned across the block, and each
// thread writes its stretch.
extern "C" __global__ void __launch_bounds__(1024)
grid_scan(unsigned int* const __restrict__ blockRoots, const int blocks, unsigned int* const __restrict__ total)
{
  __shared__ unsigned int warpSums[32];
  const int per = (blocks + 1023) / 1024;
  const int lo = threadIdx.x * per, hi = min(lo + per, blocks);
  unsigned int sum = 0;
  for (int i = lo; i < hi; i++) sum += blockRoots[i];
  unsigned int all;
  unsigned int run = blockScan(sum, warpSums, all);
  if (threadIdx.x == 0) *total = all;
  for (int i = lo; i < hi; i++) {
    const unsigned int c = blockRoots[i];
    blockRoots[i] = run;
    run += c;
  }
}
