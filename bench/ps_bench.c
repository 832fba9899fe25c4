/*
 * Benchmark helpers: machine description, statistics, peak memory, and the
 * result rows as CSV and JSON (one column table drives all three).
 */
#include "config.h"
#include "ps_bench.h"
#include "ps_file.h"
#include "ps_oracle.h"
#include "ps_status.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ------------------------------------------------------------------ */
/* Machine                                                             */
/* ------------------------------------------------------------------ */

static void trim(char *s)
{
    size_t n = strlen(s);
    char *p = s;
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (*p == ' ' || *p == '\t')
        p++;
    memmove(s, p, strlen(p) + 1);
}

void ps_bench_machine_describe(ps_bench_machine *m)
{
    FILE *f;
    char line[512];
    time_t now = time(NULL);
    struct tm tm;
    struct utsname u;
    long pages, psize;
    double la[1];

    memset(m, 0, sizeof *m);
    f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(m->cpu_name, sizeof m->cpu_name, "%s", strchr(line, ':') + 1);
                trim(m->cpu_name);
                break;
            }
        fclose(f);
    }
    if (!m->cpu_name[0])
        snprintf(m->cpu_name, sizeof m->cpu_name, "unknown CPU");
    m->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
#ifdef _OPENMP
    m->omp_max_threads = omp_get_max_threads();
#else
    m->omp_max_threads = 1;
#endif
    pages = sysconf(_SC_PHYS_PAGES);
    psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0)
        m->mem_bytes = (uint64_t)pages * (uint64_t)psize;
    ps_bench_topology_describe(&m->topo);
    for (int i = 0; i < m->topo.ncaches; i++)
        if (strcmp(m->topo.caches[i].type, "instruction") && m->topo.caches[i].bytes > m->l3_bytes)
            m->l3_bytes = m->topo.caches[i].bytes;
    ps_bench_thread_placement(0, &m->placement);
#if defined(__clang__)
    snprintf(m->compiler, sizeof m->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(m->compiler, sizeof m->compiler, "gcc %s", __VERSION__);
#else
    snprintf(m->compiler, sizeof m->compiler, "unknown");
#endif
    snprintf(m->version, sizeof m->version, "%s", PACKAGE_VERSION);
    gmtime_r(&now, &tm);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(m->host, sizeof m->host - 1) != 0)
        m->host[0] = '\0';
    if (uname(&u) == 0)
        snprintf(m->kernel, sizeof m->kernel, "%.40s %.60s %.20s", u.sysname, u.release, u.machine);
    if (getloadavg(la, 1) == 1)
        m->loadavg1 = la[0];
}

/* ------------------------------------------------------------------ */
/* Statistics and memory                                               */
/* ------------------------------------------------------------------ */

void ps_bench_stats(const double *x, int n, double *mean, double *sd)
{
    double s = 0.0, q = 0.0, mu;
    int i;
    for (i = 0; i < n; i++)
        s += x[i];
    mu = n > 0 ? s / n : NAN;
    for (i = 0; i < n; i++)
        q += (x[i] - mu) * (x[i] - mu);
    *mean = mu;
    *sd = n > 1 ? sqrt(q / (n - 1)) : 0.0;
}

int ps_bench_peak_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    int ok;
    if (!f)
        return -1;
    ok = fputs("5", f) >= 0;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

double ps_bench_peak_host_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    struct rusage ru;
    if (f) {
        while (fgets(line, sizeof line, f)) {
            unsigned long kb;
            if (sscanf(line, "VmHWM: %lu kB", &kb) == 1) {
                fclose(f);
                return kb / 1024.0;
            }
        }
        fclose(f);
    }
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        return ru.ru_maxrss / 1024.0;
    return NAN;
}

/* ------------------------------------------------------------------ */
/* Columns                                                             */
/* ------------------------------------------------------------------ */

enum col_type { COL_STR, COL_LONG, COL_INT, COL_DBL };

typedef struct col {
    const char *name;
    enum col_type type;
    size_t off;
    size_t size; /* for strings */
    int required;
} col;

