/*
 * pstencil run in one process: the command line into a job (job/pstencil_job.h),
 * the job prepared and run, then the front end's own outputs (the report, the
 * --profile JSON, the --plot images). Under mpirun (or with --decomp) the MPI
 * run (cli/cmd_run_mpi.c) drives the same job over ranks.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_run_args.h"
#include "ps_run_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PS_HAVE_PLPLOT
#include "ps_plot.h"
#endif

/* --plot DIR: a directory (or one that can be made in an existing writable parent)
 * where the three images may be written, checked before the run. */
static int check_plot_dir(const ps_run_front *a, const char *stem)
{
    static const char *const kinds[3] = {"before", "after", "diff"};
    struct stat sb;
    char path[4200];
    int i, st;
    if (stat(a->plot_dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode))
            return ps_cli_error("--plot %s: not a directory", a->plot_dir);
        if (access(a->plot_dir, W_OK | X_OK))
            return ps_cli_error("--plot %s: directory is not writable: %s", a->plot_dir,
                                strerror(errno));
        for (i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s_%s.png", a->plot_dir, stem, kinds[i]);
            if ((st = ps_outfile_check(path, a->input, a->force, "--plot image")))
                return ps_cli_status_error(st, path);
        }
        return 0;
    }
    /* the directory will be made: its parent must be writable */
    if ((st = ps_outfile_check(a->plot_dir, a->input, 0, "--plot directory")))
        return ps_cli_status_error(st, a->plot_dir);
    return 0;
}

/* The report as the program prints it, from the job's. */
static void report(const ps_job *j, const ps_run_front *f, run_report *rep)
{
    const ps_job_report *r = ps_job_get_report(j);
    memset(rep, 0, sizeof *rep);
    rep->backend = r->backend;
    rep->backend_path = r->backend_path;
    rep->backend_origin = r->backend_origin;
    rep->device = &r->device;
    rep->input = r->input;
    rep->output = r->output;
    rep->field = ps_job_result(j);
    rep->precision = r->precision;
    rep->mode = r->mode;
    rep->stencil = r->stencil;
    rep->options = r->options;
    rep->seconds_per_step = r->seconds_per_step;
    rep->stable_limit = r->stable_limit;
    rep->stats = &r->stats;
    rep->read_s = r->read_s;
    rep->backend_s = r->backend_s;
    rep->prepare_s = r->prepare_s;
    rep->open_s = r->open_s;
    rep->commit_s = r->commit_s;
    rep->total_s = r->total_s;
    rep->threads = r->threads;
    rep->backend_flags = r->backend_flags;
    rep->host_peak_mib = (double)r->host_peak_bytes / 1048576.0;
    rep->job = r;
    (void)f;
}

/* --profile FILE: checked before the run against the input and the output */
static int check_profile(const ps_run_front *f)
{
    int st = ps_outfile_check(f->profile, f->input, f->force, "--profile");
    if (!st && f->output)
        st = ps_outfile_check(f->profile, f->output, 1, "--profile");
    return st ? ps_cli_status_error(st, f->profile) : 0;
}

int ps_cmd_run(int argc, char **argv)
{
    ps_job *j = NULL;
    ps_run_front f;
    ps_job_callbacks cb;
    ps_run_bar bar;
    run_report rep;
    int st, rc = PS_EXIT_USAGE;

#ifdef PS_HAVE_MPI
    /* started by mpirun (or given --decomp): one box per rank (cli/cmd_run_mpi.c) */
    if (ps_cmd_run_mpi_wanted(argc, argv))
        return ps_cmd_run_mpi(argc, argv);
#endif
    if (ps_job_create(&j))
        return ps_cli_error("%s", ps_error_detail());
    memset(&f, 0, sizeof f);
    if ((st = ps_run_args_parse(argc, argv, j, &f))) {
        rc = ps_cli_error("%s", ps_error_detail());
        goto done;
    }
    if (f.help) {
        ps_run_usage(stdout);
        rc = PS_EXIT_OK;
        goto done;
    }
    if (f.profile && (rc = check_profile(&f)))
        goto done;
    ps_run_callbacks(&cb, &bar, &f);
    ps_job_set_callbacks(j, &cb);
    ps_job_set_history(j, ps_cli_cmdline);
    ps_job_set_default_output(j, "output/predicted_temperatures_%s.nc");
    ps_job_keep_initial(j, f.plot_dir != NULL);
    ps_job_time_steps(j, f.profile != NULL);
    if ((st = ps_job_prepare(j))) {
        rc = ps_cli_error("%s", ps_error_detail());
        goto done;
    }
    /* a device runtime may have set its own signal handlers while loading: ours
     * must remove the temporary files */
    ps_signals_install("pstencil");
    if (f.plot_dir && (rc = check_plot_dir(&f, ps_job_get_report(j)->backend)))
        goto done;
    st = ps_job_run(j);
    ps_signals_defer(0);
    if (st) {
        rc = ps_run_failed(j, st, &f, 1);
        goto done;
    }
#ifdef PS_HAVE_PLPLOT
    if (f.plot_dir) {
        st = ps_plot_run_images(f.plot_dir, ps_job_dataset(j), ps_job_initial(j), ps_job_result(j),
                                ps_job_get_report(j)->backend, f.force);
        if (st) {
            rc = ps_cli_status_error(st, "--plot");
            goto done;
        }
    }
#else
    if (f.plot_dir)
        ps_cli_warn("--plot ignored: pstencil was built without PLplot");
#endif
    report(j, &f, &rep);
    if (!f.quiet)
        ps_run_report_print(stdout, &rep);
    if (f.explain)
        ps_run_explain(stdout, &ps_job_get_report(j)->stats, ps_job_get_report(j)->backend);
    if (f.profile) {
        if ((st = ps_run_report_json(f.profile, &rep, f.force))) {
            rc = ps_cli_status_error(st, f.profile);
            goto done;
        }
        if (!f.quiet)
            printf("  profile     : %s\n", f.profile);
    }
    rc = PS_EXIT_OK;
done:
    ps_job_destroy(j);
    return rc;
}
