/*
 * pstencil run under MPI (built with ./configure --enable-mpi; taken when the
 * program was started by mpirun/mpiexec/srun, or given --decomp): one box of
 * the decomposition (core/ps_decomp.h) per rank, halos exchanged over a
 * Cartesian communicator every g/radius steps (mpi/ps_mpi_transport.c), each
 * rank reading only its block and all writing one netCDF-4 file together
 * (mpi/ps_mpi_io.c). Every step that can fail on one rank ends in a
 * collective agreement (ps_mpi_agree): every rank stops, rank 0 prints the one
 * message, the status is 2 and no output file exists. The result is bitwise
 * the one-process result; the checksum is the one-process checksum.
 */
#include "config.h"
#include "ps_cli.h"
#include "ps_mpi.h"
#include "ps_run_options.h"
#include "ps_run_restart.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct mpi_args {
    const char *input, *output, *var, *backend, *stencil_name, *decomp, *coeff, *dt;
    long steps, time_index, every, device, threads, halo;
    int force, quiet, keep_nonfinite;
    ps_precision precision;
    ps_mode mode;
} mpi_args;

enum { M_DECOMP = PS_RUN_OPT_OWN, M_DT, M_UNSUPPORTED };

static const struct option mpi_opts[] = {
    PS_RUN_SHARED_OPTIONS,
    {"coeff", required_argument, NULL, 'D'},
    {"dt", required_argument, NULL, M_DT},
    {"decomp", required_argument, NULL, M_DECOMP},
    {"split", required_argument, NULL, M_UNSUPPORTED},
    {"devices", required_argument, NULL, M_UNSUPPORTED},
    {"profile", required_argument, NULL, M_UNSUPPORTED},
    {"plot", required_argument, NULL, M_UNSUPPORTED},
    {"compress", required_argument, NULL, M_UNSUPPORTED},
    {"block", required_argument, NULL, M_UNSUPPORTED},
    {"local-size", required_argument, NULL, M_UNSUPPORTED},
    {"allow-unstable", no_argument, NULL, M_UNSUPPORTED},
    {NULL, 0, NULL, 0},
};

/* A parse error as a status with its message (printed once, by rank 0, after agreeing). */
static int bad(const char *fmt, const char *a, const char *b)
{
    return ps_error(PS_EINVAL, fmt, a, b);
}

/* Status @p st with "PREFIX: <the current detail>". */
static int wrap(int st, const char *prefix)
{
    char keep[2048];
    snprintf(keep, sizeof keep, "%s", ps_error_detail()[0] ? ps_error_detail() : ps_strerror(st));
    return ps_error(st, "%s: %s", prefix, keep);
}

static int parse_long(const char *opt, const char *s, long min, long *out)
{
    char *end;
    long v;
    v = strtol(s, &end, 10);
    if (!*s || *end || v < min || v > LONG_MAX / 2)
        return ps_error(PS_EINVAL, "%s '%s': expected an integer >= %ld", opt, s, min);
    *out = v;
    return PS_OK;
}

