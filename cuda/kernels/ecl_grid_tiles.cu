// Tile-based ECL-CC for every rule and connectivity: 4 and 8 in 2D, 6, 18
// and 26 in 3D, multilabel (equal nonzero keys join), binary and
// threshold. (cuda/grid.go takes them for images whose rows' runs join
// many others: the block kernels of ecl_grid_blocks.cu are faster for the
// binary and threshold rules at 8, 18 and 26, where a 2x2(x2) block, 2x2x1
// at 18, is always one vertex, and the run kernels of ecl_grid_runs.cu for
// other volumes and images; the value-block kernels of ecl_grid_vblocks.cu,
// a vertex per value of a 2x2x2 block, run only on request. All number
// components as this file does.) Voxels are the vertices;
// each voxel's parent is the smallest index of its component, so
// numbering the roots in memory order is first-occurrence order.
//
// Kernels, in order:
//   zero_u32 (ecl_grid_blocks.cu): the representative masks cleared
//     (skipped when the width is a multiple of 32: tiles_local then
//     stores every word whole).
//   tiles_local: a tile of TX x TY x TZ voxels per thread block (warps
//     along x, 32 voxels a warp row); each warp row cut into runs of
//     joined voxels (ballots), runs joined by union-find in shared memory
//     over the stencil's in-tile backward neighbours; then parent[v] = the
//     global index of the smallest voxel of v's tile-local component (its
//     representative, -1 for background), and one bit per representative
//     in masks (bit i of word j: voxel 32j + i).
//   tiles_border: ECL-CC hooking (CAS, intermediate pointer jumping) of the
//     joined pairs that cross tile faces, each pair by one thread of the
//     face it leaves through (x first, then y, then z).
//   tiles_roots: each representative that is no root pointed straight at
//     its root; masks keep the roots; counts[j] = roots in word j (a warp
//     per ROOTS_WORDS words).
//   scan_tiles, grid_scan: counts become offsets.
//   tiles_relabel: every voxel gets its root's label, the root's rank in
//     memory order (offset of its word + roots before it in the word + 1),
//     background 0.
// Skipped unions: when a voxel joins the middle one of three neighbours in
// a row (same dy, dz, dx = -1, 0, 1) of the same tile, the outer two join
// it through their row already; at 18 and 26 when it joins (0, 0, -1), the
// other neighbours in plane z - 1 of that tile are 8-connected to that one
// inside their plane; when the voxel to its left joins the neighbour to
// the left of its own at the same offset, that union covers both pairs.
// Device memory: the input, parent and labels (4 bytes per voxel each),
// masks and counts (4 bytes per 32 voxels each), the scan's sums.

#define TX2 128 // 2D tile: TX2 x TY2 pixels
#define TY2 16
#define TX3 64 // 3D tile: TX3 x TY3 x TZ3 voxels
#define TY3 8
#define TZ3 8
#define TILE_THREADS 256

// TKey is the shared-memory key of a sample type: as wide as the sample
// (a multilabel key cut to the sample's width still tells samples apart
// and is zero only for background; binary and threshold keys are 0 or 1).
template <typename T> struct TKey { typedef unsigned int type; };
template <> struct TKey<unsigned char> { typedef unsigned char type; };
template <> struct TKey<unsigned short> { typedef unsigned short type; };
template <> struct TKey<short> { typedef unsigned short type; };

// tnear reports whether the neighbour of tile voxel l at (DX, DY, DZ) is in
// the tile and has key (nonzero).
template <int TX, int TY, int TZ, int DX, int DY, int DZ, typename K>
static __device__ __forceinline__ bool tnear(const K* const sk, const int l, const int tx, const int ty, const int tz, const K key)
{
  const bool inside = tx + DX >= 0 && tx + DX < TX && ty + DY >= 0 && ty + DY < TY && tz + DZ >= 0 && tz + DZ < TZ;
  return key != 0 && inside && sk[inside ? l + DX + TX * (DY + TY * DZ) : l] == key;
}

