/*
 * pstencil run under MPI (built with ./configure --enable-mpi; taken when the
 * program was started by mpirun/mpiexec/srun, or given --decomp): the same
 * command line and job as one process (cli/ps_run_args.c, job/), run over the
 * ranks (mpi/ps_mpi_job.c): one box of the decomposition per rank, halos
 * exchanged over a Cartesian communicator, one netCDF-4 file written by every
 * rank. Every failure is agreed: every rank stops, rank 0 prints the one
 * message, the status is 2 and no output file exists. The result is bitwise
 * the one-process result; the checksum is the one-process checksum.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_mpi.h"
#include "ps_run_args.h"
#include "ps_run_report.h"

#include <stdlib.h>
#include <string.h>

int ps_cmd_run_mpi_wanted(int argc, char **argv)
{
    /* the launchers' environment: Open MPI, PMI (MPICH, Slurm's srun), PMIx, MVAPICH */
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                       "MPI_LOCALNRANKS", "MV2_COMM_WORLD_SIZE"};
    size_t v;
    int i;
    for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strncmp(argv[i], "--decomp", 8))
            return 1;
    for (v = 0; v < sizeof vars / sizeof vars[0]; v++)
        if (getenv(vars[v]))
            return 1;
    return 0;
}

/* Rank 0's report of a run over ranks. */
static void report(const ps_job_report *r)
{
    const double *t = r->rank_s; /* read, setup, step, exchange, write: largest over ranks */
    double loop = t[2] + t[3];
    int i;
    printf("pstencil run (MPI)\n");
    printf("  ranks       : %d, decomposition %dx%dx%d (k x j x i), halo %u (an exchange "
           "every %ld step%s)\n", r->ranks, r->split[0], r->split[1], r->split[2], r->halo,
           r->exchange_every, r->exchange_every == 1 ? "" : "s");
    printf("  input       : %s\n", r->input);
    for (i = 0; i < r->ninputs && i < PS_JOB_MAX_INPUTS; i++)
        printf("  input %-5s : %s\n", r->input_names[i], r->input_from[i]);
    printf("  output      : %s\n", r->output);
    printf("  backend     : %s, device %s on rank 0\n", r->backend, r->device.name);
    printf("  stencil     : %s, %s, %s mode\n", r->stencil->name,
           ps_precision_name(r->precision), ps_mode_name(r->mode));
    printf("  grid        : %zu x %zu x %zu (depth x lat x lon)\n", r->grid.nz, r->grid.ny,
           r->grid.nx);
    printf("  steps       : %ld\n", r->steps);
    printf("  time        : %.3f s total; stepping %.3f s, exchange %.3f s (%.1f%% of the "
           "loop), read %.3f s, write %.3f s (I/O %.1f%% of the total); largest over ranks\n",
           r->total_s, t[2], t[3], loop > 0 ? 100.0 * t[3] / loop : 0.0, t[0], t[4],
           r->total_s > 0 ? 100.0 * (t[0] + t[4]) / r->total_s : 0);
    printf("  exchange    : rank 0 sent %ld messages, %.0f bytes\n", r->messages,
           r->message_bytes);
    printf("  timing      : ranks=%d total=%.6f step=%.6f exchange=%.6f read=%.6f write=%.6f\n",
           r->ranks, r->total_s, t[2], t[3], t[0], t[4]);
    printf("  checksum    : 0x%016llx (FNV-1a of the final field's bits)\n",
           (unsigned long long)r->checksum);
    ps_run_report_checksums(stdout, r);
    ps_run_report_reductions(stdout, r);
}

/* --profile FILE on rank 0: the report's figures as JSON */
static int profile(const ps_job *j, const char *path, int force)
{
    const ps_job_report *r = ps_job_get_report(j);
    run_report rep;
    memset(&rep, 0, sizeof rep);
    rep.backend = r->backend;
    rep.backend_path = r->backend_path;
    rep.backend_origin = r->backend_origin;
    rep.device = &r->device;
    rep.input = r->input;
    rep.output = r->output;
    rep.precision = r->precision;
    rep.mode = r->mode;
    rep.stencil = r->stencil;
    rep.options = r->options;
    rep.seconds_per_step = r->seconds_per_step;
    rep.stable_limit = r->stable_limit;
    rep.stats = &r->stats;
    rep.read_s = r->rank_s[0];
    rep.total_s = r->total_s;
    rep.threads = r->threads;
    rep.backend_flags = r->backend_flags;
    rep.grid = r->grid;
    rep.checksum = r->checksum;
    rep.have_checksum = 1;
    rep.job = r;
    return ps_run_report_json(path, &rep, force);
}

int ps_cmd_run_mpi(int argc, char **argv)
{
    ps_job *j = NULL;
    ps_run_front f;
    ps_job_callbacks cb;
    ps_job_comm comm;
    ps_mpi_job mj;
    ps_run_bar bar;
    int inited = 0, rc, st;

    MPI_Initialized(&inited); /* a caller that started MPI finalizes it */
    if (ps_mpi_start() != PS_OK) {
        fprintf(stderr, "pstencil: error: MPI_Init failed\n");
        return PS_EXIT_USAGE;
    }
    ps_mpi_job_init(&mj, &comm);
    memset(&f, 0, sizeof f);
    f.ranks = 1;
    st = ps_job_create(&j);
    if (!st)
        st = ps_run_args_parse(argc, argv, j, &f);
    if (!st && f.help)
        st = ps_error(PS_EINVAL, "under MPI, see 'pstencil run --help' without mpirun and "
                      "docs/user-guide.md (MPI)");
    if (!st && comm.rank == 0 && f.profile) {
        st = ps_outfile_check(f.profile, f.input, f.force, "--profile");
        if (!st && f.output)
            st = ps_outfile_check(f.profile, f.output, 1, "--profile");
    }
    st = ps_mpi_agree(MPI_COMM_WORLD, st);
    if (!st) {
        f.progress = 0; /* ranks print no progress bar */
        ps_run_callbacks(&cb, &bar, &f);
        ps_job_set_callbacks(j, &cb);
        ps_job_set_history(j, ps_cli_cmdline);
        ps_job_time_steps(j, 0);
        st = ps_job_set_comm(j, &comm);
    }
    if (!st)
        st = ps_job_prepare(j);
    ps_signals_install("pstencil");
    if (!st)
        st = ps_job_run(j);
    ps_signals_defer(0);
    if (st) {
        rc = ps_run_failed(j, st, &f, comm.rank == 0);
    } else {
        rc = PS_EXIT_OK;
        if (comm.rank == 0 && !f.quiet)
            report(ps_job_get_report(j));
        if (comm.rank == 0 && f.explain)
            ps_run_explain(stdout, &ps_job_get_report(j)->stats, ps_job_get_report(j)->backend);
        if (comm.rank == 0 && f.profile && (st = profile(j, f.profile, f.force)))
            rc = ps_cli_status_error(st, f.profile);
        if (comm.rank == 0 && f.profile && !st && !f.quiet)
            printf("  profile     : %s\n", f.profile);
    }
    /* every rank gets here together (each failure was agreed): the collective close */
    ps_job_destroy(j);
    ps_mpi_job_free(&mj);
    if (!inited)
        MPI_Finalize();
    return rc;
}