static int parse_args(int argc, char **argv, mpi_args *a)
{
    int c, li, st = PS_OK;
    memset(a, 0, sizeof *a);
    a->steps = 100;
    a->device = -1;
    a->precision = PS_FLOAT32;
    a->mode = PS_MODE_EXACT;
    optind = 1;
    opterr = 0;
    while (!st && (c = getopt_long(argc, argv, ":o:n:s:D:p:b:d:t:fqh", mpi_opts, &li)) != -1) {
        switch (c) {
        case 'o': a->output = optarg; break;
        case 'n': st = parse_long("--steps", optarg, 0, &a->steps); break;
        case PS_RUN_OPT_DATAFILE: a->input = optarg; break;
        case 's': a->stencil_name = optarg; break;
        case 'D': a->coeff = optarg; break;
        case M_DT: a->dt = optarg; break;
        case 'p':
            if (ps_precision_parse(optarg, &a->precision))
                st = wrap(PS_EINVAL, "--precision");
            break;
        case PS_RUN_OPT_MODE:
            if (ps_mode_parse(optarg, &a->mode))
                st = wrap(PS_EINVAL, "--mode");
            break;
        case 'b': a->backend = optarg; break;
        case 'd': st = parse_long("--device", optarg, 0, &a->device); break;
        case 't':
            st = parse_long("--threads", optarg, 1, &a->threads);
            if (!st && a->threads > PS_THREADS_MAX)
                st = ps_error(PS_EINVAL, "--threads %ld is out of range (1..%d)", a->threads,
                              PS_THREADS_MAX);
            break;
        case PS_RUN_OPT_VAR: a->var = optarg; break;
        case PS_RUN_OPT_TIME: st = parse_long("--time-index", optarg, 0, &a->time_index); break;
        case PS_RUN_OPT_EVERY: st = parse_long("--output-every", optarg, 1, &a->every); break;
        case 'f': a->force = 1; break;
        case PS_RUN_OPT_KEEPNF: a->keep_nonfinite = 1; break;
        case M_DECOMP: a->decomp = optarg; break;
        case PS_RUN_OPT_HALO: st = parse_long("--halo", optarg, 1, &a->halo); break;
        case 'q': a->quiet = 1; break;
        case PS_RUN_OPT_NOPROGRESS: break;
        case 'h':
            st = ps_error(PS_EINVAL, "under MPI, see 'pstencil run --help' without mpirun and "
                          "docs/user-guide.md (MPI)");
            break;
        case M_UNSUPPORTED:
            st = bad("--%s is not supported in an MPI run (docs/user-guide.md, MPI)%s",
                     mpi_opts[li].name, "");
            break;
        case ':': st = bad("option %s needs a value%s", argv[optind - 1], ""); break;
        default: st = bad("unknown or unsupported option %s in an MPI run%s",
                          argv[optind - 1], "");
        }
    }
    if (!st && optind < argc)
        a->input = argv[optind++];
    if (!st && optind < argc)
        st = bad("unexpected argument '%s'%s", argv[optind], "");
    if (!st && !a->output)
        st = bad("an MPI run needs -o OUTPUT.nc%s%s", "", "");
    return st;
}

/* The owned block of a stored block: a region in the box's coordinates. */
static ps_region owned_region(const ps_decomp_box *b)
{
    ps_region r;
    int a;
    for (a = 0; a < 3; a++)
        r.start[a] = b->own_lo[a] - b->box.origin[a];
    r.count = (ps_grid){b->own_hi[0] - b->own_lo[0], b->own_hi[1] - b->own_lo[1],
                        b->own_hi[2] - b->own_lo[2]};
    return r;
}

static double value_at(const ps_field *f, size_t c)
{
    return f->precision == PS_FLOAT64 ? ((const double *)f->data)[c]
                                      : (double)((const float *)f->data)[c];
}

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

/* What each rank measured; rank 0 reports the largest over the ranks. */
enum { T_READ, T_SETUP, T_STEP, T_EXCHANGE, T_WRITE, T_TOTAL, T_N };

