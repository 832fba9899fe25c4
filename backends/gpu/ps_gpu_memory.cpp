/*
 * The GPU backend's uploads and downloads: a region of the box (or the whole
 * box) between packed host memory and the current device field, through two
 * pinned staging buffers used alternately, so copies from pageable user
 * memory run at bus speed and the memcpy into one half overlaps the
 * transfer of the other.
 */
#include "config.h"
#include "ps_gpu_context.h"

#include <string.h>

namespace {

int ensure_stage(ps_gpu_ctx *c)
{
    int h;
    for (h = 0; h < 2; h++)
        if (!c->stage[h])
            PS_GPU_TRY(c, gpuMallocHost(&c->stage[h], PS_GPU_STAGE_BYTES));
    return PS_OK;
}

/* A row longer than a staging buffer: one piece at a time, synchronously. */
int xfer_long_row(ps_gpu_ctx *c, int up, char *dev, char *host, size_t width)
{
    size_t off = 0;
    while (off < width) {
        size_t b = width - off < PS_GPU_STAGE_BYTES ? width - off : PS_GPU_STAGE_BYTES;
        if (up) {
            memcpy(c->stage[0], host + off, b);
            PS_GPU_TRY(c, gpuMemcpyAsync(dev + off, c->stage[0], b, gpuMemcpyHostToDevice,
                                         c->stream));
            PS_GPU_TRY(c, gpuStreamSynchronize(c->stream));
        } else {
            PS_GPU_TRY(c, gpuMemcpyAsync(c->stage[0], dev + off, b, gpuMemcpyDeviceToHost,
                                         c->stream));
            PS_GPU_TRY(c, gpuStreamSynchronize(c->stream));
            memcpy(host + off, c->stage[0], b);
        }
        off += b;
    }
    return PS_OK;
}

/*
 * A copy of `rows` rows of `width` bytes between packed host memory and the
 * device (rows `dpitch` bytes apart there), chunked through the pinned
 * staging buffers. Upload: memcpy into a free half, then an async copy;
 * download: async copies into alternating halves, drained one behind.
 */
int xfer_rows(ps_gpu_ctx *c, int up, char *dev, size_t dpitch, char *host, size_t width,
              size_t rows)
{
    size_t per = PS_GPU_STAGE_BYTES / width, done_rows = 0;
    int h = 0, pend = -1, st;
    size_t pend_rows = 0;
    char *pend_host = NULL;
    if (width > PS_GPU_STAGE_BYTES) {
        for (; done_rows < rows; done_rows++)
            if ((st = xfer_long_row(c, up, dev + done_rows * dpitch, host + done_rows * width,
                                    width)))
                return st;
        return PS_OK;
    }
    while (done_rows < rows) {
        size_t nr = rows - done_rows < per ? rows - done_rows : per;
        if (c->stage_busy[h]) {
            PS_GPU_TRY(c, gpuEventSynchronize(c->stage_ev[h]));
            c->stage_busy[h] = 0;
            if (!up && pend == h) {
                memcpy(pend_host, c->stage[h], pend_rows * width);
                pend = -1;
            }
        }
        if (up) {
            memcpy(c->stage[h], host + done_rows * width, nr * width);
            PS_GPU_TRY(c, gpuMemcpy2DAsync(dev + done_rows * dpitch, dpitch, c->stage[h],
                                           width, width, nr, gpuMemcpyHostToDevice,
                                           c->stream));
        } else {
            PS_GPU_TRY(c, gpuMemcpy2DAsync(c->stage[h], width, dev + done_rows * dpitch,
                                           dpitch, width, nr, gpuMemcpyDeviceToHost,
                                           c->stream));
            if (pend >= 0) { /* drain the other half while this one fills */
                PS_GPU_TRY(c, gpuEventSynchronize(c->stage_ev[pend]));
                c->stage_busy[pend] = 0;
                memcpy(pend_host, c->stage[pend], pend_rows * width);
            }
            pend = h;
            pend_rows = nr;
            pend_host = host + done_rows * width;
        }
        PS_GPU_TRY(c, gpuEventRecord(c->stage_ev[h], c->stream));
        c->stage_busy[h] = 1;
        done_rows += nr;
        h ^= 1;
    }
    if (!up && pend >= 0) {
        PS_GPU_TRY(c, gpuEventSynchronize(c->stage_ev[pend]));
        c->stage_busy[pend] = 0;
        memcpy(pend_host, c->stage[pend], pend_rows * width);
    }
    return PS_OK;
}

/*
 * A contiguous block of `bytes` on both sides: moved as rows of half a
 * staging buffer (so the two halves pipeline), then the remainder.
 */
int xfer_contig(ps_gpu_ctx *c, int up, char *dev, char *host, size_t bytes)
{
    const size_t w = PS_GPU_STAGE_BYTES / 2;
    size_t rows = bytes / w, rest = bytes % w;
    int st = PS_OK;
    if (rows)
        st = xfer_rows(c, up, dev, w, host, w, rows);
    if (!st && rest)
        st = xfer_rows(c, up, dev + rows * w, rest, host + rows * w, rest, 1);
    return st;
}

/* Region <-> packed host array, device side buf[b]; whole box when r is NULL. */
int xfer(ps_gpu_ctx *c, int up, void *host, const ps_region *r, int b)
{
    ps_region whole;
    size_t k, row, es = c->es;
    char *dev = (char *)c->buf[b], *hp = (char *)host;
    int st;
    if ((st = ps_plugin_region_check(&c->g, r, c->err, sizeof c->err)))
        return st;
    if (!r) {
        memset(&whole, 0, sizeof whole);
        whole.count = c->g;
        r = &whole;
    }
    if (!r->count.nz || !r->count.ny || !r->count.nx)
        return PS_OK;
    PS_GPU_TRY(c, gpuSetDevice(c->dev));
    if ((st = ensure_stage(c)))
        return st;
    row = r->count.nx * es;
    dev += ((r->start[0] * c->g.ny + r->start[1]) * c->g.nx + r->start[2]) * es;
    if (r->count.nx == c->g.nx && r->count.ny == c->g.ny) {
        /* whole planes: one contiguous block */
        st = xfer_contig(c, up, dev, hp, row * r->count.ny * r->count.nz);
    } else if (r->count.nx == c->g.nx) {
        /* whole rows: each plane's part is contiguous */
        for (k = 0, st = 0; k < r->count.nz && !st; k++)
            st = xfer_contig(c, up, dev + k * c->g.ny * c->g.nx * es,
                             hp + k * row * r->count.ny, row * r->count.ny);
    } else {
        for (k = 0, st = 0; k < r->count.nz && !st; k++)
            st = xfer_rows(c, up, dev + k * c->g.ny * c->g.nx * es, c->g.nx * es,
                           hp + k * row * r->count.ny, row, r->count.ny);
    }
    if (st)
        return st;
    PS_GPU_TRY(c, gpuStreamSynchronize(c->stream));
    return PS_OK;
}

} /* namespace */

