/* cclabel.h: the C ABI of libcclabel.so (go build -buildmode=c-shared ./capi).
 *
 * Every function but ccl_abi_version returns a status code: CCL_OK (0) or one
 * of the CCL_E* codes below, and on failure writes a NUL-terminated message,
 * truncated to fit, into err (errlen bytes; err may be NULL).
 *
 * Arrays are the caller's memory, read and written during the call only: the
 * library keeps no pointer after a call returns. Arrays of 1 to 3 axes are
 * described by ndim, shape[ndim] and strides[ndim] (in bytes, NumPy's
 * convention) and must be C or Fortran contiguous; they are read in place,
 * never copied (a background other than 0 excepted, see ccl_label). Labels
 * are 0 for background and 1..count by first occurrence in memory order, and
 * an output array has the input's shape and memory order.
 *
 * The library installs no handler for asynchronous signals (SIGINT stays the
 * host's; the Go runtime handles synchronous signals, SIGPIPE and SIGURG only,
 * forwarding those it did not cause). It must not be used in a child forked after it was loaded.
 * docs/python.md describes the contract in full.
 */
#ifndef CCLABEL_H
#define CCLABEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
enum {
	CCL_OK = 0,
	CCL_EINVAL = 1,    /* an argument is not valid (shape, strides, rule, options) */
	CCL_ETYPE = 2,     /* an unsupported dtype */
	CCL_ETOOLARGE = 3, /* sizes past the library's limits, or memory exhausted */
	CCL_ERANGE = 4,    /* a result does not fit the caller's output (dtype or room) */
	CCL_EDEVICE = 5,   /* the GPU backend failed or is not usable */
	CCL_EINTERNAL = 6  /* any other failure */
};

/* dtype codes. */
enum {
	CCL_BOOL = 1, CCL_UINT8 = 2, CCL_UINT16 = 3, CCL_UINT32 = 4, CCL_UINT64 = 5,
	CCL_INT8 = 6, CCL_INT16 = 7, CCL_INT32 = 8, CCL_INT64 = 9,
	CCL_FLOAT32 = 10, CCL_FLOAT64 = 11
};

/* Rules: equal nonzero values connect; any nonzero value is foreground;
 * values >= threshold are foreground (below it with invert). */
enum { CCL_MULTILABEL = 0, CCL_BINARY = 1, CCL_THRESHOLD = 2 };

/* Label orders: first occurrence in memory order; decreasing size, ties by
 * first occurrence. */
enum { CCL_ORDER_FIRST = 0, CCL_ORDER_SIZE = 1 };

/* Backends. */
enum { CCL_BACKEND_AUTO = 0, CCL_BACKEND_GPU = 1, CCL_BACKEND_CPU = 2, CCL_BACKEND_SERIAL = 3 };

/* ccl_abi_version returns the version of this ABI (1). */
int ccl_abi_version(void);

/* ccl_label labels data (dtype, shape, strides) into out (out_dtype:
 * CCL_UINT16, CCL_UINT32, CCL_UINT64, CCL_INT32 or CCL_INT64; same shape and
 * memory order, contiguous) and writes the component count into *count.
 * connectivity: 0 for the full one (8 in 2D, 26 in 3D), else 4 or 8 (2D;
 * 2 too for 1D), 6, 18 or 26 (3D; an array of one plane is labeled in 2D, 6
 * as 4, 18 and 26 as 8). background != 0 needs CCL_MULTILABEL and labels a
 * copy of data with background and 0 exchanged. threads 0 means all cores.
 * min_size > 1 drops components of fewer elements, largest > 0 keeps the
 * largest that many (ties to the first), the kept ones numbered by first
 * occurrence before any CCL_ORDER_SIZE. CCL_ERANGE when count does not fit
 * out_dtype. */
int ccl_label(const void *data, int dtype, int ndim, const int64_t *shape, const int64_t *strides,
              void *out, int out_dtype,
              int mode, double threshold, int invert, double background,
              int connectivity, int order, int backend, int threads,
              int64_t min_size, int64_t largest,
              int64_t *count, char *err, size_t errlen);

/* ccl_statistics measures the components 1..count of labels (CCL_UINT16 or
 * CCL_UINT32) into ints (count rows of 1+2*ndim: size, min[ndim],
 * max[ndim]) and floats (count rows of 2*ndim+7: centroid[ndim],
 * eq_diameter, sum, mean, min, max, std, surface, weighted centroid[ndim]),
 * coordinates in array axis order. intensity (NULL for none) has the labels'
 * shape and memory order, its own dtype and strides. spacing is ndim values
 * in axis order, or NULL for 1. surface != 0 measures the surface (the
 * perimeter in 2D; a 1D array is an image of one row). CCL_EINVAL for a
 * label above count. */
int ccl_statistics(const void *labels, int dtype, int ndim, const int64_t *shape, const int64_t *strides,
                   int64_t count, const void *intensity, int intensity_dtype, const int64_t *intensity_strides,
                   const double *spacing, int surface, int threads,
                   int64_t *ints, double *floats, char *err, size_t errlen);

/* ccl_contacts writes the pairs of components of labels that share a face
 * (6-neighbours in 3D, 4 in 2D) into pairs (capacity rows of a < b), faces
 * and areas (weighed by spacing), ordered by a then b, and their number into
 * *n. CCL_ERANGE, *n set, when capacity is too small. */
int ccl_contacts(const void *labels, int dtype, int ndim, const int64_t *shape, const int64_t *strides,
                 int64_t count, const double *spacing, int threads,
                 uint32_t *pairs, int64_t *faces, double *areas, int64_t capacity, int64_t *n,
                 char *err, size_t errlen);

/* ccl_graph_components labels the components of the graph of an n x n CSR
 * matrix (indptr[n+1], indices[nnz], index_dtype CCL_INT32 or CCL_INT64), its
 * entries taken as undirected edges, into labels[n]: 0..count-1 numbered by
 * each component's smallest vertex (scipy's connected_components numbering). */
int ccl_graph_components(int64_t n, const void *indptr, const void *indices, int index_dtype, int64_t nnz,
                         int backend, int threads, int32_t *labels, int64_t *count,
                         char *err, size_t errlen);

/* ccl_devices writes the GPU status as JSON into buf (n bytes,
 * NUL-terminated) and its length into *needed; CCL_ERANGE when n is too
 * small. */
int ccl_devices(char *buf, size_t n, size_t *needed, char *err, size_t errlen);

/* ccl_label_device labels a CUDA array where it lives: data (a device
 * address; dtype, shape, byte strides, C or Fortran contiguous) into out, a
 * device array of the same shape and memory order (out_dtype CCL_UINT32,
 * CCL_INT32 or CCL_UINT16), on the GPU that owns data, in its primary
 * context. It waits for stream (a CUstream; 0 synchronizes the context, 1
 * is the legacy default stream, 2 the per-thread one) before it reads data,
 * and returns once out is written. mode, threshold, invert and connectivity
 * are ccl_label's. CCL_ERANGE: more components than uint16 holds. */
int ccl_label_device(uintptr_t data, int dtype, int ndim, const int64_t *shape, const int64_t *strides,
                     uintptr_t out, int out_dtype, int mode, double threshold, int invert, int connectivity,
                     uintptr_t stream, int64_t *count, char *err, size_t errlen);

/* ccl_device_release closes the labelers the library keeps between calls
 * (of ccl_label_device, ccl_label and ccl_graph_components): their GPU
 * contexts and scratch memory are freed. A later call opens them again. */
int ccl_device_release(char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CCLABEL_H */
