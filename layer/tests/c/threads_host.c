/* Threads of one application loading the same SPIR 1.2 binary at once, as a program that
 * builds its kernels on worker threads does: each thread creates the program with
 * clCreateProgramWithBinary, builds it with "-x spir -spir-std=1.2", runs vector_add on its
 * own queue and compares with the sum computed here. Exit 0 when every thread matches. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64
#define THREADS 8

static cl_context ctx;
static cl_device_id device;
static unsigned char *bin;
static size_t len;

static intptr_t fail(int t, const char *what, cl_int status) {
    fprintf(stderr, "threads_host: thread %d: %s (CL status %d)\n", t, what, status);
    return 1;
}

static void *work(void *arg) {
    int t = (int)(intptr_t)arg;
    cl_int st;
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &st);
    if (st) return (void *)fail(t, "clCreateCommandQueue", st);
    const unsigned char *bins[1] = {bin};
    cl_int bin_status = 1;
    cl_program prog = clCreateProgramWithBinary(ctx, 1, &device, &len, bins, &bin_status, &st);
    if (st || bin_status) return (void *)fail(t, "clCreateProgramWithBinary", st ? st : bin_status);
    st = clBuildProgram(prog, 1, &device, "-x spir -spir-std=1.2", NULL, NULL);
    if (st) return (void *)fail(t, "clBuildProgram", st);
    cl_kernel k = clCreateKernel(prog, "vector_add", &st);
    if (st) return (void *)fail(t, "clCreateKernel", st);
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i + t) * 0.5f;
        b[i] = 1.0f / (float)(i + 1);
    }
    cl_mem ma = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &st);
    cl_mem mb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &st);
    cl_mem mc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &st);
    if (st) return (void *)fail(t, "clCreateBuffer", st);
    clSetKernelArg(k, 0, sizeof ma, &ma);
    clSetKernelArg(k, 1, sizeof mb, &mb);
    clSetKernelArg(k, 2, sizeof mc, &mc);
    size_t global = N;
    st = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (st) return (void *)fail(t, "clEnqueueNDRangeKernel", st);
    st = clEnqueueReadBuffer(q, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    if (st) return (void *)fail(t, "clEnqueueReadBuffer", st);
    for (int i = 0; i < N; i++) {
        float want = a[i] + b[i];
        if (memcmp(&c[i], &want, sizeof want) != 0) return (void *)fail(t, "a wrong sum", 0);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    return (void *)0;
}

int main(int argc, char **argv) {
    if (argc != 2) return (int)fail(-1, "usage: threads_host SPIR.bc", 0);
    FILE *f = fopen(argv[1], "rb");
    if (!f) return (int)fail(-1, "cannot open the SPIR file", 0);
    fseek(f, 0, SEEK_END);
    len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    bin = malloc(len);
    if (fread(bin, 1, len, f) != len) return (int)fail(-1, "cannot read the SPIR file", 0);
    fclose(f);
    cl_platform_id platform;
    cl_int st = clGetPlatformIDs(1, &platform, NULL);
    if (st) return (int)fail(-1, "clGetPlatformIDs", st);
    st = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (st) return (int)fail(-1, "clGetDeviceIDs", st);
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &st);
    if (st) return (int)fail(-1, "clCreateContext", st);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, work, (void *)(intptr_t)t);
    int failed = 0;
    for (int t = 0; t < THREADS; t++) {
        void *r;
        pthread_join(threads[t], &r);
        failed += r != NULL;
    }
    clReleaseContext(ctx);
    free(bin);
    if (failed) return 1;
    printf("threads_host: %d threads matched\n", THREADS);
    return 0;
}