int ps_gpu_ls_leave(ps_gpu_ctx *c, int b)
{
    void *h = malloc(c->bytes);
    int st;
    if (!h) {
        snprintf(c->err, sizeof c->err, "out of host memory leaving the land-sum form");
        return PS_ENOMEM;
    }
    st = xfer(c, 0, h, NULL, b);
    if (!st) {
        ps_land_restore(&c->ls, h, NULL);
        st = xfer(c, 1, h, NULL, b);
    }
    free(h);
    if (st)
        return st;
    c->ls_on = 0;
    c->launch.ls_cnt = NULL;
    return PS_OK;
}

namespace {

/*
 * An upload in the land-sum form: the cells converted on the host (a NaN to
 * +0.0, its bits kept) through a copy of the region, the count bytes sent
 * where the mask changed. Land with too many odd NaNs to keep leaves the
 * form first (the caller then uploads as usual): *done 0.
 */
int ls_upload(ps_gpu_ctx *c, const void *host, const ps_region *r, int *done)
{
    const size_t n = r ? r->count.nz * r->count.ny * r->count.nx : c->bytes / c->es;
    void *tmp;
    int st, ch = 0;
    *done = 0;
    if ((st = ps_plugin_region_check(&c->g, r, c->err, sizeof c->err)) ||
        (st = ps_gpu_ls_check(c)))
        return st;
    if (!ps_land_fits(&c->ls, host, r))
        return r ? ps_gpu_ls_leave(c, c->cur) : (c->ls_on = 0, c->launch.ls_cnt = NULL, PS_OK);
    *done = 1;
    if (!n)
        return PS_OK;
    if (!(tmp = malloc(n * c->es))) {
        snprintf(c->err, sizeof c->err, "out of host memory for the land-sum form's upload");
        return PS_ENOMEM;
    }
    if (ps_land_take(&c->ls, tmp, host, r, &ch)) {
        free(tmp);
        snprintf(c->err, sizeof c->err, "out of host memory for land's NaNs");
        return PS_ENOMEM;
    }
    st = xfer(c, 1, tmp, r, c->cur);
    free(tmp);
    if (!st && ch) {
        PS_GPU_TRY(c, gpuMemcpyAsync(c->ls_cnt, c->ls.cnt, c->bytes / c->es,
                                     gpuMemcpyHostToDevice, c->stream));
        PS_GPU_TRY(c, gpuStreamSynchronize(c->stream));
    }
    return st;
}

} /* namespace */

int ps_gpu_upload(void *vc, const void *host, const ps_region *r)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    double t0 = ps_plugin_now_ms();
    int st, done = 0;
    if (c->ls_on && ((st = ls_upload(c, host, r, &done)) || done)) {
        c->upload_ms += ps_plugin_now_ms() - t0;
        return st;
    }
    /* xfer only reads the host side of an upload */
    st = xfer(c, 1, const_cast<void *>(host), r, c->cur);
    c->upload_ms += ps_plugin_now_ms() - t0;
    return st;
}

int ps_gpu_download(void *vc, void *host, const ps_region *r)
{
    ps_gpu_ctx *c = (ps_gpu_ctx *)vc;
    double t0;
    int st;
    PS_GPU_TRY(c, gpuSetDevice(c->dev));
    PS_GPU_TRY(c, gpuStreamSynchronize(c->stream)); /* steps queued before */
    if ((st = ps_gpu_ls_check(c)))
        return st;
    t0 = ps_plugin_now_ms();
    st = xfer(c, 0, host, r, c->cur);
    if (!st && c->ls_on) {
        if ((st = ps_plugin_region_check(&c->g, r, c->err, sizeof c->err)))
            return st;
        ps_land_restore(&c->ls, host, r); /* land's NaN, on the host */
    }
    c->download_ms += ps_plugin_now_ms() - t0;
    return st;
}
