// Block-based ECL-CC for the multilabel rule at 26-connectivity (3D). As
// in ecl_grid_blocks.cu the grid is cut into 2x2x2 blocks, whose voxels
// are all 26-adjacent to each other; here a vertex is a block's voxels of
// one value (most blocks of a segmentation hold one value, so they are one
// vertex), named by its first voxel in memory order (its key). Two
// neighbouring blocks join on a value when both have it on the sides that
// face each other (at 26-connectivity every voxel of one side touches
// every voxel of the other). Union-find hooks larger roots under smaller
// ones, so a component's root is its first voxel.
//
// A block is described by its foreground mask m, the key v of its first
// foreground voxel, and for a block of two values the other key v2 and
// the mask m2 of its voxels (0 for one value). A block of three or more
// values (complex, m2 = 0xff) is handled voxel by voxel from the input.
//
// Kernels, in order:
//   zero_u32 (ecl_grid_blocks.cu): the representative masks cleared.
//   vblocks_local: a tile of BTX x VB_TY x VB_TZ blocks (64x16x8 voxels)
//     per thread block, a warp per row of blocks along x. Shared-memory
//     union-find over the tile's voxels (one parent entry per voxel, of
//     which only keys are used: slot order is memory order, so a tree's
//     root is its smallest key). Each warp row is cut into runs of joined
//     one-value blocks (ballots), whose keys point at the run's smallest;
//     then the in-tile backward neighbours join through the descriptors
//     in shared memory (for the first vertices, a pair of trees that the
//     previous lane or this lane's previous offset joins is skipped),
//     pairs with a complex block key by key. Then parent[v] = the representative (smallest voxel) of v's
//     tile-local component for every voxel (-1 for background), and the
//     representatives' bits in masks, as tiles_local leaves them.
//   vblocks_border: ECL-CC hooking of the joined pairs of blocks in
//     different tiles, warps as blocks_border's.
// The neighbours are visited in loops over runtime offsets, not unrolled:
// one copy of the pair code keeps the kernels inside the instruction
// cache (the unrolled first version stalled on instruction fetch and ran
// 3x slower than the tile kernels).
//   tiles_roots, scan_tiles, grid_scan, tiles_relabel (ecl_grid_tiles.cu,
//     ecl_grid.cu): numbering and labels, as after the tile kernels.
// Device memory: as the tile kernels'.

#define VB_TY 8 // blocks of a tile along y and z
#define VB_TZ 4
#define VSX (2 * BTX) // the tile in voxels: slot x + VSX * (y + VSY * z)
#define VSY (2 * VB_TY)
#define VSZ (2 * VB_TZ)
// vblocks_local thread blocks per multiprocessor asked of the compiler
// (shared memory: 32 KiB of parents, up to 10 KiB of descriptors).
#ifndef VB_MIN_CTAS
#define VB_MIN_CTAS 5
#endif
// vblocks_border thread blocks per multiprocessor asked of the compiler:
// left free, the u32 kernel took 90 registers, one thread block of 512
// threads per multiprocessor, and ran 65% slower than at 3 (40 registers).
#ifndef VB_BORDER_CTAS
#define VB_BORDER_CTAS 3
#endif
// Unrolling of vblocks_local's loop over the 13 offsets (1: none).
#ifndef VB_UNROLL
#define VB_UNROLL 1
#endif
#define VB_PRAGMA(x) _Pragma(#x)
#define VB_UNROLL_BY(n) VB_PRAGMA(unroll n) // nvcc does not expand macros in a #pragma
#define VB_COMPLEX 0xffu // m2 of a block of three or more values

// vslot is the tile slot offset of bit b of a block (bit x + 2y + 4z).
static __device__ __forceinline__ int vslot(const int b) { return (b & 1) + VSX * ((b >> 1) & 1) + VSX * VSY * (b >> 2); }

// vbase is the tile slot of the first voxel of tile block (tx, ty, tz).
static __device__ __forceinline__ int vbase(const int tx, const int ty, const int tz) { return 2 * tx + VSX * (2 * ty + VSY * 2 * tz); }

// vindex is the grid index of bit b of block (bx, by, bz).
static __device__ __forceinline__ int vindex(const int b, const int bx, const int by, const int bz, const GridShape& s)
{
  return ((2 * bz + (b >> 2)) * s.h + 2 * by + ((b >> 1) & 1)) * s.w + 2 * bx + (b & 1);
}

