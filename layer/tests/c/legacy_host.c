/* A host program written as legacy applications load SPIR: it checks cl_khr_spir (in the
 * extension strings and, as OpenCL 3.0 applications do, CL_DEVICE_EXTENSIONS_WITH_VERSION), asks
 * CL_DEVICE_SPIR_VERSIONS, creates the program with clCreateProgramWithBinary from a SPIR 1.2
 * file, builds it with "-x spir -spir-std=1.2" and runs vector_add, comparing with the sum
 * computed here. Exit 0 when the run matches; anything else prints why.
 * It prints what clGetKernelArgInfo says of each argument.
 * The built program's binary is then read back (CL_PROGRAM_BINARIES), loaded again and run.
 * With a second argument "corrupt", the file's second half is dropped first, and exit 0
 * means the binary was refused with CL_INVALID_BINARY (and nothing crashed). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_DEVICE_SPIR_VERSIONS 0x40E0
#define CL_DEVICE_EXTENSIONS_WITH_VERSION 0x1060
typedef struct {
    cl_uint version;
    char name[64];
} name_version;
#define N 64

static int fail(const char *what, cl_int status) {
    fprintf(stderr, "legacy_host: %s (CL status %d)\n", what, status);
    return 1;
}

/* What the kernel says of its arguments (clGetKernelArgInfo), one line each, for the test to
 * compare with the driver's own SPIR path; then the status of an argument past the last. */
