/*
 * ps_nc_get(), the one checked read of a variable's values in io/: a read
 * that would not fit its buffer, a rank or dimension other than expected, or
 * a hyperslab past a dimension is refused before netCDF-C writes anything
 * (guard values after the buffer stay as they were), and a read that fits
 * gives the file's values.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_nc_internal.h"
#include "../ps_test.h"

#include <netcdf.h>
#include <unistd.h>

#define GUARD -777.0

static int intact(const double *b, size_t from, size_t to)
{
    size_t i;
    for (i = from; i < to; i++)
        if (b[i] != GUARD)
            return 0;
    return 1;
}

static void fill(double *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        b[i] = GUARD;
}

int main(void)
{
    char path[] = "/tmp/pstencil-nc-get-XXXXXX";
    int fd = mkstemp(path), nc, dx, dy, vx, vxy, st;
    double vals[40], buf[64];
    size_t i, start[2], count[2];
    if (fd < 0)
        return 1;
    close(fd);
    for (i = 0; i < 40; i++)
        vals[i] = (double)i + 0.5;
    if (nc_create(path, NC_CLOBBER, &nc) || nc_def_dim(nc, "x", 40, &dx) ||
        nc_def_dim(nc, "y", 1, &dy) || nc_def_var(nc, "x", NC_DOUBLE, 1, &dx, &vx) ||
        nc_def_var(nc, "yx", NC_DOUBLE, 2, (int[]){dy, dx}, &vxy) || nc_enddef(nc) ||
        nc_put_var_double(nc, vx, vals) || nc_put_var_double(nc, vxy, vals)) {
        printf("cannot write %s\n", path);
        return 1;
    }
    {
        /* the whole variable into a buffer of 3: refused, nothing written */
        ps_nc_read_spec r = {.path = path, .ncid = nc, .varid = vx, .rank = 1, .cap = 3};
        fill(buf, 64);
        st = ps_nc_get(&r, buf);
        EXPECT(st == PS_EFORMAT && strstr(ps_error_detail(), "'x'") &&
               strstr(ps_error_detail(), path));
        EXPECT(intact(buf, 0, 64));
        EXPECT(r.nc_rc == NC_NOERR);
    }
    {
        /* the expected dimension id differs (two dimensions of one name) */
        int other = dy;
        const char *nm = "x";
        ps_nc_read_spec r = {.path = path, .ncid = nc, .varid = vx, .rank = 1,
                             .dimids = &other, .dim_names = &nm, .cap = 64};
        fill(buf, 64);
        EXPECT(ps_nc_get(&r, buf) == PS_EFORMAT && strstr(ps_error_detail(), "share a name"));
        EXPECT(intact(buf, 0, 64));
    }
    {
        /* another rank than expected */
        ps_nc_read_spec r = {.path = path, .ncid = nc, .varid = vxy, .rank = 1, .cap = 64};
        fill(buf, 64);
        EXPECT(ps_nc_get(&r, buf) == PS_EFORMAT && strstr(ps_error_detail(), "2 dimensions"));
        EXPECT(intact(buf, 0, 64));
    }
    {
        /* a hyperslab past the dimension, and one larger than its buffer */
        ps_nc_read_spec r = {.path = path, .ncid = nc, .varid = vxy, .rank = 2,
                             .start = start, .count = count, .cap = 10};
        start[0] = 0, start[1] = 35, count[0] = 1, count[1] = 10;
        fill(buf, 64);
        EXPECT(ps_nc_get(&r, buf) == PS_EFORMAT && strstr(ps_error_detail(), "past the length"));
        start[1] = 0, count[1] = 11;
        EXPECT(ps_nc_get(&r, buf) == PS_EFORMAT);
        EXPECT(intact(buf, 0, 64));
        /* one that fits: exactly its values, nothing after them */
        start[1] = 30, count[1] = 10;
        EXPECT(ps_nc_get(&r, buf) == PS_OK);
        for (i = 0; i < 10; i++)
            CHECK(buf[i] == vals[30 + i], "value %zu: %g", i, buf[i]);
        EXPECT(intact(buf, 10, 64));
    }
    {
        /* the whole variable, as float, into a buffer of exactly its size */
        float f[41];
        ps_nc_read_spec r = {.path = path, .ncid = nc, .varid = vx, .rank = -1, .cap = 40,
                             .as_float = 1};
        f[40] = -1.0f;
        EXPECT(ps_nc_get(&r, f) == PS_OK && f[39] == 39.5f && f[40] == -1.0f);
    }
    nc_close(nc);
    unlink(path);
    return ps_test_finish("test_nc_get");
}