#define S(f, req) {#f, COL_STR, offsetof(ps_bench_row, f), sizeof(((ps_bench_row *)0)->f), req}
#define L(f, req) {#f, COL_LONG, offsetof(ps_bench_row, f), 0, req}
#define I(f) {#f, COL_INT, offsetof(ps_bench_row, f), 0, 0}
#define D(f, req) {#f, COL_DBL, offsetof(ps_bench_row, f), 0, req}

static const col cols[] = {
    S(gpu_name, 1), S(cpu_name, 1), S(method, 1), L(num_timesteps, 1), D(mean_time_sec, 1),
    D(std_dev_sec, 1),
    S(experiment, 0), S(backend, 0), S(device, 0), S(device_type, 0), S(precision, 0),
    D(scale, 0), L(nz, 0), L(ny, 0), L(nx, 0), D(cells, 0), I(repeats), I(threads),
    D(step_ms, 0), D(spread, 0), D(cells_per_s, 0), D(bytes_per_step, 0), D(gbps, 0),
    D(bound_gbps, 0), D(bound_fraction, 0), D(dram_bound_gbps, 0), D(dram_fraction, 0),
    D(job_mean_s, 0), D(job_std_s, 0), D(create_ms, 0), D(upload_ms, 0), D(download_ms, 0),
    D(peak_host_mb, 0), D(peak_device_mb, 0), D(speedup_ref, 0), I(speedup_noise),
    D(best_step_ms, 0), D(best_job_s, 0),
};
#define NCOLS ((int)(sizeof cols / sizeof cols[0]))

const char *ps_bench_csv_header(void)
{
    static char hdr[1024];
    if (!hdr[0]) {
        size_t used = 0;
        int i;
        for (i = 0; i < NCOLS; i++)
            used += (size_t)snprintf(hdr + used, sizeof hdr - used, "%s%s", i ? "," : "",
                                     cols[i].name);
    }
    return hdr;
}

static void csv_string(FILE *f, const char *s)
{
    const char *p;
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p == '\n' ? ' ' : *p, f);
    }
    fputc('"', f);
}

int ps_bench_csv_write(FILE *f, const ps_bench_row *rows, int n)
{
    int r, i;
    fprintf(f, "%s\n", ps_bench_csv_header());
    for (r = 0; r < n; r++) {
        const char *base = (const char *)&rows[r];
        for (i = 0; i < NCOLS; i++) {
            const void *p = base + cols[i].off;
            if (i)
                fputc(',', f);
            switch (cols[i].type) {
            case COL_STR:
                csv_string(f, (const char *)p);
                break;
            case COL_LONG:
                fprintf(f, "%ld", *(const long *)p);
                break;
            case COL_INT:
                fprintf(f, "%d", *(const int *)p);
                break;
            case COL_DBL: {
                double v = *(const double *)p;
                if (isnan(v))
                    fputs("n/a", f);
                else
                    fprintf(f, "%.9g", v);
                break;
            }
            }
        }
        fputc('\n', f);
    }
    return ferror(f) ? ps_error(PS_EIO, "writing CSV failed") : PS_OK;
}

/* Split one CSV line (quotes allowed) into at most max fields, in place. */
static int csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line, *w;
    for (;;) {
        if (n >= max)
            return -1;
        if (*p == '"') {
            p++;
            fields[n++] = w = p;
            for (;;) {
                if (*p == '\0')
                    return -1; /* unterminated */
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else
                    *w++ = *p++;
            }
            *w = '\0';
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == '\0' || *p == '\n' || *p == '\r')
                return n;
            return -1;
        }
        fields[n++] = p;
        while (*p && *p != ',' && *p != '\n' && *p != '\r')
            p++;
        if (*p == ',') {
            *p++ = '\0';
            continue;
        }
        *p = '\0';
        return n;
    }
}

