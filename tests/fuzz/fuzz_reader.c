/*
 * libFuzzer target for the reader: the bytes become a file, which goes
 * through the public io API exactly as a command would use it: open (the
 * pre-parser, then netCDF-C), the physical coordinates (as hdiff reads
 * them: 2-D auxiliary coordinates too), the first time record, close.
 *
 * Built with clang -fsanitize=fuzzer by `make fuzz` (tests/fuzz.mk); the
 * same function is replayed over tests/fuzz/regressions by `make check`
 * through tests/fuzz/replay_main.c under the normal build.
 */
#include "config.h"
#include "ps_io.h"
#include "ps_status.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[4096];

static void remove_file(void)
{
    if (path[0])
        unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ps_dataset ds;
    ps_field f;
    FILE *fp;

    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        int fd;
        snprintf(path, sizeof path, "%s/ps_fuzz_XXXXXX", dir && *dir ? dir : "/tmp");
        fd = mkstemp(path);
        if (fd < 0) {
            perror("mkstemp");
            abort();
        }
        close(fd);
        atexit(remove_file);
    }
    fp = fopen(path, "wb");
    if (!fp)
        abort();
    if (size && fwrite(data, 1, size, fp) != size)
        abort();
    fclose(fp);
    if (ps_dataset_open(&ds, path, NULL) == PS_OK) {
        ps_grid_coords c;
        if (ps_dataset_coords(&ds, &c) == PS_OK)
            ps_grid_coords_free(&c);
        if (ps_dataset_read(&ds, 0, PS_FLOAT32, &f) == PS_OK)
            ps_field_free(&f);
        ps_dataset_close(&ds);
    }
    return 0;
}