int ps_cmd_run_mpi(int argc, char **argv)
{
    mpi_args a;
    ps_dataset ds;
    ps_field block, own, f32;
    ps_decomp d;
    ps_backend *b = NULL;
    ps_context *ctx = NULL;
    ps_config cfg;
    ps_params params;
    ps_stencil_setup setup;
    ps_stencil_report srep;
    ps_grid_coords coords;
    ps_write_options wo;
    ps_writer *writer = NULL;
    ps_mpi_writer mw;
    ps_mpi_transport mt;
    ps_decomp_transport tr;
    ps_region own_r;
    const ps_stencil *stencil = NULL;
    ps_device_info devs[16];
    double options[64], tm[T_N] = {0}, tmax[T_N], t, t0;
    unsigned char *land = NULL;
    char source[1024], why[512];
    int rank = 0, size = 1, st, rc = PS_EXIT_USAGE, ndev = 0, dev = 0, node_rank, node_size;
    int split[3], have_mt = 0, inited = 0, blew = 0, q;
    long done = 0, per_round, completed = 0, last_step = 0;
    int stop_sig = 0; /* the signal that stopped every rank at a record (agreed) */
    unsigned halo;
    uint64_t sum = 0;
    MPI_Comm cart = MPI_COMM_NULL;

    memset(&ds, 0, sizeof ds);
    ds.ncid = -1;
    memset(&block, 0, sizeof block);
    memset(&own, 0, sizeof own);
    memset(&f32, 0, sizeof f32);
    memset(&d, 0, sizeof d);
    memset(&params, 0, sizeof params);
    memset(&coords, 0, sizeof coords);
    memset(&srep, 0, sizeof srep);
    MPI_Initialized(&inited); /* a caller that started MPI finalizes it */
    if (ps_mpi_start() != PS_OK) {
        fprintf(stderr, "pstencil: error: MPI_Init failed\n");
        return PS_EXIT_USAGE;
    }
    t0 = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    node_rank = ps_mpi_node_rank(MPI_COMM_WORLD, &node_size);

#define AGREE(comm, s)                                                                        \
    do {                                                                                      \
        if ((st = ps_mpi_agree((comm), (s))))                                                 \
            goto fail;                                                                        \
    } while (0)

    /* 1. arguments and the output path: every rank parses, rank 0 checks the file */
    st = parse_args(argc, argv, &a);
    if (!st && rank == 0)
        st = ps_outfile_check(a.output, a.input, a.force, "output");
    AGREE(MPI_COMM_WORLD, st);
    stencil = a.stencil_name ? ps_stencil_find(a.stencil_name) : ps_stencil_default();
    st = stencil ? PS_OK : bad("--stencil: unknown stencil '%s'%s", a.stencil_name, "");
    if (!st && stencil->noptions > 64)
        st = bad("stencil %s has too many options%s", stencil->name, "");
    if (!st) {
        ps_stencil_default_options(stencil, options);
        if (a.coeff) {
            int idx = ps_stencil_option_index(stencil, "coeff");
            char *end;
            if (idx < 0)
                st = bad("-D/--coeff is not an option of stencil %s%s", stencil->name, "");
            else
                options[idx] = strtod(a.coeff, &end);
            if (!st && (*end || !(options[idx] >= 0 && options[idx] <= 1)))
                st = bad("-D/--coeff '%s': expected a number in 0..1 (stencil %s)", a.coeff,
                         stencil->name);
        }
    }
    AGREE(MPI_COMM_WORLD, st);

    /* 2. the input's header (every rank), or the built-in ocean */
    t = MPI_Wtime();
    if (a.input) {
        st = ps_dataset_open(&ds, a.input, a.var);
        if (!st && (size_t)a.time_index >= ds.ntime)
            st = ps_error(PS_ERANGE, "--time-index %ld is out of range: %s has %zu time "
                          "records", a.time_index, a.input, ds.ntime);
        if (!st) /* the output's time axis continues the input's */
            st = ps_dataset_check_time(&ds, (size_t)a.time_index);
    } else {
        ps_ocean_options oo;
        ps_ocean_defaults(&oo);
        st = (size_t)a.time_index >= oo.ntime
                 ? ps_error(PS_ERANGE, "--time-index %ld is out of range: the built-in ocean "
                            "has %zu time records", a.time_index, oo.ntime)
                 : ps_ocean_generate(&oo, (size_t)a.time_index, &ds, &f32);
    }
    AGREE(MPI_COMM_WORLD, st);

    /* 3. the decomposition: --decomp, else the split of P with the least halo surface */
    if (a.decomp) {
        st = ps_decomp_parse_split(a.decomp, ds.grid, split);
        if (!st && split[0] * split[1] * split[2] != size)
            st = ps_error(PS_EINVAL, "--decomp %s has %d boxes, but %d ranks run", a.decomp,
                          split[0] * split[1] * split[2], size);
    } else {
        st = ps_decomp_factor(size, ds.grid, split);
    }
    halo = a.halo ? (unsigned)a.halo : 2u * (unsigned)stencil->radius;
    if (!st && halo < (unsigned)stencil->radius)
        st = ps_error(PS_EINVAL, "--halo %u: stencil %s needs at least its radius %d", halo,
                      stencil->name, stencil->radius);
    if (!st)
        st = ps_decomp_create(&d, ds.grid, split, halo);
    if (st)
        st = wrap(st, "--decomp");
    AGREE(MPI_COMM_WORLD, st);
    {
        int periods[3] = {0, 0, 0};
        MPI_Cart_create(MPI_COMM_WORLD, 3, split, periods, 0, &cart);
    }

    /* 4. this rank's block (owned cells and ghosts) */
    if (a.input) {
        st = ps_mpi_read_block(&ds, (size_t)a.time_index, &d.boxes[rank], a.precision, &block);
    } else {
        const ps_decomp_box *bx = &d.boxes[rank];
        st = ps_field_alloc(&block, bx->box.extent, a.precision);
        if (!st) {
            size_t k, j, i, c = 0;
            for (k = 0; k < bx->box.extent.nz; k++)
                for (j = 0; j < bx->box.extent.ny; j++)
                    for (i = 0; i < bx->box.extent.nx; i++, c++) {
                        float v = ((const float *)f32.data)[ps_index(
                            &f32.grid, bx->box.origin[0] + k, bx->box.origin[1] + j,
                            bx->box.origin[2] + i)];
                        if (a.precision == PS_FLOAT64)
                            ((double *)block.data)[c] = (double)v;
                        else
                            ((float *)block.data)[c] = v;
                    }
        }
        ps_field_free(&f32); /* each rank keeps only its block */
    }
#ifdef PS_TEST_HOOKS
    /* fault injection, in builds configured with --enable-test-hooks only */
    if (!st && getenv("PSTENCIL_MPI_FAIL_RANK") && atoi(getenv("PSTENCIL_MPI_FAIL_RANK")) == rank)
        st = ps_error(PS_EIO, "%s: rank %d cannot read its block (PSTENCIL_MPI_FAIL_RANK, a "
                      "test hook)", a.input ? a.input : "built-in ocean", rank);
#endif
    AGREE(cart, st);
    tm[T_READ] = MPI_Wtime() - t;

    /* the input's ocean: finite (NaN is land), refused if it has none or an infinity */
    own_r = owned_region(&d.boxes[rank]);
    st = ps_field_alloc(&own, own_r.count, a.precision);
    if (!st && !(land = malloc(own_r.count.nz * own_r.count.ny * own_r.count.nx + 1)))
        st = ps_error(PS_ENOMEM, "out of memory for the land mask");
    AGREE(cart, st);
    {
        long long cnt[2] = {0, 0}, all[2];
        size_t k, j, i, c = 0;
        for (k = 0; k < own_r.count.nz; k++)
            for (j = 0; j < own_r.count.ny; j++)
                for (i = 0; i < own_r.count.nx; i++, c++) {
                    double v = value_at(&block, ps_index(&block.grid, own_r.start[0] + k,
                                                         own_r.start[1] + j, own_r.start[2] + i));
                    land[c] = isnan(v) ? 1 : 0;
                    cnt[0] += !isnan(v);
                    cnt[1] += isinf(v) ? 1 : 0;
                }
        MPI_Allreduce(cnt, all, 2, MPI_LONG_LONG, MPI_SUM, cart);
        st = PS_OK;
        if (!all[0])
            st = ps_error(PS_EINVAL, "%s: no ocean cells: every value of '%s' at time index %ld "
                          "is land or missing (NaN or the fill value); there is nothing to run",
                          a.input ? a.input : "built-in ocean", ds.var_name, a.time_index);
        else if (all[1] && !a.keep_nonfinite)
            st = ps_error(PS_EINVAL, "%s: %lld ocean cell%s of '%s' at time index %ld %s "
                          "infinite; refused (give --keep-nonfinite to keep them)",
                          a.input ? a.input : "built-in ocean", all[1], all[1] == 1 ? "" : "s",
                          ds.var_name, a.time_index, all[1] == 1 ? "is" : "are");
        AGREE(cart, st);
    }

    /* 5. the stencil's parameters (global grid), the backend, this rank's device */
    t = MPI_Wtime();
    if (stencil->flags & PS_STENCIL_COORDS)
        st = ps_dataset_coords(&ds, &coords);
    if (!st) {
        memset(&setup, 0, sizeof setup);
        setup.grid = ds.grid;
        setup.depth = coords.depth;
        setup.lat = coords.lat;
        setup.lon = coords.lon;
        setup.options = options;
        st = ps_stencil_prepare(stencil, &setup, &params, &srep);
    }
    if (!st && a.dt) {
        char *end;
        double v = strtod(a.dt, &end);
        if (*end || !(v > 0))
            st = bad("--dt '%s': expected a positive number of seconds%s", a.dt, "");
        else if (!(srep.seconds_per_step > 0))
            srep.seconds_per_step = v;
    }
    AGREE(cart, st);
    {
        const char *bname = a.backend ? a.backend : getenv("PSTENCIL_BACKEND");
        if (!bname || !*bname || !strcmp(bname, "auto"))
            st = ps_backend_open_auto(&b, why, sizeof why);
        else
            st = ps_backend_open(bname, &b);
        if (!st)
            st = ps_backend_probe(b, devs, 16, &ndev);
        if (!st && ndev < 1)
            st = ps_error(PS_ENODEVICE, "backend '%s' has no device", ps_backend_name(b));
        if (st)
            st = wrap(st, "backend");
    }
    if (!st) {
        /* one rank per device: the node-local rank picks it, unless --device says */
        dev = a.device >= 0 ? (int)a.device : node_rank % ndev;
        if (dev >= ndev)
            st = ps_error(PS_EINVAL, "--device %d: backend '%s' has %d device%s (0..%d)", dev,
                          ps_backend_name(b), ndev, ndev == 1 ? "" : "s", ndev - 1);
    }
    AGREE(cart, st);
    ps_signals_install("pstencil");
    ps_config_init(&cfg, ds.grid, a.precision);
    cfg.mode = a.mode;
    cfg.stencil = stencil;
    cfg.params = params;
    cfg.device = dev;
    cfg.threads = (int)a.threads;
    cfg.box = d.boxes[rank].box;
    st = ps_context_create(b, &cfg, &ctx);
    if (!st)
        st = ps_context_upload(ctx, block.data, NULL);
    if (!st)
        st = ps_context_finish(ctx);
    if (!st)
        st = ps_mpi_transport_init(&mt, &d, cart, rank, ctx, a.precision, &tr);
    have_mt = !st;
    if (st) {
        char where[256];
        snprintf(where, sizeof where, "rank %d, backend %s, device %d", rank,
                 ps_backend_name(b), dev);
        st = wrap(st, where);
    }
    AGREE(cart, st);
    ps_field_free(&block);
    tm[T_SETUP] = MPI_Wtime() - t;

    /* 6. the output: one file, every rank writing its owned block */
    t = MPI_Wtime();
    snprintf(source, sizeof source, "pstencil %s, backend %s, device %s, %s, %s mode, MPI %d "
             "ranks (%dx%dx%d)", PACKAGE_VERSION, ps_backend_name(b), devs[dev].name,
             ps_precision_name(a.precision), ps_mode_name(a.mode), size, split[0], split[1],
             split[2]);
    MPI_Bcast(source, (int)sizeof source, MPI_CHAR, 0, cart); /* the same header on all */
    ps_mpi_writer_init(&mw, cart, &d.boxes[rank], ds.grid);
    memset(&wo, 0, sizeof wo);
    wo.path = a.output;
    wo.force = a.force;
    wo.dt = srep.seconds_per_step > 0 ? srep.seconds_per_step : 0;
    wo.time_index = a.time_index;
    wo.last_step = a.steps; /* the time axis is checked up to it before the run */
    wo.history = ps_cli_cmdline;
    wo.source = source;
    wo.precision = a.precision;
    wo.parallel = &mw.par;
    st = ps_writer_open(&writer, &ds, &wo);
    if (!st) {
        /* the run's record, as one process writes it: `run --continue` goes on from it */
        double rec[64];
        for (q = 0; q < stencil->noptions; q++) {
            rec[q] = options[q];
            if (isnan(rec[q]) && !strcmp(stencil->options[q].name, "dt") &&
                srep.seconds_per_step > 0)
                rec[q] = srep.seconds_per_step;
        }
        st = ps_run_record_write(writer, stencil, rec, a.precision,
                                 srep.seconds_per_step > 0 ? srep.seconds_per_step
                                                           : PS_WRITE_DEFAULT_DT);
    }
    AGREE(cart, st);
    tm[T_WRITE] += MPI_Wtime() - t;

    /* 7. run: rounds of g/radius steps, an exchange after each, snapshots */
    per_round = (long)(halo / (unsigned)stencil->radius);
    if (d.nboxes == 1)
        per_round = a.steps > 0 ? a.steps : 1;
    for (;;) {
        long next = a.steps;
        /* a snapshot of the owned cells: blow-up check, then every rank appends */
        if (done == 0 || done == a.steps || (a.every > 0 && done % a.every == 0)) {
            long long nonfinite = 0, all = 0;
            size_t c, n = own_r.count.nz * own_r.count.ny * own_r.count.nx;
            if (done > 0 && done < a.steps) {
                int mine = ps_signal_pending();
                MPI_Allreduce(&mine, &stop_sig, 1, MPI_INT, MPI_MAX, cart);
                if (stop_sig)
                    break;
            }
            t = MPI_Wtime();
            st = ps_context_download(ctx, own.data, &own_r);
            for (c = 0; !st && c < n; c++)
                if (!land[c] && !isfinite(value_at(&own, c)))
                    nonfinite++;
            AGREE(cart, st);
            MPI_Allreduce(&nonfinite, &all, 1, MPI_LONG_LONG, MPI_SUM, cart);
            if (all && !a.keep_nonfinite) {
                blew = 1;
                st = ps_error(PS_ERANGE, "the run blew up: %lld ocean cell%s non-finite at step "
                              "%ld. Nothing was written", all, all == 1 ? " is" : "s are", done);
                goto fail;
            }
            st = ps_writer_append(writer, done, &own);
            AGREE(cart, st);
            tm[T_WRITE] += MPI_Wtime() - t;
            if (done > 0) {
                /* from the first record past step 0 on, a first signal stops every rank at
                 * the next record (agreed) and keeps these; before, it stops at once */
                completed++;
                last_step = done;
                ps_signals_defer(1);
            }
        }
        if (done >= a.steps)
            break;
        if (a.every > 0 && (done / a.every + 1) * a.every < next)
            next = (done / a.every + 1) * a.every;
        while (done < next) {
            long n = next - done < per_round ? next - done : per_round;
            t = MPI_Wtime();
            st = ps_context_step(ctx, n);
            if (!st)
                st = ps_context_finish(ctx);
            tm[T_STEP] += MPI_Wtime() - t;
            AGREE(cart, st); /* a device error stops every rank before the exchange */
            done += n;
            if (d.nboxes > 1 && done < a.steps) {
                t = MPI_Wtime();
                st = ps_decomp_exchange(&d, &tr);
                tm[T_EXCHANGE] += MPI_Wtime() - t;
                AGREE(cart, st);
            }
        }
    }

    ps_signals_defer(0);
    if (stop_sig) {
        /* every rank stopped at the same record: keep those completed, or nothing */
        rc = 128 + stop_sig;
        if (completed) {
            char mark[160];
            snprintf(mark, sizeof mark, "%s after step %ld of %ld", ps_signal_name(stop_sig),
                     last_step, a.steps);
            st = ps_writer_mark_interrupted(writer, mark);
            AGREE(cart, st);
            st = ps_writer_commit(writer);
            AGREE(cart, st);
        }
        if (rank == 0)
            ps_run_interrupted_say(stop_sig, a.output, completed ? ps_writer_records(writer) : 0,
                                   last_step, a.steps);
        goto done;
    }

    /* 8. every rank closed the file: rank 0 publishes it; the global checksum */
    t = MPI_Wtime();
    st = ps_writer_commit(writer);
    AGREE(cart, st);
    tm[T_WRITE] += MPI_Wtime() - t;
    st = ps_mpi_checksum(cart, &d, &own, &sum);
    AGREE(cart, st);
    tm[T_TOTAL] = MPI_Wtime() - t0;
    MPI_Reduce(tm, tmax, T_N, MPI_DOUBLE, MPI_MAX, 0, cart);
    if (rank == 0 && !a.quiet) {
        double step = tmax[T_STEP] + tmax[T_EXCHANGE];
        printf("pstencil run (MPI)\n");
        printf("  ranks       : %d, decomposition %dx%dx%d (k x j x i), halo %u (an exchange "
               "every %ld step%s)\n", size, split[0], split[1], split[2], halo, per_round,
               per_round == 1 ? "" : "s");
        printf("  input       : %s\n", a.input ? a.input : "built-in ocean");
        printf("  output      : %s\n", a.output);
        printf("  backend     : %s, device %d on rank 0 (%d rank%s on its node)\n",
               ps_backend_name(b), dev, node_size, node_size == 1 ? "" : "s");
        printf("  stencil     : %s, %s, %s mode\n", stencil->name,
               ps_precision_name(a.precision), ps_mode_name(a.mode));
        printf("  grid        : %zu x %zu x %zu (depth x lat x lon)\n", ds.grid.nz, ds.grid.ny,
               ds.grid.nx);
        printf("  steps       : %ld\n", done);
        printf("  time        : %.3f s total; stepping %.3f s, exchange %.3f s (%.1f%% of the "
               "loop), read %.3f s, write %.3f s (I/O %.1f%% of the total); largest over "
               "ranks\n", tmax[T_TOTAL], tmax[T_STEP], tmax[T_EXCHANGE],
               step > 0 ? 100.0 * tmax[T_EXCHANGE] / step : 0.0, tmax[T_READ], tmax[T_WRITE],
               tmax[T_TOTAL] > 0 ? 100.0 * (tmax[T_READ] + tmax[T_WRITE]) / tmax[T_TOTAL] : 0);
        printf("  exchange    : rank 0 sent %ld messages, %.0f bytes\n", mt.messages, mt.bytes);
        printf("  timing      : ranks=%d total=%.6f step=%.6f exchange=%.6f read=%.6f "
               "write=%.6f\n", size, tmax[T_TOTAL], tmax[T_STEP], tmax[T_EXCHANGE],
               tmax[T_READ], tmax[T_WRITE]);
        printf("  checksum    : 0x%016llx (FNV-1a of the final field's bits)\n",
               (unsigned long long)sum);
    }
    rc = PS_EXIT_OK;
    goto done;
fail:
    rc = blew ? PS_EXIT_BLOWUP : PS_EXIT_USAGE;
    if (rank == 0)
        fprintf(stderr, "pstencil: error: %s\n", ps_error_detail());
done:
    /* every rank gets here together (each failure was agreed): the collective close */
    ps_writer_abort(writer);
    if (have_mt)
        ps_mpi_transport_free(&mt);
    if (ctx)
        ps_context_destroy(ctx);
    free(land);
    ps_field_free(&own);
    ps_field_free(&block);
    ps_field_free(&f32);
    ps_params_free(&params);
    ps_grid_coords_free(&coords);
    ps_dataset_close(&ds);
    ps_decomp_free(&d);
    ps_backend_close(b);
    if (cart != MPI_COMM_NULL)
        MPI_Comm_free(&cart);
    (void)q;
    if (!inited)
        MPI_Finalize();
    return rc;
#undef AGREE
}