// tlink joins tile voxel l (key, tile coordinates tx, ty, tz) to its
// neighbour at (DX, DY, DZ) when that is in the tile with the same key and
// skip is not set, and reports whether they joined. When the voxel to the
// left (the previous lane: jl, the voxel joins its left neighbour) and its
// neighbour at the same offset have the key too, their union covers this
// one (each is joined to this pair through its row), so the leftmost
// voxel of such a stretch joins it alone. All lanes must call it.
template <int TX, int TY, int TZ, int DX, int DY, int DZ, typename K>
static __device__ __forceinline__ bool tlink(int* const lp, const K* const sk, const int l, const int tx, const int ty, const int tz,
                                             const K key, const bool jl, const bool skip)
{
  const bool near = tnear<TX, TY, TZ, DX, DY, DZ>(sk, l, tx, ty, tz, key);
  const unsigned int nears = __ballot_sync(0xffffffffu, near);
  const int lane = threadIdx.x % 32;
  const bool covered = jl && lane > 0 && ((nears >> (lane - 1)) & 1u) != 0u;
  if (near && !skip && !covered) lunion(lp, lp[l], lp[l + DX + TX * (DY + TY * DZ)]);
  return near && !skip;
}

// tunions joins tile voxel l (key, tile coordinates tx, ty, tz; jl: it
// joins its left neighbour) to its in-tile backward neighbours other than
// (-1, 0, 0), which the runs take. All lanes must call it.
template <int CONN, int TX, int TY, int TZ, typename K>
static __device__ __forceinline__ void tunions(int* const lp, const K* const sk, const int l, const int tx, const int ty,
                                               const int tz, const K key, const bool jl)
{
  const bool up = tlink<TX, TY, TZ, 0, -1, 0>(lp, sk, l, tx, ty, tz, key, jl, false);
  if (CONN == 8 || CONN == 18 || CONN == 26) {
    tlink<TX, TY, TZ, -1, -1, 0>(lp, sk, l, tx, ty, tz, key, jl, up);
    tlink<TX, TY, TZ, 1, -1, 0>(lp, sk, l, tx, ty, tz, key, jl, up);
  }
  if (CONN == 6 || CONN == 18 || CONN == 26) {
    const bool below = tlink<TX, TY, TZ, 0, 0, -1>(lp, sk, l, tx, ty, tz, key, jl, false);
    if (CONN == 18 || CONN == 26) {
      tlink<TX, TY, TZ, -1, 0, -1>(lp, sk, l, tx, ty, tz, key, jl, below);
      tlink<TX, TY, TZ, 1, 0, -1>(lp, sk, l, tx, ty, tz, key, jl, below);
      const bool bu = tlink<TX, TY, TZ, 0, -1, -1>(lp, sk, l, tx, ty, tz, key, jl, below);
      const bool bd = tlink<TX, TY, TZ, 0, 1, -1>(lp, sk, l, tx, ty, tz, key, jl, below);
      if (CONN == 26) {
        tlink<TX, TY, TZ, -1, -1, -1>(lp, sk, l, tx, ty, tz, key, jl, below || bu);
        tlink<TX, TY, TZ, 1, -1, -1>(lp, sk, l, tx, ty, tz, key, jl, below || bu);
        tlink<TX, TY, TZ, -1, 1, -1>(lp, sk, l, tx, ty, tz, key, jl, below || bd);
        tlink<TX, TY, TZ, 1, 1, -1>(lp, sk, l, tx, ty, tz, key, jl, below || bd);
      }
    }
  }
}

// TRow is the k-th warp row of a tile thread: tile coordinates of its
// voxel and its index l in the shared arrays (rows of TX, x fastest).
struct TRow {
  int tx, ty, tz, l, xw;
};

template <int TX, int TY> static __device__ __forceinline__ TRow trow(const int k)
{
  constexpr int XW = TX / 32;
  const int wr = threadIdx.x / 32 + (TILE_THREADS / 32) * k, lane = threadIdx.x % 32;
  TRow r;
  r.xw = wr % XW;
  const int row = wr / XW;
  r.tx = r.xw * 32 + lane;
  r.ty = row % TY;
  r.tz = row / TY;
  r.l = r.tx + TX * row;
  return r;
}

// TOrigin is the first voxel of thread block blockIdx.x's tile.
struct TOrigin {
  int x, y, z;
};

template <int TX, int TY, int TZ> static __device__ __forceinline__ TOrigin torigin(const GridShape& s)
{
  const int tilesX = (s.w + TX - 1) / TX, tilesY = (s.h + TY - 1) / TY;
  const int t = blockIdx.x;
  TOrigin o;
  o.x = (t % tilesX) * TX;
  o.y = ((t / tilesX) % tilesY) * TY;
  o.z = (t / tilesX / tilesY) * TZ;
  return o;
}