int ps_bench_csv_read(const char *path, ps_bench_row **out, int *nout)
{
    FILE *f = NULL;
    char *line = NULL;
    size_t cap = 0;
    char *hdr[128], *fld[128];
    int map[NCOLS], nh, i, n = 0, alloc = 0, lineno = 1, rc = PS_OK;
    ps_bench_row *rows = NULL;

    *out = NULL;
    *nout = 0;
    struct stat sb;
    /* opened without blocking: a FIFO is refused, not waited on */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return ps_error(PS_EIO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &sb) != 0) {
        close(fd);
        return ps_error(PS_EIO, "cannot read %s: %s", path, strerror(errno));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return ps_error(PS_EIO, "cannot read %s: it is %s, not a regular file", path,
                        ps_file_kind(sb.st_mode));
    }
    if (fcntl(fd, F_SETFL, 0) != 0 || !(f = fdopen(fd, "r"))) {
        close(fd);
        return ps_error(PS_EIO, "cannot read %s: %s", path, strerror(errno));
    }
    errno = 0;
    if (getline(&line, &cap, f) < 0) {
        if (ferror(f))
            rc = ps_error(PS_EIO, "cannot read %s: %s", path, strerror(errno));
        else
            rc = ps_error(PS_EFORMAT, "%s is empty", path);
        goto done;
    }
    nh = csv_split(line, hdr, 128);
    if (nh < 0) {
        rc = ps_error(PS_EFORMAT, "%s: malformed header", path);
        goto done;
    }
    for (i = 0; i < NCOLS; i++) {
        int h;
        map[i] = -1;
        for (h = 0; h < nh; h++)
            if (!strcmp(hdr[h], cols[i].name))
                map[i] = h;
        if (map[i] < 0 && cols[i].required) {
            rc = ps_error(PS_EFORMAT, "%s: no column '%s' (not a pstencil bench CSV?)", path,
                          cols[i].name);
            goto done;
        }
    }
    /* header strings live in line, which is reused: keep only the map */
    while (getline(&line, &cap, f) >= 0) {
        int nf;
        ps_bench_row *r;
        lineno++;
        if (line[0] == '\n' || line[0] == '\0')
            continue;
        nf = csv_split(line, fld, 128);
        if (nf != nh) {
            rc = ps_error(PS_EFORMAT, "%s:%d: %d fields, the header has %d", path, lineno,
                          nf < 0 ? 0 : nf, nh);
            goto done;
        }
        if (n == alloc) {
            ps_bench_row *nr;
            alloc = alloc ? alloc * 2 : 32;
            nr = realloc(rows, (size_t)alloc * sizeof *rows);
            if (!nr) {
                rc = ps_error(PS_ENOMEM, "out of memory reading %s", path);
                goto done;
            }
            rows = nr;
        }
        r = &rows[n];
        memset(r, 0, sizeof *r);
        for (i = 0; i < NCOLS; i++)
            if (cols[i].type == COL_DBL)
                *(double *)((char *)r + cols[i].off) = NAN;
        for (i = 0; i < NCOLS; i++) {
            char *v, *end = NULL;
            void *p = (char *)r + cols[i].off;
            if (map[i] < 0)
                continue;
            v = fld[map[i]];
            switch (cols[i].type) {
            case COL_STR:
                snprintf((char *)p, cols[i].size, "%s", v);
                break;
            case COL_LONG:
            case COL_INT: {
                long x = strtol(v, &end, 10);
                if (end == v || *end) {
                    rc = ps_error(PS_EFORMAT, "%s:%d: column %s: '%s' is not a whole number",
                                  path, lineno, cols[i].name, v);
                    goto done;
                }
                if (cols[i].type == COL_LONG)
                    *(long *)p = x;
                else
                    *(int *)p = (int)x;
                break;
            }
            case COL_DBL:
                if (!strcmp(v, "n/a") || !*v) {
                    *(double *)p = NAN;
                    break;
                }
                *(double *)p = strtod(v, &end);
                if (end == v || *end) {
                    rc = ps_error(PS_EFORMAT, "%s:%d: column %s: '%s' is not a number", path,
                                  lineno, cols[i].name, v);
                    goto done;
                }
                break;
            }
        }
        n++;
    }
    if (n == 0) {
        rc = ps_error(PS_EFORMAT, "%s: no rows", path);
        goto done;
    }
