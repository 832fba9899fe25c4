/*
 * pstencil backends: every known backend (the backend list,
 * backends/ps_backends.h), whether it was built, whether it loads (and why
 * not), its priority and capabilities, its devices with name, type, memory,
 * compute units and the modes they support, and what `auto` picks; with
 * --knobs, every tuning knob of every backend (core/ps_knobs.h). Always
 * exits 0 (it reports, it does not judge); 2 on a usage error.
 */
#include "config.h"
#include "ps_cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "Usage: pstencil backends [--knobs] [--help]\n\n"
               "List every backend pstencil knows: whether it was built (into the library or\n"
               "as a plugin), whether it can run here and, if not, exactly why; its priority\n"
               "and capabilities; each device with its type, memory, compute units and\n"
               "numerical modes (exact float32/float64, fast); and which one 'auto' picks: of\n"
               "those that can run, the highest priority, a GPU backend only with a GPU device.\n"
               "Backends: %s.\n"
               "Plugins are searched in one place only, never mixed: the absolute directories\n"
               "of " PS_PLUGIN_PATH_ENV " (colon-separated) when it is set; else, for the\n"
               "uninstalled pstencil of a build tree, that build tree's backends/NAME/.libs;\n"
               "else the installed %s. Each plugin is listed with where it came from.\n\n"
               "  --knobs   list every tuning knob of every backend instead: its meaning,\n"
               "            type and range, default rule and environment variable\n",
            ps_backend_names(), PS_PLUGIN_DIR);
}

/* --knobs: every knob of the table (core/ps_knobs.h), grouped by backend. */
static int list_knobs(void)
{
    const ps_knob_info *k;
    const char *last = "";
    int n, i;
    ps_knob_list(&k, &n);
    printf("Tuning knobs (%d). Each run decides every knob of its backend, highest first:\n"
           "an option (the caller's ps_config knobs), the tuning cache (pstencil tune), the\n"
           "environment variable, the backend's rule. Reference: docs/knobs.md.\n", n);
    for (i = 0; i < n; i++) {
        char type[160];
        if (strcmp(k[i].backend, last))
            printf("\n%s:\n", k[i].backend);
        last = k[i].backend;
        if (k[i].type == PS_KNOB_BOOL)
            snprintf(type, sizeof type, "0 or 1");
        else if (k[i].type == PS_KNOB_CHOICE)
            snprintf(type, sizeof type, "one of %s", k[i].choices);
        else if (k[i].type == PS_KNOB_TEXT)
            snprintf(type, sizeof type, "text (at most %d characters)", PS_KNOB_TEXT_MAX - 1);
        else
            snprintf(type, sizeof type, "integer %ld..%ld", k[i].min, k[i].max);
        printf("  %s\n", k[i].name);
        printf("      %s\n", k[i].meaning);
        printf("      value: %s\n", type);
        printf("      rule: %s\n", k[i].rule);
        if (k[i].env_field)
            printf("      environment: %s (comma-separated field %d)\n", k[i].env,
                   k[i].env_field);
        else
            printf("      environment: %s\n", k[i].env);
    }
    return PS_EXIT_OK;
}

static void format_bytes(uint64_t b, char *buf, size_t len)
{
    if (b == 0)
        snprintf(buf, len, "memory unknown");
    else if (b >= (UINT64_C(1) << 30))
        snprintf(buf, len, "%.1f GiB", (double)b / (double)(UINT64_C(1) << 30));
    else
        snprintf(buf, len, "%.0f MiB", (double)b / (double)(UINT64_C(1) << 20));
}

static void format_modes(unsigned caps, char *buf, size_t len)
{
    const int e32 = !!(caps & PS_CAP_EXACT_F32), e64 = !!(caps & PS_CAP_EXACT_F64);
    const int fast = !!(caps & PS_CAP_FAST), fp64 = !!(caps & PS_CAP_FP64);
    if (e32 && e64)
        snprintf(buf, len, "exact float32+float64");
    else if (e32)
        snprintf(buf, len, "exact float32 only%s", fp64 ? " (float64 fast-mode only)" : "");
    else if (e64)
        snprintf(buf, len, "exact float64 only");
    else if (fast)
        snprintf(buf, len, "fast-mode only (no exact mode)");
    else
        snprintf(buf, len, "no modes reported");
    if (fast && (e32 || e64)) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, ", fast");
    }
    if (!fp64) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, ", no float64");
    }
}