template <typename T, int CONN, int TX, int TY, int TZ>
static __device__ void tiles_local(const T* const __restrict__ in, int* const __restrict__ parent, unsigned int* const __restrict__ masks,
                                   const GridShape s)
{
  typedef typename TKey<T>::type K;
  constexpr int size = TX * TY * TZ, per = size / TILE_THREADS;
  __shared__ int lp[size];
  __shared__ K sk[size];
  const TOrigin o = torigin<TX, TY, TZ>(s);
  const int lane = threadIdx.x % 32;
  // Keys, and each warp row cut into runs of joined voxels: a voxel's
  // parent is the first voxel of its run.
#pragma unroll
  for (int k = 0; k < per; k++) {
    const TRow r = trow<TX, TY>(k);
    const int x = o.x + r.tx, y = o.y + r.ty, z = o.z + r.tz;
    K key = 0;
    if (x < s.w && y < s.h && z < s.d) key = (K)gkey(in[((long long)z * s.h + y) * s.w + x], s);
    sk[r.l] = key;
    const K left = (K)__shfl_up_sync(0xffffffffu, (unsigned int)key, 1);
    const bool joinsLeft = lane > 0 && key != 0 && key == left;
    const unsigned int starts = __ballot_sync(0xffffffffu, !joinsLeft);
    lp[r.l] = r.l - lane + (31 - __clz(starts & (0xffffffffu >> (31 - lane))));
  }
  __syncthreads();
#pragma unroll 1
  for (int k = 0; k < per; k++) {
    const TRow r = trow<TX, TY>(k);
    const K key = sk[r.l];
    const K left = (K)__shfl_up_sync(0xffffffffu, (unsigned int)key, 1);
    const bool jl = lane > 0 && key != 0 && key == left;
    if (lane == 0 && r.tx > 0 && key != 0 && sk[r.l - 1] == key) lunion(lp, lp[r.l], lp[r.l - 1]); // runs meet at warp rows' ends
    tunions<CONN, TX, TY, TZ>(lp, sk, r.l, r.tx, r.ty, r.tz, key, jl);
  }
  __syncthreads();
  // The root of a tile-local tree is its smallest voxel, in tile order as
  // in memory order: the representative. The first voxel of each run finds
  // it for the run.
#pragma unroll
  for (int k = 0; k < per; k++) {
    const TRow r = trow<TX, TY>(k);
    const int x = o.x + r.tx, y = o.y + r.ty, z = o.z + r.tz;
    const bool inGrid = x < s.w && y < s.h && z < s.d;
    const K key = sk[r.l];
    const K left = (K)__shfl_up_sync(0xffffffffu, (unsigned int)key, 1);
    const bool jl = lane > 0 && key != 0 && key == left;
    const unsigned int starts = __ballot_sync(0xffffffffu, !jl);
    const int rs = 31 - __clz(starts & (0xffffffffu >> (31 - lane)));
    int root = key != 0 && !jl ? lfind(lp, r.l) : -1;
    root = __shfl_sync(0xffffffffu, root, rs);
    const long long v = ((long long)z * s.h + y) * s.w + x;
    if (inGrid) {
      int rep = -1;
      if (root >= 0) {
        const int rx = root % TX, rrow = root / TX;
        rep = (int)(((long long)(o.z + rrow / TY) * s.h + o.y + rrow % TY) * s.w + o.x + rx);
      }
      parent[v] = rep;
    }
    const unsigned int bits = __ballot_sync(0xffffffffu, root == r.l);
    const int x0 = o.x + r.xw * 32;
    if (lane == 0 && x0 < s.w && y < s.h && z < s.d) {
      const long long first = v; // lane 0's voxel
      if ((s.w & 31) == 0) {
        masks[first >> 5] = bits;
      } else if (bits != 0) { // the row's 32 voxels may straddle two words
        const int off = (int)(first & 31);
        atomicOr(&masks[first >> 5], bits << off);
        if (off != 0 && (bits >> (32 - off)) != 0) atomicOr(&masks[(first >> 5) + 1], bits >> (32 - off));
      }
    }
  }
}

// Tile faces of the border kernel: the side of the tile a neighbour lies
// beyond, x before y before z.
#define TFACE_XF 1
#define TFACE_XL 2
#define TFACE_YF 3
#define TFACE_YL 4
#define TFACE_ZF 5