done:
    free(line);
    fclose(f);
    if (rc) {
        free(rows);
        return rc;
    }
    *out = rows;
    *nout = n;
    return PS_OK;
}

/* ------------------------------------------------------------------ */
/* Speedups                                                            */
/* ------------------------------------------------------------------ */

const char *ps_bench_oracle_name(void)
{
    static char name[64];
    if (!name[0]) {
        ps_backend *b = NULL;
        snprintf(name, sizeof name, "%s",
                 ps_backend_open_oracle(&b) ? "reference" : ps_backend_name(b));
        ps_backend_close(b);
    }
    return name;
}

int ps_bench_backend_slot(const char *backend)
{
    const char *const *names;
    int n, i;
    ps_backend_known(&names, &n);
    for (i = 0; i < n; i++)
        if (!strcmp(names[i], backend))
            return i;
    return n;
}

void ps_bench_speedups(ps_bench_row *rows, int n)
{
    const char *oracle = ps_bench_oracle_name();
    int i, j;
    for (i = 0; i < n; i++) {
        ps_bench_row *r = &rows[i];
        const ps_bench_row *ref = NULL;
        r->speedup_ref = NAN;
        r->speedup_noise = 0;
        for (j = 0; j < n; j++) {
            const ps_bench_row *c = &rows[j];
            if (strcmp(c->backend, oracle) || strcmp(c->precision, r->precision) ||
                c->nz != r->nz || c->ny != r->ny || c->nx != r->nx || !(c->step_ms > 0))
                continue;
            if (!ref || (c->num_timesteps == r->num_timesteps &&
                         ref->num_timesteps != r->num_timesteps))
                ref = c;
        }
        if (ref && r->step_ms > 0) {
            double sa = ref->step_ms * (isnan(ref->spread) ? 0 : ref->spread);
            double sb = r->step_ms * (isnan(r->spread) ? 0 : r->spread);
            r->speedup_ref = ref->step_ms / r->step_ms;
            /* a difference smaller than the combined repeat-to-repeat spread is noise */
            r->speedup_noise = ref != r && fabs(ref->step_ms - r->step_ms) <= sqrt(sa * sa + sb * sb);
        }
    }
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

void ps_bench_json_fields(ps_json *j, const ps_bench_row *r)
{
    int i;
    for (i = 0; i < NCOLS; i++) {
        const void *p = (const char *)r + cols[i].off;
        ps_json_key(j, cols[i].name);
        switch (cols[i].type) {
        case COL_STR:
            ps_json_string(j, (const char *)p);
            break;
        case COL_LONG:
            ps_json_int(j, *(const long *)p);
            break;
        case COL_INT:
            ps_json_int(j, *(const int *)p);
            break;
        case COL_DBL:
            ps_json_number_fmt(j, *(const double *)p, "%.9g");
            break;
        }
    }
}

void ps_bench_json_machine(ps_json *j, const ps_bench_machine *m)
{
    ps_json_object_begin(j);
    ps_json_kstring(j, "cpu_name", m->cpu_name);
    ps_json_kint(j, "cpus_online", m->cpus_online);
    ps_json_kint(j, "omp_max_threads", m->omp_max_threads);
    ps_json_key(j, "mem_bytes");
    ps_json_uint(j, m->mem_bytes);
    ps_json_key(j, "llc_bytes");
    ps_json_uint(j, m->l3_bytes);
    ps_json_kstring(j, "compiler", m->compiler);
    ps_json_kstring(j, "pstencil_version", m->version);
    ps_json_kstring(j, "date", m->date);
    ps_json_kstring(j, "host", m->host);
    ps_json_kstring(j, "kernel", m->kernel);
    ps_json_knumber_fmt(j, "loadavg1", m->loadavg1, "%.9g");
    ps_json_key(j, "topology");
    ps_bench_json_topology(j, &m->topo);
    ps_json_key(j, "thread_placement");
    ps_bench_json_placement(j, &m->placement);
    ps_json_object_end(j);
}
