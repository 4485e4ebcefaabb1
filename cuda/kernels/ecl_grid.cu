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