// vglobal is the grid index of tile slot r of the tile at voxel (ox, oy, oz).
static __device__ __forceinline__ int vglobal(const int r, const int ox, const int oy, const int oz, const GridShape& s)
{
  return ((oz + r / (VSX * VSY)) * s.h + oy + (r / VSX) % VSY) * s.w + ox + r % VSX;
}

// vkeys loads the keys of block (bx, by, bz), bit order, 0 outside the grid
// (the block itself must start inside it).
template <typename T, typename K>
static __device__ __forceinline__ void vkeys(const T* const __restrict__ in, const int bx, const int by, const int bz,
                                             const GridShape& s, K (&k)[8])
{
  const int x = 2 * bx, y = 2 * by, z = 2 * bz;
#pragma unroll
  for (int r = 0; r < 4; r++) {
    const int yy = y + (r & 1), zz = z + (r >> 1);
    k[2 * r] = 0;
    k[2 * r + 1] = 0;
    if (yy >= s.h || zz >= s.d) continue;
    const long long base = ((long long)zz * s.h + yy) * s.w + x;
    if ((s.w & 1) == 0) { // even width: the pair is aligned, one load
      const typename BPair<T>::type p = *reinterpret_cast<const typename BPair<T>::type*>(in + base);
      k[2 * r] = (K)gkey(p.x, s);
      k[2 * r + 1] = (K)gkey(p.y, s);
    } else {
      k[2 * r] = (K)gkey(in[base], s);
      if (x + 1 < s.w) k[2 * r + 1] = (K)gkey(in[base + 1], s);
    }
  }
}

// VDesc describes a block: foreground mask m, key v of the first
// foreground voxel, and m2, the voxels of the other key v2 (0: one key;
// VB_COMPLEX: three or more).
template <typename K> struct VDesc {
  unsigned int m, m2;
  K v, v2;
};

template <typename K> static __device__ __forceinline__ VDesc<K> vnone()
{
  VDesc<K> d;
  d.m = d.m2 = 0;
  d.v = d.v2 = 0;
  return d;
}

template <typename K> static __device__ __forceinline__ VDesc<K> vdesc(const K (&k)[8])
{
  VDesc<K> d;
  d.m = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) d.m |= (k[i] != 0 ? 1u : 0u) << i;
  d.v = 0;
#pragma unroll
  for (int i = 7; i >= 0; i--)
    if (k[i] != 0) d.v = k[i];
  d.v2 = 0;
#pragma unroll
  for (int i = 7; i >= 0; i--)
    if (k[i] != 0 && k[i] != d.v) d.v2 = k[i];
  d.m2 = 0;
  bool many = false;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    d.m2 |= (d.v2 != 0 && k[i] == d.v2 ? 1u : 0u) << i;
    many |= k[i] != 0 && k[i] != d.v && k[i] != d.v2;
  }
  if (many) d.m2 = VB_COMPLEX;
  return d;
}

// vfirsts packs, 3 bits per voxel, the first bit of a block with keys k
// that has each voxel's key: the key voxel of each voxel's vertex
// (meaningless for background voxels).
template <typename K> static __device__ __forceinline__ unsigned int vfirsts(const K (&k)[8])
{
  unsigned int f = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    int first = i;
#pragma unroll
    for (int e = i - 1; e >= 0; e--)
      if (k[e] == k[i]) first = e;
    f |= (unsigned int)first << (3 * i);
  }
  return f;
}

// vmatches returns bit 8i + j for every voxel i of block a (keys ka) on
// its side sa and voxel j of its neighbour b (keys kb) on the facing side
// sb with the same key.
template <typename K>
static __device__ __forceinline__ unsigned long long vmatches(const K (&ka)[8], const K (&kb)[8], const unsigned int sa,
                                                              const unsigned int sb)
{
  unsigned long long r = 0;
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++)
      if (((sa >> i) & (sb >> j) & 1u) != 0u && ka[i] != 0 && ka[i] == kb[j]) r |= 1ull << (8 * i + j);
  return r;
}

