/*
 * The bounded pre-parser of untrusted input: run on every file before
 * netCDF-C sees it (io/ps_nc_header.h).
 *
 * Classic, 64-bit-offset and CDF5 files: the whole header is parsed by hand,
 * every count, name length, attribute length and data offset checked against
 * the bytes that are really there and against netCDF's own limits, with
 * overflow-safe arithmetic, then the size the header implies (every fixed
 * variable's data, every record) is compared with the file's size: netCDF-C
 * reads the missing data of a truncated file as zeros, and a forged count can
 * make it allocate gigabytes or corrupt its heap inside nc_open().
 *
 * HDF5 (netCDF-4) files: the superblock's end-of-file address is compared
 * with the file's size, so a truncated file is called truncated.
 */
#include "config.h"
#include "ps_nc_header.h"
#include "ps_status.h"

#include <errno.h>
#include <stdarg.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most header bytes read and parsed; a longer header is refused. */
#define HDR_MAX_BYTES ((size_t)32 << 20)
/* netCDF's own limits on names and on the number of things in a header */
#define HDR_MAX_NAME 256u
#define HDR_MAX_DIMS 1024u
#define HDR_MAX_VARS 8192u
#define HDR_MAX_ATTRS 8192u
#define HDR_MAX_VAR_DIMS 1024u

#define TAG_DIMENSION 0x0Au
#define TAG_VARIABLE 0x0Bu
#define TAG_ATTRIBUTE 0x0Cu

/* A bounded reader over the bytes of a classic-format header. */
typedef struct hdr {
    const unsigned char *p;
    size_t n, off;
    uint64_t fsize;
    int v;            /* 1 classic, 2 64-bit offset, 5 CDF5 */
    const char *path;
    int status;       /* first problem found (PS_OK while none) */
    int short_buf;    /* ran off the bytes read, not off the file */
} hdr;

