// A CPU stand-in for the CUDA features cclabel's kernels use, to run the
// kernels of cuda/kernels on a machine without a GPU (development only):
// each launch runs its thread blocks one after another, the threads of a
// block as fibers of one OS thread; __syncthreads and the warp intrinsics
// (shuffles, ballot, match, reduce) meet at barriers, where the fibers
// switch, so a warp's lanes run in lockstep at each intrinsic. Threads
// interleave only there: races inside the union-find are not exercised. Shared memory
// (function-local statics) is one copy, reused by each block in turn.
#pragma once
#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <functional>
#include <ucontext.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
};
inline dim3 threadIdx, blockIdx, blockDim, gridDim;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __shared__ static
#define __constant__
#define __CUDA_ARCH__ 900

struct uchar2 { unsigned char x, y; };
struct ushort2 { unsigned short x, y; };
struct short2 { short x, y; };
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(8) int2 { int x, y; };
struct alignas(8) float2 { float x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
inline uint2 make_uint2(unsigned int x, unsigned int y) { return {x, y}; }
inline int2 make_int2(int x, int y) { return {x, y}; }

// Threads are fibers (ucontext) of one OS thread, switched only at
// barriers: a barrier's last live arrival releases it.
struct EmuGroup {
  int live = 0, arrived = 0;
  unsigned long long gen = 0;
};
struct EmuFiber {
  ucontext_t ctx; // the first start
  jmp_buf jb;     // later switches: _setjmp/_longjmp, no signal-mask system calls
  bool started = false, done = false;
};
struct EmuState {
  ucontext_t sched;
  jmp_buf schedJb;
  std::vector<EmuFiber> fibers;
  std::vector<std::vector<char>> stacks;
  EmuGroup block;
  std::vector<EmuGroup> warps;
  uint64_t slot[1024];
  int current = 0;
  unsigned long long progress = 0;
};
inline EmuState emu;

inline void emuYield()
{
  if (_setjmp(emu.fibers[emu.current].jb) == 0) _longjmp(emu.schedJb, 1);
}
inline void emuArrive(EmuGroup& g)
{
  const unsigned long long gen = g.gen;
  emu.progress++;
  if (++g.arrived == g.live) {
    g.arrived = 0;
    g.gen++;
    return;
  }
  while (g.gen == gen) emuYield();
}
inline void emuLeave(EmuGroup& g)
{
  g.live--;
  if (g.arrived > 0 && g.arrived == g.live) {
    g.arrived = 0;
    g.gen++;
  }
}

inline void __syncthreads() { emuArrive(emu.block); }
inline void __syncwarp(unsigned = 0xffffffffu) { emuArrive(emu.warps[threadIdx.x / 32]); }
inline void __nanosleep(unsigned) {}

// emuAll publishes this lane's value and returns every lane's.
template <typename V> inline std::vector<V> emuAll(V v)
{
  const int w = threadIdx.x / 32;
  uint64_t raw = 0;
  std::memcpy(&raw, &v, sizeof v);
  emu.slot[threadIdx.x] = raw;
  emuArrive(emu.warps[w]);
  std::vector<V> all;
  for (int i = 0; i < 32; i++) {
    V x;
    std::memcpy(&x, &emu.slot[32 * w + i], sizeof(V));
    all.push_back(x);
  }
  emuArrive(emu.warps[w]);
  return all;
}
template <typename V> inline V __shfl_up_sync(unsigned, V v, int d)
{
  const int lane = threadIdx.x % 32;
  auto all = emuAll(v);
  return lane >= d ? all[lane - d] : v;
}
template <typename V> inline V __shfl_down_sync(unsigned, V v, int d)
{
  const int lane = threadIdx.x % 32;
  auto all = emuAll(v);
  return lane + d < 32 ? all[lane + d] : v;
}
template <typename V> inline V __shfl_sync(unsigned, V v, int src)
{
  auto all = emuAll(v);
  return all[src % 32];
}
inline unsigned int __ballot_sync(unsigned, bool p)
{
  auto all = emuAll(p ? 1 : 0);
  unsigned int m = 0;
  for (int i = 0; i < 32; i++) m |= (unsigned int)(all[i] != 0) << i;
  return m;
}
inline bool __any_sync(unsigned m, bool p) { return __ballot_sync(m, p) != 0; }
inline bool __all_sync(unsigned m, bool p) { return __ballot_sync(m, p) == 0xffffffffu; }
template <typename V> inline unsigned int __match_any_sync(unsigned, V v)
{
  auto all = emuAll(v);
  unsigned int m = 0;
  for (int i = 0; i < 32; i++) m |= (unsigned int)(all[i] == v) << i;
  return m;
}
inline unsigned int __reduce_min_sync(unsigned mask, unsigned int v)
{
  auto all = emuAll(v);
  unsigned int r = 0xffffffffu;
  for (int i = 0; i < 32; i++)
    if ((mask >> i) & 1u) r = std::min(r, all[i]);
  return r;
}

template <typename T, typename U> inline T atomicAdd(T* p, U v)
{
  const T old = *p;
  *p = old + (T)v;
  return old;
}
template <typename T> inline T atomicOr(T* p, T v)
{
  const T old = *p;
  *p = old | v;
  return old;
}
template <typename T> inline T atomicMin(T* p, T v)
{
  const T old = *p;
  if (v < old) *p = v;
  return old;
}
template <typename T> inline T atomicMax(T* p, T v)
{
  const T old = *p;
  if (v > old) *p = v;
  return old;
}
template <typename T> inline T atomicCAS(T* p, T cmp, T v)
{
  const T old = *p;
  if (old == cmp) *p = v;
  return old;
}
using std::max;
using std::min;
inline int __ffs(unsigned int x) { return __builtin_ffs((int)x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(unsigned int x) { return x ? __builtin_clz(x) : 32; }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline unsigned int __float_as_uint(float f)
{
  unsigned int u;
  std::memcpy(&u, &f, 4);
  return u;
}
// SIMD lanes: 4 bytes or 2 halfwords of a word, unsigned.
template <int L> inline unsigned int emuLanes(unsigned int a, unsigned int b, unsigned int (*f)(unsigned int, unsigned int))
{
  constexpr int bits = 32 / L;
  constexpr unsigned int mask = (1u << bits) - 1;
  unsigned int r = 0;
  for (int i = 0; i < L; i++) r |= (f((a >> (bits * i)) & mask, (b >> (bits * i)) & mask) & mask) << (bits * i);
  return r;
}
inline unsigned int emuMax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned int emuSub(unsigned int a, unsigned int b) { return a - b; }
inline unsigned int __vmaxu4(unsigned int a, unsigned int b) { return emuLanes<4>(a, b, emuMax); }
inline unsigned int __vmaxu2(unsigned int a, unsigned int b) { return emuLanes<2>(a, b, emuMax); }
inline unsigned int __vsub4(unsigned int a, unsigned int b) { return emuLanes<4>(a, b, emuSub); }
inline unsigned int __vsub2(unsigned int a, unsigned int b) { return emuLanes<2>(a, b, emuSub); }
inline unsigned int __vcmpne4(unsigned int a, unsigned int b)
{
  return emuLanes<4>(a, b, [](unsigned int x, unsigned int y) { return x != y ? 0xffu : 0u; });
}
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }

// emuLaunch runs kernel() on grid x block threads (1D).
inline std::function<void()> emuKernel;
inline void emuEntry()
{
  emuKernel();
  EmuFiber& f = emu.fibers[emu.current];
  emuLeave(emu.warps[threadIdx.x / 32]);
  emuLeave(emu.block);
  f.done = true;
  _longjmp(emu.schedJb, 1);
}
template <typename F> void emuLaunch(unsigned int grid, unsigned int block, F kernel)
{
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  emuKernel = kernel;
  emu.fibers = std::vector<EmuFiber>(block);
  emu.stacks.resize(block);
  for (auto& st : emu.stacks) st.resize(1 << 16);
  for (unsigned int b = 0; b < grid; b++) {
    blockIdx = {b, 0, 0};
    emu.block = EmuGroup{(int)block, 0, 0};
    emu.warps.assign((block + 31) / 32, EmuGroup{});
    for (unsigned int w = 0; w < emu.warps.size(); w++) emu.warps[w].live = (int)std::min(32u, block - 32 * w);
    for (unsigned int t = 0; t < block; t++) {
      EmuFiber& f = emu.fibers[t];
      f.done = false;
      f.started = false;
      getcontext(&f.ctx);
      f.ctx.uc_stack.ss_sp = emu.stacks[t].data();
      f.ctx.uc_stack.ss_size = emu.stacks[t].size();
      f.ctx.uc_link = nullptr;
      makecontext(&f.ctx, emuEntry, 0);
    }
    for (unsigned int left = block; left > 0;) {
      const unsigned long long before = emu.progress, leftBefore = left;
      for (unsigned int t = 0; t < block; t++) {
        if (emu.fibers[t].done) continue;
        emu.current = (int)t;
        threadIdx = {t, 0, 0};
        if (_setjmp(emu.schedJb) == 0) {
          EmuFiber& f = emu.fibers[t];
          if (!f.started) {
            f.started = true;
            swapcontext(&emu.sched, &f.ctx);
          } else {
            _longjmp(f.jb, 1);
          }
        }
        if (emu.fibers[t].done) left--;
      }
      if (emu.progress == before && left == leftBefore) {
        fprintf(stderr, "emu: deadlock in block %u: block barrier %d/%d, warps", b, emu.block.arrived, emu.block.live);
        for (auto& w : emu.warps) fprintf(stderr, " %d/%d", w.arrived, w.live);
        fprintf(stderr, "\n");
        abort();
      }
    }
  }
}