// VMatch is how a block a joins its neighbour b, neither complex: j0 is
// b's vertex (0 its first, 1 its second) that a's first vertex joins, j1
// the one a's second vertex joins, -1 for none. sa is a's side towards b,
// sb b's side towards a.
struct VMatch {
  int j0, j1;
};

template <typename K>
static __device__ __forceinline__ VMatch vmatch(const VDesc<K>& a, const VDesc<K>& b, const unsigned int sa, const unsigned int sb)
{
  const bool a1 = (a.m & ~a.m2 & sa) != 0u, a2 = (a.m & a.m2 & sa) != 0u;
  const bool b1 = (b.m & ~b.m2 & sb) != 0u, b2 = (b.m & b.m2 & sb) != 0u;
  VMatch r;
  r.j0 = !a1 ? -1 : b1 && a.v == b.v ? 0 : b2 && a.v == b.v2 ? 1 : -1;
  r.j1 = !a2 ? -1 : b1 && a.v2 == b.v ? 0 : b2 && a.v2 == b.v2 ? 1 : -1;
  return r;
}

// vkeybit is the first bit of a two-value block's second vertex (j = 1)
// or of its first (j = 0).
template <typename K> static __device__ __forceinline__ int vkeybit(const VDesc<K>& d, const int j)
{
  return __ffs(j == 0 ? d.m : d.m2) - 1;
}

// VKeys is the shared-memory pair (v, v2) of a block's keys, one load.
template <typename K> struct VKeys;
template <> struct VKeys<unsigned char> { typedef uchar2 type; };
template <> struct VKeys<unsigned short> { typedef ushort2 type; };
template <> struct VKeys<unsigned int> { typedef uint2 type; };

// vloaddesc reads tile block l's descriptor from shared memory.
template <typename K>
static __device__ __forceinline__ VDesc<K> vloaddesc(const unsigned short* const sm, const typename VKeys<K>::type* const svv,
                                                     const int l)
{
  VDesc<K> d;
  const unsigned int info = sm[l];
  d.m = info & 0xffu;
  d.m2 = info >> 8;
  const typename VKeys<K>::type v = svv[l];
  d.v = v.x;
  d.v2 = v.y;
  return d;
}

// vspread spreads the low 16 bits of x to the even bits.
static __device__ __forceinline__ unsigned int vspread(unsigned int x)
{
  x &= 0xffffu;
  x = (x | (x << 8)) & 0x00ff00ffu;
  x = (x | (x << 4)) & 0x0f0f0f0fu;
  x = (x | (x << 2)) & 0x33333333u;
  x = (x | (x << 1)) & 0x55555555u;
  return x;
}

