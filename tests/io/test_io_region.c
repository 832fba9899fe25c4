/*
 * ps_dataset_read_region(): every block of a file (the built-in ocean, written
 * as netCDF-4) holds the same bits as the same cells of the whole-grid read,
 * in both precisions, for blocks at the corners, inside and the whole grid;
 * a block reaching outside the grid is PS_ERANGE. (The MPI run reads each
 * rank's block this way; tests/mpi/run.sh checks other file conventions.)
 */
#include "config.h"
#include "pstencil_io.h"
#include "../ps_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int same_cells(const ps_field *all, const ps_field *blk, const size_t s[3])
{
    size_t es = ps_precision_size(all->precision), k, j;
    for (k = 0; k < blk->grid.nz; k++)
        for (j = 0; j < blk->grid.ny; j++)
            if (memcmp((const char *)all->data + ps_index(&all->grid, s[0] + k, s[1] + j, s[2]) * es,
                       (const char *)blk->data + ps_index(&blk->grid, k, j, 0) * es,
                       blk->grid.nx * es))
                return 0;
    return 1;
}

int main(void)
{
    char dir[] = "/tmp/ps-region-XXXXXX", path[256];
    ps_ocean_options o;
    ps_dataset ds;
    int p, b;
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    snprintf(path, sizeof path, "%s/ocean.nc", dir);
    ps_ocean_defaults(&o);
    o.scale = 0.05; /* 50 x 11 x 12 */
    EXPECT(ps_ocean_write(&o, path, 0) == PS_OK);
    EXPECT(ps_dataset_open(&ds, path, NULL) == PS_OK);
    for (p = 0; p < 2; p++) {
        ps_precision prec = p ? PS_FLOAT64 : PS_FLOAT32;
        ps_field all, blk;
        const ps_grid g = ds.grid;
        const size_t blocks[][6] = {{0, 0, 0, 1, 1, 1},
                                    {0, 0, 0, g.nz, g.ny, g.nx},
                                    {3, 2, 5, 7, 4, 6},
                                    {g.nz - 4, g.ny - 3, g.nx - 2, 4, 3, 2},
                                    {10, 0, 1, 1, g.ny, g.nx - 1}};
        EXPECT(ps_dataset_read(&ds, 1, prec, &all) == PS_OK);
        for (b = 0; b < (int)(sizeof blocks / sizeof blocks[0]); b++) {
            const size_t *s = blocks[b], *c = blocks[b] + 3;
            EXPECT(ps_dataset_read_region(&ds, 1, s, c, prec, &blk) == PS_OK);
            CHECK(blk.grid.nz == c[0] && blk.grid.ny == c[1] && blk.grid.nx == c[2],
                  "block %d: shape %zux%zux%zu", b, blk.grid.nz, blk.grid.ny, blk.grid.nx);
            CHECK(same_cells(&all, &blk, s), "%s block %d at %zu,%zu,%zu differs from the "
                  "whole-grid read", ps_precision_name(prec), b, s[0], s[1], s[2]);
            ps_field_free(&blk);
        }
        {
            const size_t s[3] = {0, g.ny - 2, 0}, c[3] = {1, 3, 1};
            EXPECT(ps_dataset_read_region(&ds, 1, s, c, prec, &blk) == PS_ERANGE);
        }
        ps_field_free(&all);
    }
    ps_dataset_close(&ds);
    unlink(path);
    rmdir(dir);
    return ps_test_finish("test_io_region");
}