static void format_flags(unsigned flags, char *buf, size_t len)
{
    static const struct {
        unsigned bit;
        const char *word;
    } words[] = {{PS_BACKEND_GPU, "gpu"},
                 {PS_BACKEND_THREADS, "threads"},
                 {PS_BACKEND_BLOCK, "block shapes"},
                 {PS_BACKEND_ORACLE, "the oracle"},
                 {PS_BACKEND_NOAUTO, "never picked by auto"}};
    size_t i, used;
    buf[0] = '\0';
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (flags & words[i].bit) {
            used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s", used ? ", " : "", words[i].word);
        }
    if (!buf[0])
        snprintf(buf, len, "none");
}

int ps_cmd_backends(int argc, char **argv)
{
    const char *const *names;
    int n, i, usable = 0;
    ps_backend *pick = NULL;
    char why[4096], flags[128], dirs[4096];
    const char *origin = "";
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'},
                                         {"knobs", no_argument, NULL, 'k'},
                                         {NULL, 0, NULL, 0}};
    int c, knobs = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'k') {
            knobs = 1;
            continue;
        }
        if (c != 'h') /* no option but --help, --knobs: the old wording, tests/backends/loader_cli.sh */
            return ps_cli_error("backends: unexpected argument '%s' (try 'pstencil backends "
                                "--help')", argv[optind - 1]);
        usage(stdout);
        return PS_EXIT_OK;
    }
    if (optind < argc)
        return ps_cli_error("backends: unexpected argument '%s' (try 'pstencil backends "
                            "--help')", argv[optind]);
    if (knobs)
        return list_knobs();
    ps_backend_known(&names, &n);
    printf("pstencil %s backends:\n", ps_version());
    ps_backend_plugin_dirs(dirs, sizeof dirs, &origin);
    printf("plugins from %s: %s\n", origin, dirs[0] ? dirs : "(no directory)");
    for (i = 0; i < n; i++) {
        ps_backend *b = NULL;
        ps_device_info devs[16];
        int nd = 0, st, d;
        int built = ps_backend_is_built(names[i]);
        st = ps_backend_open(names[i], &b);
        if (st) {
            printf("%-10s %-20s cannot run: %s\n", names[i],
                   built ? "built (plugin)" : "not built", ps_error_detail());
            continue;
        }
        printf("%-10s %-20s ", names[i],
               strcmp(ps_backend_path(b), "built-in") ? "plugin" : "built-in");
        memset(devs, 0, sizeof devs);
        st = ps_backend_probe(b, devs, 16, &nd);
        if (st) {
            printf("loads from %s (%s), but has no usable device: %s\n", ps_backend_path(b),
                   ps_backend_origin(b), ps_error_detail());
            ps_backend_close(b);
            continue;
        }
        if (nd > 16)
            nd = 16;
        usable++;
        format_flags(ps_backend_get_ops(b)->flags, flags, sizeof flags);
        if (strcmp(ps_backend_path(b), "built-in"))
            printf("ok: %d device%s, from %s (%s)\n", nd, nd == 1 ? "" : "s", ps_backend_path(b),
                   ps_backend_origin(b));
        else
            printf("ok: %d device%s\n", nd, nd == 1 ? "" : "s");
        for (d = 0; d < nd; d++) {
            char mem[32], modes[128];
            format_bytes(devs[d].memory_bytes, mem, sizeof mem);
            format_modes(devs[d].caps, modes, sizeof modes);
            printf("  device %d: %s\n", d, devs[d].name);
            printf("    type %s, %s, %d compute unit%s; %s\n", devs[d].type[0] ? devs[d].type : "?",
                   mem, devs[d].compute_units, devs[d].compute_units == 1 ? "" : "s", modes);
            if (devs[d].detail[0])
                printf("    %s\n", devs[d].detail);
        }
        printf("  priority %d; capabilities: %s\n", ps_backend_get_ops(b)->priority, flags);
        ps_backend_close(b);
    }
    printf("%d of %d backends can run here.\n", usable, n);
    if (ps_backend_open_auto(&pick, why, sizeof why) == PS_OK) {
        printf("auto picks %s.\n", ps_backend_name(pick));
        ps_backend_close(pick);
    } else {
        printf("auto picks nothing: %s\n", ps_error_detail());
    }
    return PS_EXIT_OK;
}