template <typename T>
static __device__ void vblocks_local(const T* const __restrict__ in, int* const __restrict__ parent,
                                     unsigned int* const __restrict__ masks, const GridShape s)
{
  typedef typename TKey<T>::type K;
  using Tile = BTile<VB_TY, VB_TZ>;
  __shared__ int lp[VSX * VSY * VSZ];
  __shared__ unsigned short sm[Tile::size]; // m | m2 << 8
  __shared__ typename VKeys<K>::type svv[Tile::size];
  static_assert(13 * Tile::perThread <= 64, "pending holds a bit per block and offset");
  const int bw = (s.w + 1) / 2, bh = (s.h + 1) / 2, bd = (s.d + 1) / 2;
  const int tilesX = (bw + BTX - 1) / BTX, tilesY = (bh + VB_TY - 1) / VB_TY;
  const int t = blockIdx.x;
  const int bx0 = (t % tilesX) * BTX, by0 = ((t / tilesX) % tilesY) * VB_TY, bz0 = (t / tilesX / tilesY) * VB_TZ;
  const int tx = threadIdx.x % BTX, row0 = threadIdx.x / BTX; // a warp is a row of the tile
  // Descriptors, and each row cut into runs of joined one-value blocks
  // (ballots): the key of every block of a run points at the run's
  // smallest key. The other vertices of a block start as their own trees.
#pragma unroll 1
  for (int k = 0; k < Tile::perThread; k++) {
    const BSlot b = btileslot<VB_TY>(k, tx, row0);
    const int l = b.l, ty = b.ty, tz = b.tz;
    const int bx = bx0 + tx, by = by0 + ty, bz = bz0 + tz;
    K keys[8];
    if (bx < bw && by < bh && bz < bd) {
      vkeys(in, bx, by, bz, s, keys);
    } else {
#pragma unroll
      for (int i = 0; i < 8; i++) keys[i] = 0;
    }
    const VDesc<K> d = vdesc(keys);
    const unsigned int info = d.m | (d.m2 << 8);
    sm[l] = (unsigned short)info;
    svv[l].x = d.v;
    svv[l].y = d.v2;
    const int base = vbase(tx, ty, tz);
    const int ks = d.m != 0 ? base + vslot(__ffs(d.m) - 1) : 0x7fffffff;
    const unsigned int linfo = __shfl_up_sync(0xffffffffu, info, 1);
    const K lv = (K)__shfl_up_sync(0xffffffffu, (unsigned int)d.v, 1);
    const bool joinsLeft = tx > 0 && ((info | linfo) & 0xff00u) == 0u && lv == d.v && (info & bside(-1, 0, 0)) != 0u &&
                           (linfo & bside(1, 0, 0)) != 0u;
    const unsigned int starts = __ballot_sync(0xffffffffu, !joinsLeft);
    const unsigned int upto = 0xffffffffu >> (31 - tx); // lanes 0..tx
    const int rs = 31 - __clz(starts & upto), after = (int)(starts & ~upto);
    const int re = after != 0 ? __ffs(after) - 2 : 31;
    int least = ks; // segmented min of the run's keys, read at its last lane
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const int other = __shfl_up_sync(0xffffffffu, least, o);
      if (tx - o >= rs) least = min(least, other);
    }
    least = __shfl_sync(0xffffffffu, least, re);
    if (d.m != 0) lp[ks] = least;
    if (d.m2 == VB_COMPLEX) {
      const unsigned int firsts = vfirsts(keys);
#pragma unroll 1
      for (int i = 0; i < 8; i++)
        if (((d.m >> i) & 1u) != 0u && ((firsts >> (3 * i)) & 7u) == (unsigned int)i) lp[base + vslot(i)] = base + vslot(i);
    } else if (d.m2 != 0) {
      const int k2 = base + vslot(__ffs(d.m2) - 1);
      lp[k2] = k2;
    }
  }
  __syncthreads();
  // The in-tile backward neighbours, o = 0: (-1, 0, 0); 1..3: (dx, -1, 0);
  // 4..12: (dx, dy, -1). A pair with a complex block is only noted here
  // (bit 13k + o of pending) and joined key by key after the loop: its
  // code and registers stay out of the loop that every block runs.
  unsigned long long pending = 0;
#pragma unroll 1
  for (int k = 0; k < Tile::perThread; k++) {
    const BSlot b = btileslot<VB_TY>(k, tx, row0);
    const int l = b.l, ty = b.ty, tz = b.tz;
    const VDesc<K> d = vloaddesc<K>(sm, svv, l);
    const int base = vbase(tx, ty, tz);
    const int ks = d.m != 0 ? base + vslot(__ffs(d.m) - 1) : 0;
    int la = -1, lc = -1; // the last pair of trees joined: the next offset of a row often meets the same run
  VB_UNROLL_BY(VB_UNROLL)
    for (int o = 0; o < 13; o++) {
      const int dz = o < 4 ? 0 : -1, dy = o == 0 ? 0 : o < 4 ? -1 : (o - 4) / 3 - 1, dx = o == 0 ? -1 : o < 4 ? o - 2 : (o - 4) % 3 - 1;
      const bool inside = tx + dx >= 0 && tx + dx < BTX && ty + dy >= 0 && ty + dy < VB_TY && tz + dz >= 0;
      const int ln = l + dx + BTX * (dy + VB_TY * dz);
      const VDesc<K> n = inside ? vloaddesc<K>(sm, svv, ln) : vnone<K>();
      const unsigned int sa = bside(dx, dy, dz), sb = bside(-dx, -dy, -dz);
      const int nbase = base + 2 * dx + VSX * (2 * dy + VSY * 2 * dz);
      const bool many = d.m2 == VB_COMPLEX || n.m2 == VB_COMPLEX;
      VMatch r = vmatch(d, n, sa, sb);
      if (many || (o == 0 && d.m2 == 0 && n.m2 == 0)) r.j0 = r.j1 = -1; // one-value pairs along x: runs
      const bool joined = r.j0 >= 0;
      const int a = joined ? lp[ks] : -1, c = joined ? lp[nbase + vslot(vkeybit(n, r.j0))] : -1;
      if (!bsamepair(joined, a, c) && joined && (a != la || c != lc)) lunion(lp, a, c);
      if (joined) {
        la = a;
        lc = c;
      }
      if (r.j1 >= 0) lunion(lp, base + vslot(vkeybit(d, 1)), nbase + vslot(vkeybit(n, r.j1)));
      if (many && (d.m & sa) != 0u && (n.m & sb) != 0u) pending |= 1ull << (13 * k + o);
    }
  }
  // The pairs with a complex block, key by key from the input (rare).
