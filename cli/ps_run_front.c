/*
 * What both forms of `pstencil run` (one process, MPI) do around the job:
 * the callbacks (notes, progress bar, signals as cancel) and turning a
 * failed job into a message and an exit status.
 */
#include "config.h"
#include "ps_run_args.h"
#include "ps_cli.h"
#include "ps_run_restart.h"

#include <errno.h>
#include <string.h>

static void draw(long done, long total, double elapsed)
{
    const int width = 30;
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    double eta = rate > 0 ? (double)(total - done) / rate : 0;
    int filled = total > 0 ? (int)((double)width * (double)done / (double)total) : width, i;
    char bar[64];
    for (i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld steps  %.1f steps/s  ETA %.1f s   ", bar, done, total, rate,
            eta);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}

static void on_progress(void *user, long done, long total, double elapsed)
{
    ps_run_bar *b = user;
    double now = ps_now();
    if (!b->on || (done != total && now - b->last_draw < 0.1))
        return;
    b->last_draw = now;
    draw(done, total, elapsed);
}

static int on_record(void *user, long step, const ps_field *f)
{
    (void)user;
    (void)f;
    /* from the first record past step 0 on, a first signal stops the run at its next
     * record and keeps these; before it, a signal stops at once, nothing kept */
    if (step > 0)
        ps_signals_defer(1);
    return 0;
}

static int on_cancel(void *user)
{
    (void)user;
    return ps_signal_pending();
}

static const char *cancel_reason(void *user, int code)
{
    (void)user;
    return ps_signal_name(code);
}

static void on_note(void *user, const char *text)
{
    (void)user;
    if (!strncmp(text, "warning: ", 9))
        ps_cli_warn("%s", text + 9);
    else
        fprintf(stderr, "pstencil: %s\n", text);
}

void ps_run_callbacks(ps_job_callbacks *cb, ps_run_bar *bar, const ps_run_front *f)
{
    memset(cb, 0, sizeof *cb);
    bar->on = f->progress && !f->quiet && ps_cli_isatty();
    bar->last_draw = 0;
    cb->progress = bar->on ? on_progress : NULL;
    cb->record = on_record;
    cb->cancel = on_cancel;
    cb->cancel_reason = cancel_reason;
    cb->note = f->quiet ? NULL : on_note;
    cb->user = bar;
}

void ps_run_explain(FILE *out, const ps_run_stats *stats, const char *backend)
{
    const char *p = stats->knobs, *nl;
    if (!*p) {
        fprintf(out, "  knobs       : none (backend %s has no tuning knobs)\n", backend);
        return;
    }
    fprintf(out, "  knobs       : what decided each (option > tuning cache > environment > "
                 "rule)\n");
    while (*p) {
        nl = strchr(p, '\n');
        fprintf(out, "    %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
        if (!nl)
            break;
        p = nl + 1;
    }
}

int ps_run_failed(const ps_job *j, int st, const ps_run_front *f, int print)
{
    const ps_job_report *r = ps_job_get_report(j);
    int sig = r->cancel_code;
    if (!print)
        return r->interrupted && sig ? 128 + sig : r->blew_up ? PS_EXIT_BLOWUP : PS_EXIT_USAGE;
    if (ps_cli_isatty() && f->progress && !f->quiet)
        fputc('\n', stderr);
    if (r->interrupted && sig) {
        if (st == PS_ECANCELED)
            ps_run_interrupted_say(sig, r->output ? r->output : "the output", r->records,
                                   r->last_step, r->steps_total);
        else
            ps_cli_error("%s", ps_error_detail());
        return 128 + sig;
    }
    if (r->blew_up) {
        ps_cli_error("%s", ps_error_detail());
        return PS_EXIT_BLOWUP;
    }
    if (r->write_failed)
        return ps_cli_write_error(st, r->output ? r->output : "output", r->write_errno,
                                  r->wrote_bytes, r->want_bytes);
    return ps_cli_error("%s", ps_error_detail());
}
