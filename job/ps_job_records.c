/*
 * A job's records: each one appended to the output (when there is one) and
 * handed to the record callback; and what a cancelled job keeps: the records
 * completed past step 0, published and marked `pstencil_interrupted`.
 */
#include "config.h"
#include "ps_job_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void ps_job_write_failed(ps_job *j, int err)
{
    const char *tmp = j->writer ? ps_writer_temp_path(j->writer) : "";
    struct stat sb;
    long long cell = ps_precision_size(j->precision);
    j->rep.write_failed = 1;
    j->rep.write_errno = err;
    j->rep.wrote_bytes = tmp[0] && stat(tmp, &sb) == 0 ? (long long)sb.st_size : -1;
    j->rep.want_bytes = (long long)(j->rep.grid.nx * j->rep.grid.ny * j->rep.grid.nz) * cell *
                        (j->expect_records > 0 ? j->expect_records : 1);
}

int ps_job_on_record(ps_job *j, long step, ps_field *const *f, int n, const size_t origin[3])
{
    int st, q;
    if (j->skip_initial && step == 0) /* already the last record of the file continued */
        return PS_OK;
    /* the reductions on a thread of their own while the field is written */
    ps_job_reduce_start(j, f, n, origin);
    if (j->writer) {
        double t = ps_now();
        int rst;
        errno = 0;
        st = ps_writer_append_fields(j->writer, step, (const ps_field *const *)f, n);
        if (st)
            ps_job_write_failed(j, errno);
        rst = ps_job_reduce_finish(j);
        if (j->ranked) /* the values are written by every rank together, or by none */
            st = j->comm.agree(j->comm.user, st);
        if (!st && !rst) {
            errno = 0;
            if ((st = ps_writer_set_reductions(j->writer, j->red, n)))
                ps_job_write_failed(j, errno);
        }
        j->rep.rank_s[4] += ps_now() - t;
        if (st || rst)
            return st ? st : rst;
    } else if ((st = ps_job_reduce_finish(j))) {
        return st;
    }
    j->rep.records++;
    if (step > 0) {
        j->completed++;
        j->rep.last_step = step;
    }
    if (j->cb.record && (st = j->cb.record(j->cb.user, step, f[0])))
        return st;
    for (q = 1; q < n; q++)
        if (j->cb.record_field && (st = j->cb.record_field(j->cb.user, step, q, f[q])))
            return st;
    return PS_OK;
}

int ps_job_keep_completed(ps_job *j, const char *why)
{
    int st = PS_OK;
    j->rep.interrupted = 1;
    j->rep.cancel_code = j->cancel_code;
    j->rep.steps = j->rep.last_step; /* the state kept is the last completed record's */
    snprintf(j->rep.interrupted_why, sizeof j->rep.interrupted_why, "%s after step %ld of %ld",
             why, j->rep.last_step, j->steps);
    if (!j->completed) {
        j->rep.records = 0;
        return ps_error(PS_ECANCELED, "stopped (%s) before the first record after step 0 was "
                        "complete: nothing written", why);
    }
    if (j->writer) {
        st = ps_writer_mark_interrupted(j->writer, j->rep.interrupted_why);
        if (j->ranked)
            st = j->comm.agree(j->comm.user, st);
        if (!st)
            st = ps_writer_commit(j->writer);
        if (j->ranked)
            st = j->comm.agree(j->comm.user, st);
        if (st)
            return ps_error(st, "stopped (%s), and the completed records could not be kept: %s",
                            why, ps_error_detail());
        j->rep.records = ps_writer_records(j->writer);
    }
    return ps_error(PS_ECANCELED, "stopped (%s): the %zu completed records were kept",
                    why, j->rep.records);
}