#pragma unroll 1
  while (pending != 0ull) {
    const int bit = __ffsll((long long)pending) - 1, k = bit / 13, o = bit % 13;
    pending &= pending - 1;
    const BSlot b = btileslot<VB_TY>(k, tx, row0);
    const int ty = b.ty, tz = b.tz;
    const int dz = o < 4 ? 0 : -1, dy = o == 0 ? 0 : o < 4 ? -1 : (o - 4) / 3 - 1, dx = o == 0 ? -1 : o < 4 ? o - 2 : (o - 4) % 3 - 1;
    const int base = vbase(tx, ty, tz), nbase = base + 2 * dx + VSX * (2 * dy + VSY * 2 * dz);
    K ka[8], kb[8];
    vkeys(in, bx0 + tx, by0 + ty, bz0 + tz, s, ka);
    vkeys(in, bx0 + tx + dx, by0 + ty + dy, bz0 + tz + dz, s, kb);
    const unsigned int fa = vfirsts(ka), fb = vfirsts(kb);
    unsigned long long pairs = vmatches(ka, kb, bside(dx, dy, dz), bside(-dx, -dy, -dz));
#pragma unroll 1
    while (pairs != 0ull) {
      const int pb = __ffsll((long long)pairs) - 1, i = pb >> 3, j = pb & 7;
      pairs &= ~(0xffull << (8 * i)); // one neighbour voxel per voxel
      lunion(lp, base + vslot((fa >> (3 * i)) & 7u), nbase + vslot((fb >> (3 * j)) & 7u));
    }
  }
  __syncthreads();
  // Every voxel's parent is the grid index of its tile-local root (the
  // trees no longer change: other threads' path halving keeps the roots);
  // the roots' bits go to masks, a word per 32 voxels of a grid row.
  const int ox = 2 * bx0, oy = 2 * by0, oz = 2 * bz0;
