#define _GNU_SOURCE
/* Every function of spir_xlate.h called as a C runtime would call it: argv[1] is a SPIR
 * bitcode module. Exit 0 when every check holds; each failed check prints its line. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spir_xlate.h"

static int failures = 0;
#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "api_test.c:%d: check failed: %s\n", __LINE__, #cond); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

struct job {
    const uint8_t *input;
    size_t len;
    const spir_xlate_options *options;
    size_t out_len;
    uint32_t first_word;
};

static void *translate_in_thread(void *arg) {
    struct job *j = arg;
    spir_xlate_result *r = spir_xlate_translate(j->input, j->len, j->options);
    const uint8_t *bytes = spir_xlate_result_bytes(r, &j->out_len);
    if (bytes && j->out_len >= 4) memcpy(&j->first_word, bytes, 4);
    spir_xlate_result_free(r);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: api_test SPIR.bc\n");
        return 2;
    }
    size_t len = 0;
    uint8_t *spir = read_file(argv[1], &len);
    CHECK(spir != NULL && len > 0);
    CHECK(spir_xlate_version() != NULL && strchr(spir_xlate_version(), '.') != NULL);

    /* Options: known ones taken, an unknown one and a bad value refused with a message. */
    spir_xlate_options *to_spirv = spir_xlate_options_new(SPIR_XLATE_TO_SPIRV);
    char *message = NULL;
    CHECK(spir_xlate_options_set(to_spirv, "target", "opencl2.1", &message) == SPIR_XLATE_OK);
    CHECK(message == NULL);
    CHECK(spir_xlate_options_set(to_spirv, "flavor", "spir", &message) ==
          SPIR_XLATE_INVALID_ARGUMENT);
    CHECK(message != NULL && strstr(message, "flavor") != NULL);
    spir_xlate_string_free(message);
    CHECK(spir_xlate_options_set(to_spirv, "target", "opencl9", &message) ==
          SPIR_XLATE_INVALID_ARGUMENT);
    CHECK(message != NULL && strstr(message, "unknown target") != NULL);
    spir_xlate_string_free(message);
    CHECK(spir_xlate_options_set(NULL, "target", "opencl2.1", NULL) ==
          SPIR_XLATE_INVALID_ARGUMENT);

    /* SPIR -> SPIR-V. */
    spir_xlate_result *spirv = spir_xlate_translate(spir, len, to_spirv);
    CHECK(spir_xlate_result_status(spirv) == SPIR_XLATE_OK);
    CHECK(spir_xlate_result_message(spirv) == NULL);
    size_t spirv_len = 0;
    const uint8_t *spirv_bytes = spir_xlate_result_bytes(spirv, &spirv_len);
    uint32_t magic = 0;
    CHECK(spirv_bytes != NULL && spirv_len > 20);
    if (spirv_bytes) memcpy(&magic, spirv_bytes, 4);
    CHECK(magic == 0x07230203u);
    for (size_t i = 0; i < spir_xlate_result_lost_count(spirv); i++)
        CHECK(spir_xlate_result_lost(spirv, i) != NULL);
    CHECK(spir_xlate_result_lost(spirv, spir_xlate_result_lost_count(spirv)) == NULL);
    CHECK(spir_xlate_result_reflection(spirv) == NULL);

    /* SPIR-V -> the SPIR-V friendly LLVM IR, as text. */
    spir_xlate_options *to_spir = spir_xlate_options_new(SPIR_XLATE_TO_SPIR);
    CHECK(spir_xlate_options_set(to_spir, "flavor", "spirv-ir", NULL) == SPIR_XLATE_OK);
    CHECK(spir_xlate_options_set(to_spir, "text", "yes", NULL) == SPIR_XLATE_OK);
    spir_xlate_result *back = spir_xlate_translate(spirv_bytes, spirv_len, to_spir);
    CHECK(spir_xlate_result_status(back) == SPIR_XLATE_OK);
    size_t text_len = 0;
    const char *text = (const char *)spir_xlate_result_bytes(back, &text_len);
    CHECK(text != NULL && text_len > 0 && memmem(text, text_len, "spir_kernel", 11) != NULL);
    spir_xlate_result_free(back);

    /* SPIR -> OpenCL C source: its first line names the -cl-std= to build it with. */
    spir_xlate_options *to_c = spir_xlate_options_new(SPIR_XLATE_TO_OPENCL_C);
    spir_xlate_result *source = spir_xlate_translate(spir, len, to_c);
    CHECK(spir_xlate_result_status(source) == SPIR_XLATE_OK);
    size_t source_len = 0;
    const char *c_text = (const char *)spir_xlate_result_bytes(source, &source_len);
    CHECK(c_text != NULL && source_len > 0 && memmem(c_text, source_len, "-cl-std=", 8) != NULL &&
          memmem(c_text, source_len, "__kernel", 8) != NULL);
    spir_xlate_result_free(source);
    spir_xlate_options_free(to_c);

    /* A SPIR-V version above the target's is refused when it is set, not at translation. */
    spir_xlate_options *pinned = spir_xlate_options_new(SPIR_XLATE_TO_SPIRV);
    CHECK(spir_xlate_options_set(pinned, "spirv-version", "1.4", &message) ==
          SPIR_XLATE_INVALID_ARGUMENT);
    CHECK(message != NULL && strstr(message, "opencl2.1") != NULL);
    spir_xlate_string_free(message);
    CHECK(spir_xlate_options_set(pinned, "target", "opencl3.0", NULL) == SPIR_XLATE_OK);
    CHECK(spir_xlate_options_set(pinned, "spirv-version", "1.4", NULL) == SPIR_XLATE_OK);
    CHECK(spir_xlate_options_set(pinned, "target", "opencl2.1", &message) ==
          SPIR_XLATE_INVALID_ARGUMENT);
    spir_xlate_string_free(message);
    spir_xlate_options_free(pinned);

    /* Vulkan: the kernel interface comes with the module. */
    spir_xlate_options *to_vulkan = spir_xlate_options_new(SPIR_XLATE_TO_SPIRV);
    CHECK(spir_xlate_options_set(to_vulkan, "target", "vulkan1.2", NULL) == SPIR_XLATE_OK);
    CHECK(spir_xlate_options_set(to_vulkan, "vulkan-pointers", "descriptors", NULL) ==
          SPIR_XLATE_OK);
    spir_xlate_result *vk = spir_xlate_translate(spir, len, to_vulkan);
    CHECK(spir_xlate_result_status(vk) == SPIR_XLATE_OK);
    const char *json = spir_xlate_result_reflection(vk);
    CHECK(json != NULL && json[0] == '{' && strstr(json, "kernels") != NULL);
    spir_xlate_result_free(vk);

    /* Bad input: an error with a message and no bytes, never a crash. */
    uint8_t garbage[64];
    memcpy(garbage, "BC\xc0\xde", 4);
    for (size_t i = 4; i < sizeof garbage; i++) garbage[i] = (uint8_t)(i * 37);
    spir_xlate_result *bad = spir_xlate_translate(garbage, sizeof garbage, to_spirv);
    CHECK(spir_xlate_result_status(bad) == SPIR_XLATE_MALFORMED);
    CHECK(spir_xlate_result_message(bad) != NULL &&
          strstr(spir_xlate_result_message(bad), "malformed") != NULL);
    /* The caller says "error" in its own words. */
    CHECK(strncmp(spir_xlate_result_message(bad), "error:", 6) != 0);
    size_t bad_len = 1;
    CHECK(spir_xlate_result_bytes(bad, &bad_len) == NULL && bad_len == 0);
    spir_xlate_result_free(bad);
    spir_xlate_result *null_input = spir_xlate_translate(NULL, 0, to_spirv);
    CHECK(spir_xlate_result_status(null_input) == SPIR_XLATE_INVALID_ARGUMENT);
    spir_xlate_result_free(null_input);
    CHECK(spir_xlate_result_status(NULL) == SPIR_XLATE_INVALID_ARGUMENT);

    /* Several threads at once, one options object shared: the same module from each. */
    enum { THREADS = 4 };
    pthread_t threads[THREADS];
    struct job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (struct job){spir, len, to_spirv, 0, 0};
        CHECK(pthread_create(&threads[t], NULL, translate_in_thread, &jobs[t]) == 0);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(jobs[t].out_len == spirv_len && jobs[t].first_word == 0x07230203u);
    }

    spir_xlate_result_free(spirv);
    spir_xlate_options_free(to_spirv);
    spir_xlate_options_free(to_spir);
    spir_xlate_options_free(to_vulkan);
    spir_xlate_options_free(NULL);
    spir_xlate_result_free(NULL);
    spir_xlate_string_free(NULL);
    free(spir);
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
