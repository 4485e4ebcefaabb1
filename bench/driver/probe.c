// Times the CUDA driver's start and a process's exit, for docs/benchmarks.md
// ("The GPU's start and exit"). Build on a GPU host:
//   gcc -O2 probe.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda -lpthread -o probe
// Modes: probe (prints each start step) | pair | pair-concurrent (two GPUs) |
// hold init|ctx|ctxfree SECS |
// exit plain|release|handoff|release+handoff (prints the time it ends, for
// probe.py to take the exit's latency). FATBIN=path loads a module.
#define _GNU_SOURCE
#include <cuda.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/stat.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
#define CK(x) do { CUresult r_ = (x); if (r_) { fprintf(stderr, "%s: %d\n", #x, r_); exit(1); } } while (0)

static void *readfile(const char *p) {
  FILE *f = fopen(p, "rb"); if (!f) { perror(p); exit(1); }
  fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  void *b = malloc(n); if (fread(b, 1, n, f) != (size_t)n) exit(1); fclose(f); return b;
}

static CUcontext ctx; static CUmodule mod; static CUdevice dev;
static void start(int verbose, const char *fatbin, size_t devbytes) {
  double t0 = now(); CK(cuInit(0)); double t1 = now();
  CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx)); double t2 = now();
  void *img = fatbin ? readfile(fatbin) : NULL; double t3 = now();
  if (img) CK(cuModuleLoadData(&mod, img)); double t4 = now();
  void *h[2]; for (int i = 0; i < 2; i++) CK(cuMemHostAlloc(&h[i], 32 << 20, 0)); double t5 = now();
  CUdeviceptr d = 0; if (devbytes) { CK(cuMemAlloc(&d, devbytes)); CK(cuMemsetD8(d, 0, devbytes)); CK(cuCtxSynchronize()); } double t6 = now();
  if (verbose) printf("init %.4f ctx %.4f module %.4f pinned %.4f devalloc %.4f\n", t1 - t0, t2 - t1, t4 - t3, t5 - t4, t6 - t5);
}

// opens one device as the CLI does (primary context, module, two pinned
// buffers) and releases it; pair runs it for two devices in turn and
// concurrently.
static const char *pairFat;
static void *openDevice(void *arg) {
  CUdevice d; CUcontext c; CUmodule m = 0; void *h[2];
  CK(cuDeviceGet(&d, (int)(long)arg)); CK(cuDevicePrimaryCtxRetain(&c, d)); CK(cuCtxSetCurrent(c));
  if (pairFat) CK(cuModuleLoadData(&m, readfile(pairFat)));
  for (int i = 0; i < 2; i++) CK(cuMemHostAlloc(&h[i], 32 << 20, 0));
  return NULL;
}
static void pair(void) {
  pairFat = getenv("FATBIN");
  double t0 = now(); CK(cuInit(0)); double t1 = now();
  openDevice((void *)0L); double t2 = now(); openDevice((void *)1L); double t3 = now();
  printf("init %.4f in turn: dev0 %.4f dev1 %.4f\n", t1 - t0, t2 - t1, t3 - t2);
}
static void pairConcurrent(void) {
  pairFat = getenv("FATBIN");
  double t0 = now(); CK(cuInit(0)); double t1 = now();
  pthread_t th[2]; for (long i = 0; i < 2; i++) pthread_create(&th[i], NULL, openDevice, (void *)i);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  printf("init %.4f concurrently: both %.4f\n", t1 - t0, now() - t1);
}

// nvfds clears FD_CLOEXEC on the /dev/nvidia* descriptors and counts them.
static int nvfds(void) {
  DIR *d = opendir("/proc/self/fd"); struct dirent *e; int n = 0; char p[64], l[256];
  while ((e = readdir(d))) {
    int fd = atoi(e->d_name); if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "/proc/self/fd/%d", fd); ssize_t k = readlink(p, l, sizeof l - 1); if (k < 0) continue; l[k] = 0;
    if (!strncmp(l, "/dev/nvidia", 11)) { fcntl(fd, F_SETFD, 0); n++; }
  }
  closedir(d); return n;
}

int main(int argc, char **argv) {
  const char *fat = getenv("FATBIN");
  if (!strcmp(argv[1], "probe")) { start(1, fat, 0); fflush(stdout); return 0; }
  if (!strcmp(argv[1], "pair")) { pair(); return 0; }
  if (!strcmp(argv[1], "pair-concurrent")) { pairConcurrent(); return 0; }
  if (!strcmp(argv[1], "hold")) {  // hold init|ctx|ctxfree SECS
    if (!strcmp(argv[2], "init")) CK(cuInit(0));
    else { start(0, NULL, 0); if (!strcmp(argv[2], "ctxfree")) CK(cuDevicePrimaryCtxRelease(dev)); }
    printf("ready\n"); fflush(stdout); sleep(atoi(argv[3])); return 0;
  }
  // exit VARIANT: plain | release | handoff | release+handoff
  start(0, fat, (size_t)1 << 30);
  const char *v = argv[2]; double tr = 0;
  if (strstr(v, "release")) { double a = now(); if (mod) CK(cuModuleUnload(mod)); CK(cuDevicePrimaryCtxRelease(dev)); tr = now() - a; }
  if (strstr(v, "handoff")) {
    int n = nvfds();
    pid_t p = fork();
    if (p == 0) { setsid(); int z = open("/dev/null", O_RDWR); dup2(z, 0); dup2(z, 1); dup2(z, 2); execl("/bin/sleep", "sleep", "1", (char *)0); _exit(1); }
    fprintf(stderr, "handed %d fds\n", n);
  }
  printf("release %.4f end %.6f\n", tr, now()); fflush(stdout);
  return 0;
}
