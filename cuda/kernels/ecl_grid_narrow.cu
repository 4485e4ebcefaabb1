// grid_narrow_u16 for cclabel: a grid's labels narrowed from uint32 to
// uint16 on the device when every label fits 16 bits (at most 65535
// components), so that their download, and the host memory they land in,
// are half as large. The host widens them again where it needs uint32.
//
// Grid-stride over groups of 8 labels: two 16-byte loads, one 16-byte
// store (in and out are cuMemAlloc'd, so 256-byte aligned); the last
// (n mod 8) labels one per thread of block 0. Each label keeps its low 16
// bits: the caller launches it only when the count is at most 65535.

// gnpack packs the low halves of a (low) and b (high) into one word.
static __device__ __forceinline__ unsigned int gnpack(const unsigned int a, const unsigned int b)
{
  return (a & 0xffffu) | (b << 16);
}

extern "C" __global__ void __launch_bounds__(256)
grid_narrow_u16(const unsigned int* const __restrict__ in, const long long n, unsigned short* const __restrict__ out)
{
  const long long groups = n / 8;
  const uint4* const __restrict__ in4 = reinterpret_cast<const uint4*>(in);
  uint4* const __restrict__ out4 = reinterpret_cast<uint4*>(out);
  const long long id = threadIdx.x + (long long)blockIdx.x * blockDim.x, stride = (long long)gridDim.x * blockDim.x;
  for (long long g = id; g < groups; g += stride) {
    const uint4 a = in4[2 * g], b = in4[2 * g + 1];
    uint4 o;
    o.x = gnpack(a.x, a.y);
    o.y = gnpack(a.z, a.w);
    o.z = gnpack(b.x, b.y);
    o.w = gnpack(b.z, b.w);
    out4[g] = o;
  }
  if (id < n - 8 * groups) out[8 * groups + id] = (unsigned short)in[8 * groups + id];
}