template <int TX, int TY, int TZ> static __device__ __forceinline__ int tface(const int nx, const int ny, const int nz)
{
  return nx < 0 ? TFACE_XF : nx >= TX ? TFACE_XL : ny < 0 ? TFACE_YF : ny >= TY ? TFACE_YL : nz < 0 ? TFACE_ZF : 0;
}

// TVoxel is a border task: a voxel on face of its tile.
struct TVoxel {
  int face, tx, ty, tz, x, y, z, v;
  unsigned int key;
  int own; // parent[v] (its representative) when key != 0
};

// tborder hooks border voxel b to its neighbour at (DX, DY, DZ) when the
// neighbour lies beyond b's face, is in the grid, has b's key, and skip is
// not set; it reports whether they joined. As in tlink, on the faces whose
// tasks run along x (row: the previous lane is the voxel to the left,
// beyond the same face) the voxel to the left hooks the pair when it and
// its neighbour at the offset have the key too (jl: b joins its left
// neighbour). All lanes must call it.
template <typename T, int TX, int TY, int TZ, int DX, int DY, int DZ>
static __device__ __forceinline__ bool tborder(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape& s,
                                               const TVoxel& b, const bool row, const bool jl, const bool skip)
{
  bool near = b.key != 0 && tface<TX, TY, TZ>(b.tx + DX, b.ty + DY, b.tz + DZ) == b.face && b.x + DX >= 0 && b.x + DX < s.w &&
              b.y + DY >= 0 && b.y + DY < s.h && b.z + DZ >= 0;
  const int u = b.v + DX + s.w * (DY + s.h * DZ);
  if (near) near = gkey(in[u], s) == b.key;
  const unsigned int nears = __ballot_sync(0xffffffffu, near);
  const int lane = threadIdx.x % 32;
  const bool covered = row && jl && lane > 0 && ((nears >> (lane - 1)) & 1u) != 0u;
  if (near && !skip && !covered) ghook(parent, b.own, parent[u]);
  return near && !skip;
}

template <typename T, int CONN, int TX, int TY, int TZ>
static __device__ void tiles_border(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape s)
{
  constexpr bool d3 = CONN == 6 || CONN == 18 || CONN == 26;
  constexpr bool xl = CONN == 8 || CONN == 18 || CONN == 26; // some backward neighbour at dx = +1
  constexpr bool yl = CONN == 18 || CONN == 26;              // some at dy = +1
  constexpr int nZF = d3 ? TX * TY : 0, nYF = TX * TZ, nYL = yl ? TX * TZ : 0, nXF = TY * TZ, nXL = xl ? TY * TZ : 0;
  constexpr int total = nZF + nYF + nYL + nXF + nXL;
  const TOrigin o = torigin<TX, TY, TZ>(s);
  for (int base = 0; base < total; base += blockDim.x) { // block-uniform
    int i = base + threadIdx.x;
    TVoxel b;
    b.face = 0;
    b.tx = b.ty = b.tz = 0;
    if (i < nZF) {
      b.face = TFACE_ZF;
      b.tx = i % TX;
      b.ty = i / TX;
    } else if ((i -= nZF) < nYF) {
      b.face = TFACE_YF;
      b.tx = i % TX;
      b.tz = i / TX;
    } else if ((i -= nYF) < nYL) {
      b.face = TFACE_YL;
      b.tx = i % TX;
      b.ty = TY - 1;
      b.tz = i / TX;
    } else if ((i -= nYL) < nXF) {
      b.face = TFACE_XF;
      b.ty = i % TY;
      b.tz = i / TY;
    } else if ((i -= nXF) < nXL) {
      b.face = TFACE_XL;
      b.tx = TX - 1;
      b.ty = i % TY;
      b.tz = i / TY;
    }
    b.x = o.x + b.tx;
    b.y = o.y + b.ty;
    b.z = o.z + b.tz;
    b.key = 0;
    b.v = 0;
    b.own = -1;
    if (b.face != 0 && b.x < s.w && b.y < s.h && b.z < s.d) {
      b.v = (int)(((long long)b.z * s.h + b.y) * s.w + b.x);
      b.key = gkey(in[b.v], s);
      if (b.key != 0) b.own = parent[b.v];
    }
    // The stencil's backward neighbours, each pair on the face it crosses.
    // The faces' task counts are multiples of 32 except the x faces' in
    // 2D, so a warp's lanes run along x on one face or take x faces only.
    const bool row = b.face == TFACE_ZF || b.face == TFACE_YF || b.face == TFACE_YL;
    const unsigned int left = __shfl_up_sync(0xffffffffu, b.key, 1);
    const bool jl = b.key != 0 && left == b.key;
    const bool up = tborder<T, TX, TY, TZ, 0, -1, 0>(in, parent, s, b, row, jl, false);
    if (CONN == 4 || CONN == 6) tborder<T, TX, TY, TZ, -1, 0, 0>(in, parent, s, b, row, jl, false);
    if (CONN == 8 || CONN == 18 || CONN == 26) {
      tborder<T, TX, TY, TZ, -1, 0, 0>(in, parent, s, b, row, jl, false);
      tborder<T, TX, TY, TZ, -1, -1, 0>(in, parent, s, b, row, jl, up);
      tborder<T, TX, TY, TZ, 1, -1, 0>(in, parent, s, b, row, jl, up);
    }
    if (d3) {
      const bool below = tborder<T, TX, TY, TZ, 0, 0, -1>(in, parent, s, b, row, jl, false);
      if (CONN == 18 || CONN == 26) {
        tborder<T, TX, TY, TZ, -1, 0, -1>(in, parent, s, b, row, jl, below);
        tborder<T, TX, TY, TZ, 1, 0, -1>(in, parent, s, b, row, jl, below);
        const bool bu = tborder<T, TX, TY, TZ, 0, -1, -1>(in, parent, s, b, row, jl, below);
        const bool bd = tborder<T, TX, TY, TZ, 0, 1, -1>(in, parent, s, b, row, jl, below);
        if (CONN == 26) {
          tborder<T, TX, TY, TZ, -1, -1, -1>(in, parent, s, b, row, jl, below || bu);
          tborder<T, TX, TY, TZ, 1, -1, -1>(in, parent, s, b, row, jl, below || bu);
          tborder<T, TX, TY, TZ, -1, 1, -1>(in, parent, s, b, row, jl, below || bd);
          tborder<T, TX, TY, TZ, 1, 1, -1>(in, parent, s, b, row, jl, below || bd);
        }
      }
    }
  }
}