/* Record the first problem, with the byte offset where it was found. */
static int hdr_fail(hdr *h, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int hdr_fail(hdr *h, int code, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    if (h->status)
        return h->status;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (code == PS_ETRUNC)
        h->status = ps_error(PS_ETRUNC, "%s is truncated: the file ends inside its header (%s)",
                             h->path, msg);
    else
        h->status = ps_error(PS_EFORMAT, "%s: damaged NetCDF header at byte %zu: %s", h->path,
                             h->off, msg);
    return h->status;
}

/* Bytes left in the header buffer. */
static size_t hdr_left(const hdr *h)
{
    return h->n - h->off;
}

/* Running off the buffer: the file is cut, or the header is too long. */
static void hdr_eof(hdr *h, const char *what)
{
    if ((uint64_t)h->n >= h->fsize)
        hdr_fail(h, PS_ETRUNC, "%s", what);
    else {
        h->short_buf = 1;
        hdr_fail(h, PS_EFORMAT, "the header is longer than %zu bytes", HDR_MAX_BYTES);
    }
}

static uint64_t hdr_u(hdr *h, int bytes, const char *what)
{
    uint64_t x = 0;
    int i;
    if (h->status)
        return 0;
    if ((size_t)bytes > hdr_left(h)) {
        hdr_eof(h, what);
        return 0;
    }
    for (i = 0; i < bytes; i++)
        x = (x << 8) | h->p[h->off + (size_t)i];
    h->off += (size_t)bytes;
    return x;
}

/* A count or length: 4 bytes, 8 in CDF5. */
static uint64_t hdr_count(hdr *h, const char *what)
{
    return hdr_u(h, h->v == 5 ? 8 : 4, what);
}

/* Skip @p bytes of data padded to a multiple of 4, without wrapping. */
static void hdr_skip(hdr *h, uint64_t bytes, const char *what)
{
    uint64_t pad;
    if (h->status)
        return;
    if (bytes > hdr_left(h)) {
        hdr_eof(h, what);
        return;
    }
    pad = (4 - bytes % 4) % 4;
    if (bytes + pad > hdr_left(h)) {
        hdr_eof(h, what);
        return;
    }
    h->off += (size_t)(bytes + pad);
}

/* Where a name lies in the header bytes. */
typedef struct hname {
    const unsigned char *p;
    size_t len;
} hname;

static void hdr_name_at(hdr *h, const char *what, hname *at)
{
    uint64_t len = hdr_count(h, what);
    if (h->status)
        return;
    if (at) {
        at->p = h->p + h->off;
        at->len = (size_t)(len < HDR_MAX_NAME ? len : HDR_MAX_NAME);
    }
    if (len == 0) {
        hdr_fail(h, PS_EFORMAT, "a name of length 0");
        return;
    }
    if (len > HDR_MAX_NAME) {
        hdr_fail(h, PS_EFORMAT, "a name of %llu bytes (netCDF allows 256)", (unsigned long long)len);
        return;
    }
    hdr_skip(h, len, what);
}

static void hdr_name(hdr *h, const char *what)
{
    hdr_name_at(h, what, NULL);
}

static int name_cmp(const void *a, const void *b)
{
    const hname *x = a, *y = b;
    int c = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/*
 * Names of one list (dimensions, variables) must be unique: netCDF-C looks
 * things up by name, so with two dimensions called 'lon' a coordinate
 * variable over one would be read into a buffer sized by the other.
 */
static void hdr_unique(hdr *h, hname *names, uint64_t n, const char *what)
{
    uint64_t i;
    if (h->status || n < 2)
        return;
    qsort(names, (size_t)n, sizeof *names, name_cmp);
    for (i = 1; i < n; i++)
        if (!name_cmp(&names[i - 1], &names[i])) {
            hdr_fail(h, PS_EFORMAT, "two %s are both named '%.*s'", what, (int)names[i].len,
                     (const char *)names[i].p);
            return;
        }
}

static int type_size(int v, uint64_t t)
{
    switch (t) {
    case NC_BYTE: case NC_CHAR: return 1;
    case NC_SHORT: return 2;
    case NC_INT: case NC_FLOAT: return 4;
    case NC_DOUBLE: return 8;
    default: break;
    }
    if (v != 5)
        return 0;
    switch (t) {
    case NC_UBYTE: return 1;
    case NC_USHORT: return 2;
    case NC_UINT: return 4;
    case NC_INT64: case NC_UINT64: return 8;
    default: return 0;
    }
}

/*
 * A list header: tag then count, or ABSENT (two zeros). @p min_item is the
 * fewest bytes one element can take, so a count cannot claim more elements
 * than the header has bytes for.
 */
static uint64_t hdr_list(hdr *h, uint64_t tag_want, uint64_t max, size_t min_item,
                         const char *what)
{
    uint64_t tag = hdr_u(h, 4, what), n = hdr_count(h, what);
    if (h->status)
        return 0;
    if (tag == 0) {
        if (n != 0)
            hdr_fail(h, PS_EFORMAT, "an absent list with a count of %llu", (unsigned long long)n);
        return 0;
    }
    if (tag != tag_want) {
        hdr_fail(h, PS_EFORMAT, "unexpected tag 0x%llx", (unsigned long long)tag);
        return 0;
    }
    if (n > max) {
        hdr_fail(h, PS_EFORMAT, "a count of %llu (too many)", (unsigned long long)n);
        return 0;
    }
    if (n > hdr_left(h) / min_item) {
        hdr_eof(h, what);
        return 0;
    }
    return n;
}

static void hdr_attrs(hdr *h)
{
    uint64_t n, i;
    size_t cnt = h->v == 5 ? 8 : 4;
    n = hdr_list(h, TAG_ATTRIBUTE, HDR_MAX_ATTRS, 4 + 4 + 4 + cnt, "in an attribute list");
    for (i = 0; i < n && !h->status; i++) {
        uint64_t t, len;
        int ts;
        hdr_name(h, "in an attribute name");
        t = hdr_u(h, 4, "in an attribute type");
        len = hdr_count(h, "in an attribute length");
        if (h->status)
            return;
        ts = type_size(h->v, t);
        if (!ts) {
            hdr_fail(h, PS_EFORMAT, "an attribute of unknown type %llu", (unsigned long long)t);
            return;
        }
        if (len > hdr_left(h) / (uint64_t)ts) {
            hdr_eof(h, "in an attribute's values");
            return;
        }
        hdr_skip(h, len * (uint64_t)ts, "in an attribute's values");
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

/* x rounded up to a multiple of 4, saturating instead of wrapping. */
static uint64_t sat_pad4(uint64_t x)
{
    return x > UINT64_MAX - 3 ? UINT64_MAX : (x + 3) & ~(uint64_t)3;
}

static int check_classic(hdr *h)
{
    uint64_t numrecs, ndims, nvars, i, need = 0, recsize = 0, nrecvars = 0, recdim = UINT64_MAX;
    uint64_t minbegin = UINT64_MAX;
    uint64_t *dimlen = NULL;
    hname *names = NULL;
    size_t cnt = h->v == 5 ? 8 : 4;
    struct rv { uint64_t begin, size; } *recv = NULL;
    int streaming;

    h->off = 4;
    numrecs = hdr_count(h, "in the record count");
    streaming = numrecs == (h->v == 5 ? UINT64_MAX : 0xffffffffu);
    ndims = hdr_list(h, TAG_DIMENSION, HDR_MAX_DIMS, 4 + 4 + cnt, "in the dimension list");
    if (h->status)
        goto done;
    dimlen = calloc(ndims ? ndims : 1, sizeof *dimlen);
    names = calloc(ndims ? ndims : 1, sizeof *names);
    if (!dimlen || !names) {
        h->status = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < ndims && !h->status; i++) {
        hdr_name_at(h, "in a dimension name", &names[i]);
        dimlen[i] = hdr_count(h, "in a dimension length");
        if (h->status)
            break;
        if (dimlen[i] == 0) {
            if (recdim != UINT64_MAX) {
                hdr_fail(h, PS_EFORMAT, "a second unlimited dimension (number %llu)", (unsigned long long)i);
                break;
            }
            recdim = i;
        }
    }
    hdr_unique(h, names, ndims, "dimensions");
    hdr_attrs(h); /* global attributes */
    nvars = hdr_list(h, TAG_VARIABLE, HDR_MAX_VARS, 4 + 4 + cnt + 8 + 4 + cnt + 4,
                     "in the variable list");
    if (h->status)
        goto done;
    recv = calloc(nvars ? nvars : 1, sizeof *recv);
    free(names);
    names = calloc(nvars ? nvars : 1, sizeof *names);
    if (!recv || !names) {
        h->status = ps_error(PS_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < nvars && !h->status; i++) {
        uint64_t nd, d, size = 1, begin, t;
        int ts, isrec = 0;
        hdr_name_at(h, "in a variable name", &names[i]);
        nd = hdr_count(h, "in a variable's rank");
        if (h->status)
            break;
        if (nd > HDR_MAX_VAR_DIMS) {
            hdr_fail(h, PS_EFORMAT, "a variable of rank %llu", (unsigned long long)nd);
            break;
        }
        if (nd > hdr_left(h) / cnt) {
            hdr_eof(h, "in a variable's dimensions");
            break;
        }
        for (d = 0; d < nd && !h->status; d++) {
            uint64_t id = hdr_count(h, "in a variable's dimensions");
            if (h->status)
                break;
            if (id >= ndims) {
                hdr_fail(h, PS_EFORMAT, "a variable uses dimension %llu, which does not exist",
                         (unsigned long long)id);
                break;
            }
            if (id == recdim) {
                if (d != 0) {
                    hdr_fail(h, PS_EFORMAT,
                             "a variable uses the unlimited dimension in position %llu",
                             (unsigned long long)d);
                    break;
                }
                isrec = 1;
            } else {
                size = sat_mul(size, dimlen[id]);
            }
        }
        hdr_attrs(h);
        t = hdr_u(h, 4, "in a variable's type");
        (void)hdr_count(h, "in a variable's size"); /* vsize (may be capped): recomputed */
        begin = hdr_u(h, h->v == 1 ? 4 : 8, "in a variable's offset");
        if (h->status)
            break;
        ts = type_size(h->v, t);
        if (!ts) {
            hdr_fail(h, PS_EFORMAT, "a variable of unknown type %llu", (unsigned long long)t);
            break;
        }
        size = sat_mul(size, (uint64_t)ts);
        if (size == UINT64_MAX) {
            hdr_fail(h, PS_EFORMAT, "a variable declares more data than can be addressed");
            break;
        }
        if (isrec) {
            recv[nrecvars].begin = begin;
            recv[nrecvars].size = size;
            nrecvars++;
            recsize = sat_add(recsize, sat_pad4(size));
        } else if (sat_add(begin, size) > need) {
            need = sat_add(begin, size);
        }
        if (begin < minbegin)
            minbegin = begin;
    }
    hdr_unique(h, names, nvars, "variables");
    if (h->status)
        goto done;
    /* every variable's data lies after the header */
    if (minbegin < (uint64_t)h->off) {
        hdr_fail(h, PS_EFORMAT, "a variable's data starts at byte %llu, inside the header",
                 (unsigned long long)minbegin);
        goto done;
    }
    if (nrecvars == 1)
        recsize = recv[0].size;
    if (!streaming && numrecs > 0) {
        for (i = 0; i < nrecvars; i++) {
            uint64_t end = sat_add(sat_add(recv[i].begin, sat_mul(numrecs - 1, recsize)),
                                   recv[i].size);
            if (end > need)
                need = end;
        }
    }
    if (h->fsize < need) {
        /* far beyond the file: a forged size, not a cut file */
        if (need / 16 > h->fsize + (1u << 20))
            h->status = ps_error(PS_EFORMAT,
                                 "%s: damaged NetCDF header: it declares at least %llu bytes of "
                                 "data but the file has %llu",
                                 h->path, (unsigned long long)need,
                                 (unsigned long long)h->fsize);
        else if (need == UINT64_MAX)
            h->status = ps_error(PS_EFORMAT,
                                 "%s: damaged NetCDF header: its data would lie beyond any "
                                 "possible file size",
                                 h->path);
        else
            h->status = ps_error(PS_ETRUNC,
                                 "%s is truncated: its header implies at least %llu bytes but "
                                 "the file has %llu",
                                 h->path, (unsigned long long)need,
                                 (unsigned long long)h->fsize);
    }
done:
    free(dimlen);
    free(names);
    free(recv);
    return h->status;
}

/* Little-endian unsigned integer of @p n bytes (n <= 8). */
static uint64_t le(const unsigned char *p, int n)
{
    uint64_t x = 0;
    while (n--)
        x = (x << 8) | p[n];
    return x;
}

/*
 * An HDF5 superblock at @p base: compare its end-of-file address with the
 * file's size. Versions 0-3; anything else is left to the library.
 */
static int check_hdf5(const char *path, const unsigned char *b, size_t n, uint64_t base,
                      uint64_t fsize)
{
    int ver, so, eof_off;
    uint64_t eof_addr, base_addr;
    if (n < 9)
        goto cut;
    ver = b[8];
    if (ver == 0 || ver == 1) {
        /* sig 8, versions 4, sizes 2, reserved 1... : 24 bytes to the base address,
         * 4 more in version 1 */
        size_t at = ver == 0 ? 24 : 28;
        if (n < 16)
            goto cut;
        so = b[13];
        if (so != 2 && so != 4 && so != 8)
            return ps_error(PS_EFORMAT, "%s: damaged HDF5 superblock (offset size %d)", path, so);
        if (n < at + 3 * (size_t)so)
            goto cut;
        base_addr = le(b + at, so);
        eof_off = (int)at + 2 * so;
    } else if (ver == 2 || ver == 3) {
        if (n < 10)
            goto cut;
        so = b[9];
        if (so != 2 && so != 4 && so != 8)
            return ps_error(PS_EFORMAT, "%s: damaged HDF5 superblock (offset size %d)", path, so);
        if (n < 12 + 3 * (size_t)so)
            goto cut;
        base_addr = le(b + 12, so);
        eof_off = 12 + 2 * so;
    } else {
        return PS_OK;
    }
    eof_addr = le(b + eof_off, so);
    if (so < 8 && eof_addr == (UINT64_C(1) << (8 * so)) - 1)
        return PS_OK; /* undefined address */
    if (so == 8 && eof_addr == UINT64_MAX)
        return PS_OK;
    eof_addr = sat_add(eof_addr, base_addr ? base_addr : base);
    if (eof_addr > fsize)
        return ps_error(PS_ETRUNC,
                        "%s is truncated: its HDF5 superblock says the file has %llu bytes but "
                        "it has %llu",
                        path, (unsigned long long)eof_addr, (unsigned long long)fsize);
    return PS_OK;
cut:
    return ps_error(PS_ETRUNC, "%s is truncated: the file ends inside its HDF5 superblock",
                    path);
}

/* The first @p want bytes of the file into a new buffer; *got what was read. */
static unsigned char *read_prefix(const char *path, size_t want, size_t *got, int *st)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    *got = 0;
    if (!f) {
        *st = ps_error(PS_EIO, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    buf = malloc(want ? want : 1);
    if (!buf)
        *st = ps_error(PS_ENOMEM, "out of memory");
    else
        *got = fread(buf, 1, want, f);
    fclose(f);
    return buf;
}

int ps_nc_precheck(const char *path, off_t fsize, int *kind)
{
    /* most headers fit in the first megabyte; read more only when needed */
    size_t most = fsize < (off_t)HDR_MAX_BYTES ? (size_t)fsize : HDR_MAX_BYTES;
    size_t want = most < ((size_t)1 << 20) ? most : (size_t)1 << 20;
    unsigned char *buf = NULL;
    hdr h = {0};
    int status = PS_OK;
    uint64_t off;

    *kind = PS_NC_UNKNOWN;
    if (!(buf = read_prefix(path, want, &h.n, &status)))
        return status;
    h.p = buf;
    h.path = path;
    h.fsize = (uint64_t)fsize;
    if (h.n == 0) {
        status = ps_error(PS_EFORMAT, "%s is not a NetCDF file (it is empty)", path);
        goto done;
    }
    if (h.n >= 4 && !memcmp(buf, "CDF", 3) && (buf[3] == 1 || buf[3] == 2 || buf[3] == 5)) {
        *kind = PS_NC_CLASSIC;
        for (;;) {
            h.v = buf[3];
            status = check_classic(&h);
            if (!status || !h.short_buf || want >= most)
                break;
            /* the header goes on past what was read: read 8 times more */
            want = want > most / 8 ? most : want * 8;
            free(buf);
            memset(&h, 0, sizeof h);
            if (!(buf = read_prefix(path, want, &h.n, &status)))
                return status;
            h.p = buf;
            h.path = path;
            h.fsize = (uint64_t)fsize;
            if (h.n < 4)
                break;
        }
        goto done;
    }
    /* HDF5: the superblock at 0, 512, 1024, 2048, ... (after a user block) */
    for (off = 0; off + 8 <= h.n; off = off ? off * 2 : 512) {
        if (!memcmp(buf + off, "\211HDF\r\n\032\n", 8)) {
            *kind = PS_NC_HDF5;
            status = check_hdf5(path, buf + off, h.n - (size_t)off, off, h.fsize);
            goto done;
        }
    }
    if (h.n >= 3 && !memcmp(buf, "CDF", 3))
        status = ps_error(PS_EFORMAT, "%s: unknown NetCDF classic format version %d", path,
                          h.n >= 4 ? buf[3] : -1);
    else
        status = ps_error(PS_EFORMAT, "%s is not a NetCDF file (%s)", path,
                          h.n < 8 ? "too short" : "no NetCDF or HDF5 signature");
done:
    free(buf);
    return status;
}
