/*
 * A hand-written reader of the header of a classic, 64-bit-offset or CDF5
 * netCDF file, used only to check the file's size against the size its
 * header implies: netCDF-C reads the missing data of a truncated file as
 * zeros instead of failing. Internal to io/ (io/ps_nc_header.h).
 */
#include "config.h"
#include "ps_nc_header.h"
#include "ps_status.h"

#include <errno.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tiny reader over the bytes of a classic-format header. */
typedef struct hdr {
    const unsigned char *p;
    size_t n, off;
    int v; /* 1 classic, 2 64-bit offset, 5 CDF5 */
    int bad;
    int eof; /* ran off the end of the bytes read */
} hdr;

static uint64_t hdr_u(hdr *h, int bytes)
{
    uint64_t x = 0;
    int i;
    if (h->off + (size_t)bytes > h->n) {
        h->bad = h->eof = 1;
        return 0;
    }
    for (i = 0; i < bytes; i++)
        x = (x << 8) | h->p[h->off + (size_t)i];
    h->off += (size_t)bytes;
    return x;
}

static uint64_t hdr_count(hdr *h)
{
    return hdr_u(h, h->v == 5 ? 8 : 4);
}

static void hdr_skip(hdr *h, uint64_t bytes)
{
    uint64_t padded = (bytes + 3) & ~(uint64_t)3;
    if (padded > h->n - h->off) {
        h->bad = h->eof = 1;
        h->off = h->n;
        return;
    }
    h->off += (size_t)padded;
}

static void hdr_name(hdr *h)
{
    hdr_skip(h, hdr_count(h));
}

static int type_size(int t)
{
    switch (t) {
    case NC_BYTE: case NC_CHAR: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_FLOAT: case NC_UINT: return 4;
    case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
    default: return 0;
    }
}

static void hdr_attrs(hdr *h)
{
    uint64_t tag = hdr_u(h, 4), n = hdr_count(h), i;
    if (tag == 0)
        return;
    for (i = 0; i < n && !h->bad; i++) {
        int t, ts;
        uint64_t len;
        hdr_name(h);
        t = (int)hdr_u(h, 4);
        len = hdr_count(h);
        ts = type_size(t);
        if (!ts || len > UINT64_MAX / 8) {
            h->bad = 1;
            return;
        }
        hdr_skip(h, len * (uint64_t)ts);
    }
}

/* Saturating arithmetic: a forged header must not wrap around to "fits". */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return (b && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/*
 * For a classic/64-bit-offset/CDF5 file: compute the smallest file size the
 * header implies (every fixed variable's data, every record of every record
 * variable) and compare with the actual size.
 */
int ps_nc_check_classic_size(const char *path, off_t fsize)
{
    FILE *f = fopen(path, "rb");
    size_t want = fsize < (off_t)(16u << 20) ? (size_t)fsize : (size_t)16u << 20;
    unsigned char *buf = NULL;
    hdr h = {0};
    uint64_t numrecs, ndims, nvars, i, need = 0, recsize = 0, nrecvars = 0;
    uint64_t *dimlen = NULL;
    int status = PS_OK;
    struct rv { uint64_t begin, size; } *recv = NULL;

    if (!f)
        return ps_error(PS_EIO, "cannot open %s: %s", path, strerror(errno));
    buf = malloc(want ? want : 1);
    if (!buf) {
        fclose(f);
        return ps_error(PS_ENOMEM, "out of memory");
    }
    h.n = fread(buf, 1, want, f);
    fclose(f);
    h.p = buf;
    if (h.n < 4) {
        status = ps_error(PS_ETRUNC, "%s: file is truncated (%zu bytes)", path, h.n);
        goto done;
    }
    h.v = buf[3];
    h.off = 4;
    numrecs = hdr_count(&h);
    /* dimensions */
    if (hdr_u(&h, 4) == 0) {
        ndims = hdr_count(&h);
        ndims = 0;
    } else {
        ndims = hdr_count(&h);
    }
    if (ndims > 1u << 20) {
        h.bad = 1;
        goto parsed;
    }
    dimlen = calloc(ndims ? ndims : 1, sizeof *dimlen);
    if (!dimlen) {
        status = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < ndims && !h.bad; i++) {
        hdr_name(&h);
        dimlen[i] = hdr_count(&h);
    }
    hdr_attrs(&h); /* global attributes */
    if (hdr_u(&h, 4) == 0) {
        nvars = hdr_count(&h);
        nvars = 0;
    } else {
        nvars = hdr_count(&h);
    }
    if (nvars > 1u << 24) {
        h.bad = 1;
        goto parsed;
    }
    recv = calloc(nvars ? nvars : 1, sizeof *recv);
    if (!recv) {
        status = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < nvars && !h.bad; i++) {
        uint64_t nd, d, size = 1, begin;
        int t, isrec = 0;
        hdr_name(&h);
        nd = hdr_count(&h);
        if (nd > 1024) {
            h.bad = 1;
            break;
        }
        for (d = 0; d < nd && !h.bad; d++) {
            uint64_t id = hdr_count(&h);
            if (id >= ndims) {
                h.bad = 1;
                break;
            }
            if (dimlen[id] == 0 && d == 0)
                isrec = 1;
            else if (dimlen[id] && size > UINT64_MAX / dimlen[id])
                h.bad = 1;
            else
                size *= dimlen[id];
        }
        hdr_attrs(&h);
        t = (int)hdr_u(&h, 4);
        (void)hdr_count(&h); /* vsize (may be capped): recomputed below */
        begin = hdr_u(&h, h.v == 1 ? 4 : 8);
        if (!type_size(t) || size > UINT64_MAX / 8) {
            h.bad = 1;
            break;
        }
        size *= (uint64_t)type_size(t);
        if (isrec) {
            recv[nrecvars].begin = begin;
            recv[nrecvars].size = size;
            nrecvars++;
            recsize = sat_add(recsize, (size + 3) & ~(uint64_t)3);
        } else if (sat_add(begin, size) > need) {
            need = sat_add(begin, size);
        }
    }
parsed:
    if (h.bad) {
        /* Ran off the end of the whole file: the header itself is cut
         * (netCDF-C may open such a file and report no variables). Other
         * oddities, or a header longer than what was read: do not guess. */
        if (h.eof && (off_t)h.n == fsize)
            status = ps_error(PS_ETRUNC, "%s is truncated: the file ends inside its header (%llu bytes)",
                              path, (unsigned long long)fsize);
        goto done;
    }
    if (nrecvars == 1)
        recsize = recv[0].size;
    if (numrecs != (h.v == 5 ? UINT64_MAX : 0xffffffffu) && numrecs > 0) {
        for (i = 0; i < nrecvars; i++) {
            uint64_t end = sat_add(sat_add(recv[i].begin, sat_mul(numrecs - 1, recsize)),
                                   recv[i].size);
            if (end > need)
                need = end;
        }
    }
    if ((uint64_t)fsize < need)
        status = ps_error(PS_ETRUNC,
                          "%s is truncated: its header implies at least %llu bytes but the "
                          "file has %llu",
                          path, (unsigned long long)need, (unsigned long long)fsize);
done:
    free(buf);
    free(dimlen);
    free(recv);
    return status;
}