// tiles_roots points every representative that is no root at its root
// (read-only chase: the only write is the thread's own entry, to a voxel
// on its path), keeps the roots in masks and counts them per word. A warp
// takes ROOTS_WORDS consecutive words (a lane loads one), skips the empty
// ones and runs the others ROOTS_ROUND at a time, a lane per voxel: their
// parent loads and the steps of their chases are independent, so each
// lane keeps ROOTS_ROUND loads in flight instead of one.
#define ROOTS_WORDS 32 // a lane per word
#ifndef ROOTS_ROUND
#define ROOTS_ROUND 4
#endif
extern "C" __global__ void __launch_bounds__(256)
tiles_roots(int* const __restrict__ parent, unsigned int* const __restrict__ masks, unsigned int* const __restrict__ counts,
            const long long n)
{
  const long long words = (n + 31) >> 5;
  const long long base = (((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5) * ROOTS_WORDS;
  if (base >= words) return; // warp-uniform
  const int lane = threadIdx.x % 32;
  const long long mine = base + lane;
  const unsigned int m = mine < words ? masks[mine] : 0u;
  unsigned int pending = __ballot_sync(0xffffffffu, m != 0u); // warp-uniform
  unsigned int roots = 0u;                                    // lane's word's roots
  while (pending != 0u) {
    int wj[ROOTS_ROUND], v[ROOTS_ROUND], p[ROOTS_ROUND], r[ROOTS_ROUND];
    bool act[ROOTS_ROUND];
#pragma unroll
    for (int j = 0; j < ROOTS_ROUND; j++) {
      wj[j] = pending != 0u ? __ffs(pending) - 1 : -1;
      pending &= pending - 1u;
      const unsigned int mj = __shfl_sync(0xffffffffu, m, wj[j] & 31);
      v[j] = (int)((base + (wj[j] & 31)) * 32 + lane);
      p[j] = wj[j] >= 0 && ((mj >> lane) & 1u) != 0u ? parent[v[j]] : -1;
    }
    bool any = false;
#pragma unroll
    for (int j = 0; j < ROOTS_ROUND; j++) {
      r[j] = p[j];
      act[j] = p[j] >= 0 && p[j] != v[j];
      any |= act[j];
    }
    while (any) { // the chases, a step of each per iteration
      int next[ROOTS_ROUND];
#pragma unroll
      for (int j = 0; j < ROOTS_ROUND; j++)
        if (act[j]) next[j] = parent[r[j]];
      any = false;
#pragma unroll
      for (int j = 0; j < ROOTS_ROUND; j++) {
        if (act[j]) {
          if (next[j] < r[j]) {
            r[j] = next[j];
          } else {
            act[j] = false;
          }
        }
        any |= act[j];
      }
    }
#pragma unroll
    for (int j = 0; j < ROOTS_ROUND; j++) {
      if (p[j] >= 0 && r[j] != p[j]) parent[v[j]] = r[j];
      const unsigned int rj = __ballot_sync(0xffffffffu, p[j] >= 0 && p[j] == v[j]);
      if (lane == wj[j]) roots = rj;
    }
  }
  if (mine < words) {
    counts[mine] = __popc(roots);
    masks[mine] = roots;
  }
}

// tlabel is the label of a voxel whose parent entry is p: its root's rank
// among the roots in memory order, 0 for background.
static __device__ __forceinline__ unsigned int tlabel(const int p, const int* const __restrict__ parent,
                                                      const unsigned int* const __restrict__ masks,
                                                      const unsigned int* const __restrict__ offsets,
                                                      const unsigned int* const __restrict__ sums)
{
  if (p < 0) return 0u;
  const int r = parent[p]; // p is a representative, pointed at its root by tiles_roots
  const unsigned int word = (unsigned int)r >> 5;
  return sums[word / SCAN_TILE] + offsets[word] + __popc(masks[word] & ((1u << (r & 31)) - 1u)) + 1u;
}

// tiles_relabel writes every voxel's label, 4 voxels a thread.
extern "C" __global__ void __launch_bounds__(256)
tiles_relabel(const int* const __restrict__ parent, const unsigned int* const __restrict__ masks,
              const unsigned int* const __restrict__ offsets, const unsigned int* const __restrict__ sums,
              unsigned int* const __restrict__ labels, const long long n)
{
  const long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= n) return;
  if (i + 4 <= n) {
    const int4 p = *reinterpret_cast<const int4*>(parent + i);
    uint4 out;
    out.x = tlabel(p.x, parent, masks, offsets, sums);
    out.y = tlabel(p.y, parent, masks, offsets, sums);
    out.z = tlabel(p.z, parent, masks, offsets, sums);
    out.w = tlabel(p.w, parent, masks, offsets, sums);
    *reinterpret_cast<uint4*>(labels + i) = out;
    return;
  }
  for (long long j = i; j < n; j++) labels[j] = tlabel(parent[j], parent, masks, offsets, sums);
}

// Tiles: 2D TX2 x TY2 pixels, 3D TX3 x TY3 x TZ3 voxels.
#define TILES_CONN(suffix, T, conn, TX, TY, TZ)                                                                              \
  extern "C" __global__ void __launch_bounds__(TILE_THREADS) tiles_local_c##conn##_##suffix(                                  \
      const T* const __restrict__ in, int* const __restrict__ parent, unsigned int* const __restrict__ masks, const GridShape s) \
  {                                                                                                                           \
    tiles_local<T, conn, TX, TY, TZ>(in, parent, masks, s);                                                                   \
  }                                                                                                                           \
  extern "C" __global__ void __launch_bounds__(TILE_THREADS)                                                                  \
      tiles_border_c##conn##_##suffix(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape s)      \
  {                                                                                                                           \
    tiles_border<T, conn, TX, TY, TZ>(in, parent, s);                                                                         \
  }
#define TILES_TYPE(suffix, T)                \
  TILES_CONN(suffix, T, 4, TX2, TY2, 1)      \
  TILES_CONN(suffix, T, 8, TX2, TY2, 1)      \
  TILES_CONN(suffix, T, 6, TX3, TY3, TZ3)    \
  TILES_CONN(suffix, T, 18, TX3, TY3, TZ3)   \
  TILES_CONN(suffix, T, 26, TX3, TY3, TZ3)
TILES_TYPE(u8, unsigned char)
TILES_TYPE(u16, unsigned short)
TILES_TYPE(i16, short)
TILES_TYPE(u32, unsigned int)
TILES_TYPE(i32, int)
TILES_TYPE(f32, float)