#pragma unroll 1
  for (int k = 0; k < Tile::perThread; k++) {
    const BSlot b = btileslot<VB_TY>(k, tx, row0);
    const int ty = b.ty, tz = b.tz;
    const int bx = bx0 + tx, by = by0 + ty, bz = bz0 + tz;
    const unsigned int info = sm[b.l], m = info & 0xffu, m2 = info >> 8;
    const int base = vbase(tx, ty, tz);
    const bool in3 = bx < bw && by < bh && bz < bd;
    int g = -1, g2 = -1;
    unsigned int roots = 0;
    if (m != 0 && m2 != VB_COMPLEX) {
      const int f = __ffs(m) - 1, root = lfind(lp, base + vslot(f));
      g = vglobal(root, ox, oy, oz, s);
      if (root == base + vslot(f)) roots = 1u << f;
      if (m2 != 0) {
        const int f2 = __ffs(m2) - 1, root2 = lfind(lp, base + vslot(f2));
        g2 = vglobal(root2, ox, oy, oz, s);
        if (root2 == base + vslot(f2)) roots |= 1u << f2;
      }
    } else if (m != 0) { // complex: voxel by voxel, parents written here
      K keys[8];
      vkeys(in, bx, by, bz, s, keys);
      const unsigned int firsts = vfirsts(keys);
#pragma unroll 1
      for (int i = 0; i < 8; i++) {
        const int x = 2 * bx + (i & 1), y = 2 * by + ((i >> 1) & 1), z = 2 * bz + (i >> 2);
        if (x >= s.w || y >= s.h || z >= s.d) continue;
        int rep = -1;
        if ((m >> i) & 1u) {
          const int f = (firsts >> (3 * i)) & 7u, root = lfind(lp, base + vslot(f));
          rep = vglobal(root, ox, oy, oz, s);
          if (f == i && root == base + vslot(i)) roots |= 1u << i;
        }
        parent[vindex(i, bx, by, bz, s)] = rep;
      }
    }
#pragma unroll
    for (int r = 0; r < 4; r++) {
      const int y = 2 * by + (r & 1), z = 2 * bz + (r >> 1), x = 2 * bx;
      const bool row = y < s.h && z < s.d; // warp-uniform
      if (in3 && row && m2 != VB_COMPLEX) {
        const long long at = ((long long)z * s.h + y) * s.w + x;
        const int left = (m >> (2 * r)) & 1u ? (m2 >> (2 * r)) & 1u ? g2 : g : -1;
        const int right = (m >> (2 * r + 1)) & 1u ? (m2 >> (2 * r + 1)) & 1u ? g2 : g : -1;
        if ((s.w & 1) == 0) {
          *reinterpret_cast<int2*>(parent + at) = make_int2(left, right);
        } else {
          parent[at] = left;
          if (x + 1 < s.w) parent[at + 1] = right;
        }
      }
      const unsigned int even = __ballot_sync(0xffffffffu, (roots >> (2 * r)) & 1u);
      const unsigned int odd = __ballot_sync(0xffffffffu, (roots >> (2 * r + 1)) & 1u);
      if (tx < 2 && row && (even | odd) != 0u) {
        const int x0 = ox + 32 * tx;
        const unsigned int bits = vspread(even >> (16 * tx)) | (vspread(odd >> (16 * tx)) << 1);
        if (x0 < s.w && bits != 0u) {
          const long long first = ((long long)z * s.h + y) * s.w + x0;
          if ((s.w & 31) == 0) {
            masks[first >> 5] = bits;
          } else { // the 32 voxels may straddle two words
            const int off = (int)(first & 31);
            atomicOr(&masks[first >> 5], bits << off);
            if (off != 0 && (bits >> (32 - off)) != 0u) atomicOr(&masks[(first >> 5) + 1], bits >> (32 - off));
          }
        }
      }
    }
  }
}

// vpair hooks block (bx, by, bz) (descriptor d, its first vertex's tree
// own) to its neighbour at (dx, dy, dz) (descriptor n, its first vertex's
// tree other; mask 0 when the pair is not this lane's), neither complex.
// For the first vertex, a lane whose pair of trees is the previous lane's
// leaves it to that lane. It reports whether the pair has a complex block
// with voxels on the facing sides: the caller joins it with vcomplexpair.
// All lanes must call it.
template <typename K>
static __device__ __forceinline__ bool vpair(int* const __restrict__ parent, const GridShape& s, const int dx, const int dy,
                                             const int dz, const int bx, const int by, const int bz, const VDesc<K>& d,
                                             const int own, const VDesc<K>& n, const int other)
{
  const int nx = bx + dx, ny = by + dy, nz = bz + dz;
  const unsigned int sa = bside(dx, dy, dz), sb = bside(-dx, -dy, -dz);
  const bool many = d.m2 == VB_COMPLEX || n.m2 == VB_COMPLEX;
  VMatch r = vmatch(d, n, sa, sb);
  if (many) r.j0 = r.j1 = -1;
  const bool joined = r.j0 >= 0;
  const int a = joined ? own : -1;
  const int c = !joined ? -1 : r.j0 == 0 ? other : parent[vindex(vkeybit(n, 1), nx, ny, nz, s)];
  if (!bsamepair(joined, a, c) && joined) ghook(parent, a, c);
  if (r.j1 >= 0)
    ghook(parent, parent[vindex(vkeybit(d, 1), bx, by, bz, s)], r.j1 == 0 ? other : parent[vindex(vkeybit(n, 1), nx, ny, nz, s)]);
  return many && (d.m & sa) != 0u && (n.m & sb) != 0u;
}

