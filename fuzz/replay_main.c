/*
 * replay_main.c - runs a fuzz target without fuzzing, with any compiler:
 * LLVMFuzzerTestOneInput() once on each file named on the command line and
 * on each regular file inside a directory named there (not recursively).
 * ctest runs it over fuzz/corpus/<target>/, so the seeds and every input
 * that once failed are checked in each test run.
 *
 *   fuzz_element_file fuzz/corpus/fuzz_element_file
 *
 * A failing input aborts (the target checks its own results). Exit status:
 * 0 when every input ran, 1 when a path cannot be read or names no input.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole file in a buffer of exactly its size (so that the sanitizers
 * see a read past its end). @return 0 or -1. */
static int slurp(const char *path, uint8_t **data, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + len, 1, cap - len, fp)) > 0;) {
        len += k;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    int failed = !buf || ferror(fp);
    fclose(fp);
    uint8_t *exact = failed ? NULL : malloc(len ? len : 1);
    if (exact && len)
        memcpy(exact, buf, len);
    free(buf);
    if (!exact)
        return -1;
    *data = exact;
    *size = len;
    return 0;
}

static int replay_file(const char *path)
{
    uint8_t *data;
    size_t size;
    if (slurp(path, &data, &size) != 0) {
        fprintf(stderr, "replay: %s: cannot read: %s\n", path, strerror(errno ? errno : EIO));
        return -1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

/* Replays the regular files in `dir`. @return how many, or -1. */
static long replay_directory(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: cannot open: %s\n", dir, strerror(errno));
        return -1;
    }
    long count = 0;
    struct dirent *entry;
    while (count >= 0 && (entry = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        count = replay_file(path) == 0 ? count + 1 : -1;
    }
    closedir(d);
    return count;
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long count = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)
                         ? replay_directory(argv[i])
                         : (replay_file(argv[i]) == 0 ? 1 : -1);
        if (count < 0)
            return 1;
        total += count;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no inputs (usage: %s FILE|DIR...)\n", argv[0]);
        return 1;
    }
    printf("replay: %ld inputs ran\n", total);
    return 0;
}