static int print_arg_info(cl_kernel k, cl_uint count) {
    for (cl_uint i = 0; i <= count; i++) {
        cl_kernel_arg_address_qualifier address = 0;
        cl_int st = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address,
                                       &address, NULL);
        if (i == count) {
            printf("legacy_host: argument %u: status %d\n", i, st);
            break;
        }
        if (st) return fail("CL_KERNEL_ARG_ADDRESS_QUALIFIER", st);
        cl_kernel_arg_access_qualifier access = 0;
        st = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access, &access, NULL);
        if (st) return fail("CL_KERNEL_ARG_ACCESS_QUALIFIER", st);
        cl_kernel_arg_type_qualifier quals = 0;
        st = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof quals, &quals, NULL);
        if (st) return fail("CL_KERNEL_ARG_TYPE_QUALIFIER", st);
        size_t type_len = 0;
        st = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, 0, NULL, &type_len);
        if (st) return fail("CL_KERNEL_ARG_TYPE_NAME's size", st);
        char type[256] = {0}, name[256] = "(not available)";
        if (type_len > sizeof type) return fail("a type name of more than 255 bytes", 0);
        st = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
        if (st) return fail("CL_KERNEL_ARG_TYPE_NAME", st);
        st = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
        if (st && st != CL_KERNEL_ARG_INFO_NOT_AVAILABLE) return fail("CL_KERNEL_ARG_NAME", st);
        printf("legacy_host: argument %u: address %#x access %#x type %s (%zu bytes) qualifiers "
               "%#llx name %s\n",
               i, address, access, type, type_len, (unsigned long long)quals, name);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) return fail("usage: legacy_host SPIR.bc [corrupt]", 0);
    int corrupt = argc == 3 && strcmp(argv[2], "corrupt") == 0;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return fail("cannot open the SPIR file", 0);
    fseek(f, 0, SEEK_END);
    size_t len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bin = malloc(len);
    if (fread(bin, 1, len, f) != len) return fail("cannot read the SPIR file", 0);
    fclose(f);
    if (corrupt) len /= 2;

    cl_platform_id platform;
    cl_device_id device;
    cl_int st = clGetPlatformIDs(1, &platform, NULL);
    if (st) return fail("clGetPlatformIDs", st);
    st = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (st) return fail("clGetDeviceIDs", st);
    char ext[16384] = {0};
    st = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    if (st) return fail("CL_DEVICE_EXTENSIONS", st);
    if (!strstr(ext, "cl_khr_spir")) return fail("the device lacks cl_khr_spir", 0);
    char versions[64] = {0};
    st = clGetDeviceInfo(device, CL_DEVICE_SPIR_VERSIONS, sizeof versions, versions, NULL);
    if (st) return fail("CL_DEVICE_SPIR_VERSIONS", st);
    if (!strstr(versions, "1.2")) return fail("SPIR 1.2 is not among the device's versions", 0);
    size_t nv_size = 0;
    st = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &nv_size);
    if (st) return fail("CL_DEVICE_EXTENSIONS_WITH_VERSION's size", st);
    name_version *nv = malloc(nv_size);
    st = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, nv_size, nv, NULL);
    if (st) return fail("CL_DEVICE_EXTENSIONS_WITH_VERSION", st);
    int listed = 0;
    for (size_t i = 0; i < nv_size / sizeof *nv; i++) listed |= strcmp(nv[i].name, "cl_khr_spir") == 0;
    free(nv);
    if (!listed) return fail("cl_khr_spir is not in CL_DEVICE_EXTENSIONS_WITH_VERSION", 0);
    char pext[16384] = {0};
    st = clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof pext, pext, NULL);
    if (st || !strstr(pext, "cl_khr_spir")) return fail("the platform lacks cl_khr_spir", st);

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &st);
    if (st) return fail("clCreateContext", st);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &st);
    if (st) return fail("clCreateCommandQueue", st);
    const unsigned char *bins[1] = {bin};
    cl_int bin_status = 1;
    cl_program prog = clCreateProgramWithBinary(ctx, 1, &device, &len, bins, &bin_status, &st);
    if (corrupt) {
        if (prog == NULL && st == CL_INVALID_BINARY && bin_status == CL_INVALID_BINARY) {
            printf("legacy_host: the corrupted binary was refused\n");
            return 0;
        }
        return fail("a corrupted binary was not refused as CL_INVALID_BINARY", st);
    }
    if (st || bin_status) return fail("clCreateProgramWithBinary", st ? st : bin_status);
    st = clBuildProgram(prog, 1, &device, "-x spir -spir-std=1.2", NULL, NULL);
    if (st) {
        char log[16384] = {0};
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s\n", log);
        return fail("clBuildProgram", st);
    }
    cl_kernel k = clCreateKernel(prog, "vector_add", &st);
    if (st) return fail("clCreateKernel", st);
    if (print_arg_info(k, 3)) return 1;
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1.0f / (float)(i + 1);
    }
    cl_mem ma = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &st);
    cl_mem mb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &st);
    cl_mem mc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &st);
    if (st) return fail("clCreateBuffer", st);
    clSetKernelArg(k, 0, sizeof ma, &ma);
    clSetKernelArg(k, 1, sizeof mb, &mb);
    clSetKernelArg(k, 2, sizeof mc, &mc);
    size_t global = N;
    st = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (st) return fail("clEnqueueNDRangeKernel", st);
    st = clEnqueueReadBuffer(q, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    if (st) return fail("clEnqueueReadBuffer", st);
    for (int i = 0; i < N; i++) {
        float want = a[i] + b[i];
        if (memcmp(&c[i], &want, sizeof want) != 0) {
            fprintf(stderr, "legacy_host: c[%d] = %a, expected %a\n", i, c[i], want);
            return 1;
        }
    }
    /* As applications that cache programs do: the built program's binary read back, a new
     * program made from it and run again. */
    size_t saved_len = 0;
    st = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof saved_len, &saved_len, NULL);
    if (st || saved_len == 0) return fail("CL_PROGRAM_BINARY_SIZES", st);
    unsigned char *saved = malloc(saved_len);
    unsigned char *saved_list[1] = {saved};
    st = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof saved_list, saved_list, NULL);
    if (st) return fail("CL_PROGRAM_BINARIES", st);
    const unsigned char *again_bins[1] = {saved};
    cl_program again = clCreateProgramWithBinary(ctx, 1, &device, &saved_len, again_bins, &bin_status, &st);
    if (st || bin_status) return fail("clCreateProgramWithBinary of the read-back binary", st);
    st = clBuildProgram(again, 1, &device, "", NULL, NULL);
    if (st) return fail("clBuildProgram of the read-back binary", st);
    cl_kernel k2 = clCreateKernel(again, "vector_add", &st);
    if (st) return fail("clCreateKernel of the read-back binary", st);
    float c2[N];
    clSetKernelArg(k2, 0, sizeof ma, &ma);
    clSetKernelArg(k2, 1, sizeof mb, &mb);
    clSetKernelArg(k2, 2, sizeof mc, &mc);
    st = clEnqueueNDRangeKernel(q, k2, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (st) return fail("clEnqueueNDRangeKernel of the read-back binary", st);
    st = clEnqueueReadBuffer(q, mc, CL_TRUE, 0, sizeof c2, c2, 0, NULL, NULL);
    if (st || memcmp(c, c2, sizeof c) != 0) return fail("the read-back binary's run differs", st);
    clReleaseKernel(k2);
    clReleaseProgram(again);
    free(saved);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(bin);
    printf("legacy_host: vector_add from SPIR matches\n");
    return 0;
}