// vcomplexpair hooks block (bx, by, bz) to its neighbour at (dx, dy, dz),
// one of them complex, key by key from the input (rare).
template <typename T, typename K>
static __device__ __forceinline__ void vcomplexpair(const T* const __restrict__ in, int* const __restrict__ parent,
                                                    const GridShape& s, const int dx, const int dy, const int dz, const int bx,
                                                    const int by, const int bz)
{
  const int nx = bx + dx, ny = by + dy, nz = bz + dz;
  K ka[8], kb[8];
  vkeys(in, bx, by, bz, s, ka);
  vkeys(in, nx, ny, nz, s, kb);
  unsigned long long pairs = vmatches(ka, kb, bside(dx, dy, dz), bside(-dx, -dy, -dz));
#pragma unroll 1
  while (pairs != 0ull) {
    const int bit = __ffsll((long long)pairs) - 1, i = bit >> 3, j = bit & 7;
    pairs &= ~(0xffull << (8 * i)); // one neighbour voxel per voxel
    ghook(parent, parent[vindex(i, bx, by, bz, s)], parent[vindex(j, nx, ny, nz, s)]);
  }
}

// vtask is the offset of border task q: row warps 3g + t, row g at
// (dy, dz) = (-1, 0), (-1, -1), (0, -1), (1, -1) and dx = t - 1; column
// warps 0..8, the neighbours at dx = -1 (from tx = 0) or 1 (from
// tx = BTX - 1).
static __device__ __forceinline__ void vtask(const bool column, const int q, int& dx, int& dy, int& dz)
{
  if (!column) {
    const int g = q / 3;
    dy = g == 0 ? -1 : g - 2;
    dz = g == 0 ? 0 : -1;
    dx = q % 3 - 1;
  } else {
    dx = q < 3 ? (q == 0 ? -1 : 2 * q - 3) : ((q - 3) & 1 ? 1 : -1);
    dy = q == 0 ? 0 : q < 3 ? -1 : (q - 3) / 2 - 1;
    dz = q < 3 ? 0 : -1;
  }
}

