/* The time-stepping driver. */
#include "config.h"
#include "ps_driver.h"
#include "ps_status.h"
#include "ps_timer.h"

#include <stdlib.h>
#include <string.h>

int ps_run(ps_backend *b, const ps_config *cfg_in, ps_field *field, const ps_run_options *opt,
           ps_run_stats *stats)
{
    ps_config cfg = *cfg_in;
    ps_context *ctx = NULL;
    ps_run_stats st;
    double t0 = ps_now(), t;
    long done = 0, chunk_cap;
    int rc = PS_OK;

    memset(&st, 0, sizeof st);
    if (opt->steps < 0)
        return ps_error(PS_EINVAL, "negative step count %ld", opt->steps);
    if (opt->every < 0)
        return ps_error(PS_EINVAL, "negative snapshot interval %ld", opt->every);
    if (cfg.precision != field->precision)
        return ps_error(PS_EINVAL, "config precision %s differs from field precision %s",
                        ps_precision_name(cfg.precision), ps_precision_name(field->precision));
    cfg.box = ps_box_whole(field->grid);

    t = ps_now();
    rc = ps_context_create(b, &cfg, &ctx);
    st.create_s = ps_now() - t;
    if (rc)
        goto done;
    t = ps_now();
    rc = ps_context_upload(ctx, field->data, NULL);
    if (!rc)
        rc = ps_context_finish(ctx);
    st.upload_s = ps_now() - t;
    if (rc)
        goto done;
    if (opt->snapshot) {
        t = ps_now();
        if (opt->snapshot(opt->user, 0, field))
            rc = ps_error(PS_EIO, "%s", ps_error_detail()[0] ? ps_error_detail() : "snapshot failed");
        st.snapshot_s += ps_now() - t;
        if (rc)
            goto done;
    }
    if (cfg.profile && opt->steps > 0) {
        st.step_times = malloc((size_t)opt->steps * sizeof *st.step_times);
        if (!st.step_times) {
            rc = ps_error(PS_ENOMEM, "out of memory for %ld step times", opt->steps);
            goto done;
        }
    }
    /* progress granularity: about 20 updates. Backends may fuse the steps of
     * one call (temporal blocking, graphs), so calls are kept as long as the
     * snapshots allow when nobody watches the progress. */
    chunk_cap = opt->steps / 20;
    if (chunk_cap < 1)
        chunk_cap = 1;
    while (done < opt->steps) {
        long next_stop = opt->steps;
        long n;
        if (opt->every > 0) {
            long ns = (done / opt->every + 1) * opt->every;
            if (ns < next_stop)
                next_stop = ns;
        }
        n = next_stop - done;
        if (opt->progress && n > chunk_cap)
            n = chunk_cap;
        if (st.step_times)
            n = 1;
        t = ps_now();
        rc = ps_context_step(ctx, n);
        if (!rc)
            rc = ps_context_finish(ctx);
        t = ps_now() - t;
        if (rc)
            goto done;
        st.step_s += t;
        if (st.step_times)
            st.step_times[done] = t;
        done += n;
        if (opt->progress)
            opt->progress(opt->user, done, opt->steps, st.step_s);
        if (opt->snapshot && (done == opt->steps || (opt->every > 0 && done % opt->every == 0))) {
            t = ps_now();
            rc = ps_context_download(ctx, field->data, NULL);
            st.download_s += ps_now() - t;
            if (rc)
                goto done;
            t = ps_now();
            if (opt->snapshot(opt->user, done, field))
                rc = ps_error(PS_EIO, "%s",
                              ps_error_detail()[0] ? ps_error_detail() : "snapshot failed");
            st.snapshot_s += ps_now() - t;
            if (rc)
                goto done;
        }
    }
    if (!opt->snapshot || opt->steps == 0) {
        t = ps_now();
        rc = ps_context_download(ctx, field->data, NULL);
        st.download_s += ps_now() - t;
        if (rc)
            goto done;
    }
    st.steps = done;
    if (ps_context_timing(ctx, &st.device) == PS_OK)
        st.have_device_timing = 1;
    ps_error_clear();
done:
    ps_context_destroy(ctx);
    st.total_s = ps_now() - t0;
    if (stats)
        *stats = st;
    else
        free(st.step_times);
    return rc;
}
