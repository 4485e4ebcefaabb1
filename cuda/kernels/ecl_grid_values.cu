// grid_values for cclabel: whether the nonzero samples of a multilabel grid
// share one value, so that the binary rule labels it (equal labels: with
// one nonzero value "equal nonzero values join" is "nonzero samples join")
// and the block kernels take it at 8 and 26.
//
// The samples are compared as unsigned bit patterns of their width (equal
// patterns are equal values, also for int16 and int32). out must hold
// {0, 0} before the launch (zero_u32); afterwards out[0] is the largest
// -v mod 2^bits of the nonzero samples (2^bits minus the smallest nonzero
// pattern) and out[1] the largest pattern. So out[1] == 0: no foreground;
// -out[0] mod 2^bits == out[1]: one value; else several. Integer samples
// only (uint8, uint16, int16, uint32, int32; kernels grid_values_u8, _u16,
// _i16, _u32, _i32): floats have two zeros and NaNs.
//
// Grid-stride over 16-byte vectors of the samples, byte lanes (__vmaxu4)
// for 1-byte samples and halfword lanes (__vmaxu2) for 2-byte ones, the
// last (bytes mod 16) samples one per thread of block 0; a warp then a
// block reduction, and one atomicMax pair per thread block with
// foreground.

// gvtake folds the samples of word w (B bytes each) into the per-lane
// maxima of -v (lo) and v (hi).
template <int B> static __device__ __forceinline__ void gvtake(const unsigned int w, unsigned int& lo, unsigned int& hi)
{
  if (B == 1) {
    lo = __vmaxu4(lo, __vsub4(0u, w));
    hi = __vmaxu4(hi, w);
  } else if (B == 2) {
    lo = __vmaxu2(lo, __vsub2(0u, w));
    hi = __vmaxu2(hi, w);
  } else {
    lo = max(lo, 0u - w);
    hi = max(hi, w);
  }
}

// gvfold returns the largest lane of x.
template <int B> static __device__ __forceinline__ unsigned int gvfold(const unsigned int x)
{
  if (B == 1) return max(max(x & 0xffu, (x >> 8) & 0xffu), max((x >> 16) & 0xffu, x >> 24));
  if (B == 2) return max(x & 0xffffu, x >> 16);
  return x;
}

template <int B>
static __device__ void grid_values(const unsigned char* const __restrict__ in, const long long n, unsigned int* const __restrict__ out)
{
  const long long bytes = n * B, vecs = bytes / 16;
  const uint4* const __restrict__ v4 = reinterpret_cast<const uint4*>(in);
  const long long id = threadIdx.x + (long long)blockIdx.x * blockDim.x, stride = (long long)gridDim.x * blockDim.x;
  unsigned int lo = 0, hi = 0;
  for (long long i = id; i < vecs; i += stride) {
    const uint4 q = v4[i];
    gvtake<B>(q.x, lo, hi);
    gvtake<B>(q.y, lo, hi);
    gvtake<B>(q.z, lo, hi);
    gvtake<B>(q.w, lo, hi);
  }
  if (id < (bytes - 16 * vecs) / B) { // a tail sample, repeated in every lane of the word
    const long long e = 16 * vecs / B + id;
    unsigned int w;
    if (B == 1) w = in[e] * 0x01010101u;
    else if (B == 2) w = reinterpret_cast<const unsigned short*>(in)[e] * 0x00010001u;
    else w = reinterpret_cast<const unsigned int*>(in)[e];
    gvtake<B>(w, lo, hi);
  }
  lo = gvfold<B>(lo);
  hi = gvfold<B>(hi);
#pragma unroll
  for (int o = 16; o > 0; o /= 2) {
    lo = max(lo, __shfl_down_sync(0xffffffffu, lo, o));
    hi = max(hi, __shfl_down_sync(0xffffffffu, hi, o));
  }
  __shared__ unsigned int part[2][32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    part[0][warp] = lo;
    part[1][warp] = hi;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < (int)blockDim.x / 32; k++) {
      lo = max(lo, part[0][k]);
      hi = max(hi, part[1][k]);
    }
    if (hi != 0) {
      atomicMax(&out[0], lo);
      atomicMax(&out[1], hi);
    }
  }
}

#define GRID_VALUES(suffix, B)                                                                                                \
  extern "C" __global__ void __launch_bounds__(256) grid_values_##suffix(const unsigned char* const __restrict__ in,            \
                                                                         const long long n, unsigned int* const __restrict__ out) \
  {                                                                                                                           \
    grid_values<B>(in, n, out);                                                                                               \
  }
GRID_VALUES(u8, 1)
GRID_VALUES(u16, 2)
GRID_VALUES(i16, 2)
GRID_VALUES(u32, 4)
GRID_VALUES(i32, 4)