// vblocks_border hooks the pairs of blocks that cross tile faces. Row
// warps (lanes along x) take the rows of the tile on its faces towards
// earlier y and z tiles and the pairs that leave the tile in y or z only:
// each lane reads the block beside it in each outside row once, its left
// and right neighbours' come from the next lanes. Column warps (lanes
// along y, then z) take the tile's first and last x columns and the pairs
// that leave it in x.
template <typename T>
static __device__ void vblocks_border(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape s)
{
  typedef typename TKey<T>::type K;
  using Border = BBorder<VB_TY, VB_TZ, true>;
  const int bw = (s.w + 1) / 2, bh = (s.h + 1) / 2, bd = (s.d + 1) / 2;
  const int tilesX = (bw + BTX - 1) / BTX, tilesY = (bh + VB_TY - 1) / VB_TY;
  const int t = blockIdx.x;
  const int bx0 = (t % tilesX) * BTX, by0 = ((t / tilesX) % tilesY) * VB_TY, bz0 = (t / tilesX / tilesY) * VB_TZ;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool column = warp >= Border::rowWarps;
  int tx, ty, tz;
  if (!column) {
    tx = lane;
    if (warp < VB_TY) {
      ty = warp;
      tz = 0;
    } else {
      const int r = warp - VB_TY;
      tz = 1 + r / 2;
      ty = r % 2 ? VB_TY - 1 : 0;
    }
  } else {
    const int c = warp - Border::rowWarps, half = Border::columnWarps / 2;
    tx = c < half ? 0 : BTX - 1;
    const int j = (c % half) * 32 + lane;
    ty = j % VB_TY;
    tz = j / VB_TY; // j >= VB_TY * VB_TZ: no block
  }
  const int bx = bx0 + tx, by = by0 + ty, bz = bz0 + tz;
  const bool valid = bx < bw && by < bh && bz < bd && tz < VB_TZ;
  VDesc<K> d = vnone<K>();
  if (valid) {
    K keys[8];
    vkeys(in, bx, by, bz, s, keys);
    d = vdesc(keys);
  }
  const int own = d.m != 0 ? parent[vindex(__ffs(d.m) - 1, bx, by, bz, s)] : -1;
  // Tasks (vtask): a pair with a complex block is noted in pending (bit
  // q) and hooked after the loop, out of the loop's code and registers.
  VDesc<K> nl = vnone<K>(), nc = vnone<K>(), nr = vnone<K>();
  int ol = -1, oc = -1, orr = -1;
  unsigned int pending = 0;
  const int tasks = column ? 9 : 12;
#pragma unroll 1
  for (int q = 0; q < tasks; q++) {
    int dx, dy, dz;
    vtask(column, q, dx, dy, dz);
    VDesc<K> n = vnone<K>();
    int other = -1;
    if (!column) { // warp-uniform
      if (ty + dy >= 0 && ty + dy < VB_TY && tz + dz >= 0) continue; // inside the tile: joined already
      if (dx == -1) { // the row's blocks, once
        const int ny = by + dy, nz = bz + dz;
        nc = vnone<K>();
        if (bx < bw && ny >= 0 && ny < bh && nz >= 0) {
          K keys[8];
          vkeys(in, bx, ny, nz, s, keys);
          nc = vdesc(keys);
        }
        oc = nc.m != 0 ? parent[vindex(__ffs(nc.m) - 1, bx, ny, nz, s)] : -1;
        const unsigned int info = nc.m | (nc.m2 << 8);
        const unsigned int il = __shfl_up_sync(0xffffffffu, info, 1), ir = __shfl_down_sync(0xffffffffu, info, 1);
        nl.m = lane > 0 ? il & 0xffu : 0u;
        nl.m2 = lane > 0 ? il >> 8 : 0u;
        nr.m = lane < 31 ? ir & 0xffu : 0u;
        nr.m2 = lane < 31 ? ir >> 8 : 0u;
        nl.v = (K)__shfl_up_sync(0xffffffffu, (unsigned int)nc.v, 1);
        nr.v = (K)__shfl_down_sync(0xffffffffu, (unsigned int)nc.v, 1);
        nl.v2 = (K)__shfl_up_sync(0xffffffffu, (unsigned int)nc.v2, 1);
        nr.v2 = (K)__shfl_down_sync(0xffffffffu, (unsigned int)nc.v2, 1);
        ol = __shfl_up_sync(0xffffffffu, oc, 1);
        orr = __shfl_down_sync(0xffffffffu, oc, 1);
      }
      n = dx < 0 ? nl : dx == 0 ? nc : nr;
      other = dx < 0 ? ol : dx == 0 ? oc : orr;
    } else {
      const int nx = bx + dx, ny = by + dy, nz = bz + dz;
      if ((d.m & bside(dx, dy, dz)) != 0u && !(tx + dx >= 0 && tx + dx < BTX) && nx >= 0 && nx < bw && ny >= 0 && ny < bh &&
          nz >= 0) {
        K keys[8];
        vkeys(in, nx, ny, nz, s, keys);
        n = vdesc(keys);
        if (n.m != 0) other = parent[vindex(__ffs(n.m) - 1, nx, ny, nz, s)];
      }
    }
    if (vpair<K>(parent, s, dx, dy, dz, bx, by, bz, d, own, n, other)) pending |= 1u << q;
  }
#pragma unroll 1
  while (pending != 0u) {
    const int q = __ffs(pending) - 1;
    pending &= pending - 1;
    int dx, dy, dz;
    vtask(column, q, dx, dy, dz);
    vcomplexpair<T, K>(in, parent, s, dx, dy, dz, bx, by, bz);
  }
}

// Tiles of 32x8x4 blocks (64x16x8 voxels).
#define VBLOCKS_TYPE(suffix, T)                                                                                             \
  extern "C" __global__ void __launch_bounds__(256, VB_MIN_CTAS) vblocks_local_##suffix(                                   \
      const T* const __restrict__ in, int* const __restrict__ parent, unsigned int* const __restrict__ masks,               \
      const GridShape s)                                                                                                    \
  {                                                                                                                         \
    vblocks_local<T>(in, parent, masks, s);                                                                                 \
  }                                                                                                                         \
  extern "C" __global__ void __launch_bounds__(BBorder<VB_TY, VB_TZ, true>::threads, VB_BORDER_CTAS)                       \
      vblocks_border_##suffix(const T* const __restrict__ in, int* const __restrict__ parent, const GridShape s)           \
  {                                                                                                                         \
    vblocks_border<T>(in, parent, s);                                                                                       \
  }
VBLOCKS_TYPE(u8, unsigned char)
VBLOCKS_TYPE(u16, unsigned short)
VBLOCKS_TYPE(i16, short)
VBLOCKS_TYPE(u32, unsigned int)
VBLOCKS_TYPE(i32, int)
VBLOCKS_TYPE(f32, float)
