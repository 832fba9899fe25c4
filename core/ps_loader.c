/*
 * The backend loader: every backend of the backend list
 * (backends/ps_backends.h), built-in ones from their ops tables in
 * libpstencil, plugins (and any other pstencil_<name>.so on the plugin path)
 * opened with dlopen (only once the file is known to be a regular file and a
 * whole ELF shared object of this machine: plugin_file_ok()) and found through
 * a fixed symbol, ABI version checked;
 * and `auto`, which tries backends by priority, highest first, and stops at
 * the first with a usable device: a plugin that declares its priority in its
 * file (PS_PLUGIN_DECLARE, read by ps_plugin_decl.c without dlopen) is loaded
 * only when its turn comes, so plugins below the one picked are never loaded.
 *
 * Where plugins come from, in this order, one source only (never mixed):
 * PSTENCIL_PLUGIN_PATH when set (its absolute directories; relative entries
 * are ignored with a warning, so the current directory is never searched);
 * else, when this libpstencil or the running program is the uninstalled one
 * of the build tree (core/.libs, cli/ or cli/.libs under PS_BUILD_DIR, the
 * way libtool's uninstalled wrappers and PoCL's build-tree mode work), the
 * build tree's backends/NAME/.libs; else the install's own plugin folder,
 * pstencil/ beside the libpstencil in use (PS_PLUGIN_DIR, $(pkglibdir), for
 * an install where it was configured; the same folder found from the library
 * for one moved or installed with another prefix).
 */
#define _GNU_SOURCE 1 /* dladdr */
#include "config.h"
#include "ps_file.h"
#include "ps_backend.h"
#include "ps_status.h"
#include "ps_timer.h"
#include "ps_builtin.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ps_backend {
    const ps_backend_ops *ops;
    void *dl;       /* dlopen handle, NULL for built-ins */
    char path[1200];
    const char *origin; /* ps_backend_origin() */
};

#ifndef PS_BUILD_DIR
#define PS_BUILD_DIR ""
#endif

#define PS_ORIGIN_BUILTIN "built-in"
#define PS_ORIGIN_ENV PS_PLUGIN_PATH_ENV
#define PS_ORIGIN_BUILD "build tree"
#define PS_ORIGIN_INSTALLED "installed"


/* ------------------------------------------------------------------ */
/* The list                                                             */
/* ------------------------------------------------------------------ */

#define PS_LOADER_ENTRY(name, kind, built)                                              \
    {#name, PS_BACKEND_KIND_##kind, PS_BACKEND_IS_SET(built), #built},
static const ps_backend_entry ps_list[] = {PS_BACKEND_LIST(PS_LOADER_ENTRY)};
#undef PS_LOADER_ENTRY
#define PS_NLIST ((int)(sizeof ps_list / sizeof ps_list[0]))

/* the ops function of each built-in backend that was built, else NULL */
typedef const ps_backend_ops *(*ps_ops_fn)(void);
#define PS_LOADER_OPS_BUILTIN(name, built) PS_BACKEND_IF_SET(built, ps_##name##_ops, NULL)
#define PS_LOADER_OPS_PLUGIN(name, built) NULL
#define PS_LOADER_OPS_CHECK(name, built) NULL
#define PS_LOADER_OPS(name, kind, built) PS_LOADER_OPS_##kind(name, built),
static const ps_ops_fn ps_builtin_fn[] = {PS_BACKEND_LIST(PS_LOADER_OPS)};
#undef PS_LOADER_OPS

/* "reference, openmp, ...": the names a user may ask for (no check-only ones) */
#define PS_LOADER_NAME_BUILTIN(name) ", " #name
#define PS_LOADER_NAME_PLUGIN(name) ", " #name
#define PS_LOADER_NAME_CHECK(name)
#define PS_LOADER_NAME(name, kind, built) PS_LOADER_NAME_##kind(name)
static const char ps_names[] = "" PS_BACKEND_LIST(PS_LOADER_NAME);
#undef PS_LOADER_NAME

int ps_backend_list(const ps_backend_entry **entries, int *count)
{
    *entries = ps_list;
    *count = PS_NLIST;
    return PS_OK;
}

const char *ps_backend_names(void)
{
    return ps_names[0] ? ps_names + 2 : ps_names;
}

static int list_index(const char *name)
{
    int i;
    for (i = 0; name && i < PS_NLIST; i++)
        if (!strcmp(ps_list[i].name, name))
            return i;
    return -1;
}

int ps_backend_is_built(const char *name)
{
    int i = list_index(name);
    return i >= 0 && ps_list[i].built;
}

static int valid_name(const char *name)
{
    const char *p;
    if (!name || !*name || strlen(name) > 64)
        return 0;
    for (p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

/* 1 if @p file's directory is @p dir (both resolved). */
static int file_in_dir(const char *file, const char *dir)
{
    char f[PATH_MAX], d[PATH_MAX], *slash;
    if (!file || !*file || !dir || !*dir || !realpath(file, f) || !realpath(dir, d))
        return 0;
    slash = strrchr(f, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return !strcmp(f, d);
}

/* The pstencil/ folder beside the libpstencil in use into @p dir; 0 if unknown. */
static int installed_dir(char *dir, size_t len)
{
    char lib[PATH_MAX], *slash;
    Dl_info info;
    if (!dladdr((void *)(uintptr_t)&ps_backend_open, &info) || !info.dli_fname ||
        !realpath(info.dli_fname, lib))
        return 0;
    slash = strrchr(lib, '/');
    if (!slash || slash == lib)
        return 0;
    *slash = '\0';
    snprintf(dir, len, "%s/pstencil", lib);
    return access(dir, F_OK) == 0;
}

/*
 * 1 if this is the uninstalled pstencil of the build tree PS_BUILD_DIR: this
 * libpstencil is core/.libs's, or the running program is cli/'s (the libtool
 * wrapper's .libs binary or an lt- copy). An installed copy lies elsewhere,
 * even when its prefix is inside the build tree.
 */
static int in_build_tree(void)
{
    static const char *const exe_dirs[] = {"/cli/.libs", "/cli"};
    char dir[PATH_MAX], exe[PATH_MAX];
    Dl_info info;
    ssize_t n;
    size_t i;
    if (!PS_BUILD_DIR[0] || PS_BUILD_DIR[0] != '/')
        return 0;
    snprintf(dir, sizeof dir, "%s/core/.libs", PS_BUILD_DIR);
    if (dladdr((void *)(uintptr_t)&ps_backend_open, &info) && info.dli_fname &&
        file_in_dir(info.dli_fname, dir))
        return 1;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    for (i = 0; i < sizeof exe_dirs / sizeof exe_dirs[0]; i++) {
        snprintf(dir, sizeof dir, "%s%s", PS_BUILD_DIR, exe_dirs[i]);
        if (file_in_dir(exe, dir))
            return 1;
    }
    return 0;
}

/* Warn once per process about relative entries of the plugin path. */
static void warn_relative(const char *entry)
{
    static atomic_int warned;
    if (atomic_exchange(&warned, 1))
        return;
    fprintf(stderr, "pstencil: warning: ignoring '%s' in " PS_PLUGIN_PATH_ENV
                    ": only absolute directories are searched for plugins\n", entry);
}

int ps_backend_plugin_dirs(char *dirs, size_t len, const char **origin)
{
    const char *env = getenv(PS_PLUGIN_PATH_ENV);
    char buf[4096], *save = NULL, *dir;
    size_t used = 0;
    int i;
    if (!dirs || len == 0)
        return ps_error(PS_EINVAL, "no room for the plugin directories");
    dirs[0] = '\0';
    if (env && *env) {
        if (origin)
            *origin = PS_ORIGIN_ENV;
        snprintf(buf, sizeof buf, "%s", env);
        /* empty entries (which would mean the current directory) are skipped */
        for (dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            if (dir[0] != '/') {
                warn_relative(dir);
                continue;
            }
            snprintf(dirs + used, len - used, "%s%s", used ? ":" : "", dir);
            used = strlen(dirs);
        }
        return PS_OK;
    }
    if (in_build_tree()) {
        if (origin)
            *origin = PS_ORIGIN_BUILD;
        for (i = 0; i < PS_NLIST; i++)
            if (ps_list[i].kind != PS_BACKEND_KIND_BUILTIN) {
                snprintf(dirs + used, len - used, "%s%s/backends/%s/.libs", used ? ":" : "",
                         PS_BUILD_DIR, ps_list[i].name);
                used = strlen(dirs);
            }
        return PS_OK;
    }
    if (origin)
        *origin = PS_ORIGIN_INSTALLED;
    if (!installed_dir(dirs, len))
        snprintf(dirs, len, "%s", PS_PLUGIN_DIR);
    return PS_OK;
}

/* The most program headers a plugin may have (the ELF limit, PN_XNUM, excluded). */
#define PS_PLUGIN_MAX_PHDRS 4096

/* The ELF machine of this libpstencil (its header is mapped at its load base), or EM_NONE. */
static int own_machine(void)
{
    Dl_info info;
    const ElfW(Ehdr) *eh;
    if (!dladdr((void *)(uintptr_t)&ps_backend_open, &info) || !info.dli_fbase)
        return EM_NONE;
    eh = (const ElfW(Ehdr) *)info.dli_fbase;
    return memcmp(eh->e_ident, ELFMAG, SELFMAG) ? EM_NONE : eh->e_machine;
}

/*
 * Whether @p path may be given to dlopen, decided on the file itself before
 * any dlopen (which blocks forever on a FIFO and dies of SIGBUS on a segment
 * past the end of a truncated file): opened with O_NONBLOCK, a regular file
 * (fstat of that descriptor), an ELF shared object of this program's class,
 * byte order and machine, whose program headers and every segment's file
 * bytes (p_offset + p_filesz) lie inside the file. 1 if so; else 0 and the
 * reason in @p why.
 */
static int plugin_file_ok(const char *path, char *why, size_t whylen)
{
    ElfW(Ehdr) eh;
    ElfW(Phdr) *ph = NULL;
    struct stat sb;
    uint64_t size, end;
    int fd, ok = 0, me;
    unsigned i;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "cannot open it: %s", strerror(errno));
        return 0;
    }
    if (fstat(fd, &sb) != 0) {
        snprintf(why, whylen, "cannot examine it: %s", strerror(errno));
        goto done;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(why, whylen, "it is %s, not a regular file", ps_file_kind(sb.st_mode));
        goto done;
    }
    size = (uint64_t)sb.st_size;
    if (size == 0) {
        snprintf(why, whylen, "it is empty");
        goto done;
    }
    memset(&eh, 0, sizeof eh);
    if (ps_file_read_at(fd, &eh, size < sizeof eh ? (size_t)size : sizeof eh, 0, size)) {
        snprintf(why, whylen, "cannot read it");
        goto done;
    }
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
        snprintf(why, whylen, "it is not an ELF file");
        goto done;
    }
    if (size < sizeof eh) {
        snprintf(why, whylen, "it is too short for an ELF header (%llu bytes)",
                 (unsigned long long)size);
        goto done;
    }
    if (eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)) {
        snprintf(why, whylen, "it is a %s ELF file, this pstencil is %d-bit",
                 eh.e_ident[EI_CLASS] == ELFCLASS64   ? "64-bit"
                 : eh.e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit"
                                                      : "malformed",
                 (int)(8 * sizeof(void *)));
        goto done;
    }
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (eh.e_ident[EI_DATA] != ELFDATA2LSB) {
#else
    if (eh.e_ident[EI_DATA] != ELFDATA2MSB) {
#endif
        snprintf(why, whylen, "its byte order is not this machine's");
        goto done;
    }
    me = own_machine();
    if (me != EM_NONE && eh.e_machine != me) {
        snprintf(why, whylen, "it is built for another machine (ELF machine %u, this "
                              "pstencil's is %d)", (unsigned)eh.e_machine, me);
        goto done;
    }
    if (eh.e_type != ET_DYN) {
        snprintf(why, whylen, "it is not a shared object (ELF type %u)", (unsigned)eh.e_type);
        goto done;
    }
    if (eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum == 0 ||
        eh.e_phnum > PS_PLUGIN_MAX_PHDRS) {
        snprintf(why, whylen, "its program header table is malformed (%u entries of %u bytes)",
                 (unsigned)eh.e_phnum, (unsigned)eh.e_phentsize);
        goto done;
    }
    end = (uint64_t)eh.e_phnum * sizeof(ElfW(Phdr));
    if (eh.e_phoff > size || end > size - eh.e_phoff) {
        snprintf(why, whylen, "its program headers (bytes %llu..%llu) lie past its end "
                              "(%llu bytes): the file is truncated or damaged",
                 (unsigned long long)eh.e_phoff, (unsigned long long)eh.e_phoff + end,
                 (unsigned long long)size);
        goto done;
    }
    ph = malloc((size_t)end);
    if (!ph || ps_file_read_at(fd, ph, (size_t)end, eh.e_phoff, size)) {
        snprintf(why, whylen, "cannot read its program headers");
        goto done;
    }
    for (i = 0; i < eh.e_phnum; i++) {
        uint64_t off = ph[i].p_offset, len = ph[i].p_filesz;
        if (len == 0)
            continue;
        if (off > size || len > size - off) {
            snprintf(why, whylen, "its segment %u (bytes %llu..%llu) lies past its end "
                                  "(%llu bytes): the file is truncated or damaged",
                     i, (unsigned long long)off, (unsigned long long)(off + len),
                     (unsigned long long)size);
            goto done;
        }
    }
    ok = 1;
done:
    free(ph);
    close(fd);
    return ok;
}

/*
 * Find pstencil_<name>.so on the plugin path; 1 if found (path filled). A
 * file there that plugin_file_ok() refuses is passed over (the search goes
 * on in the next directory), and the first such is described in @p bad
 * ("PATH is not a loadable plugin: WHY"; "" when there was none).
 */
static int find_plugin(const char *name, char *path, size_t len, char *searched, size_t slen,
                       const char **origin, char *bad, size_t badlen)
{
    char dirs[4096], why[512];
    char *save = NULL, *dir;
    const char *from = NULL;
    struct stat sb;
    ps_backend_plugin_dirs(dirs, sizeof dirs, &from);
    if (origin)
        *origin = from;
    searched[0] = '\0';
    if (bad && badlen)
        bad[0] = '\0';
    for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        size_t used = strlen(searched);
        snprintf(path, len, "%s/pstencil_%s.so", dir, name);
        snprintf(searched + used, slen - used, "%s%s", used ? ":" : "", dir);
        if (lstat(path, &sb) != 0)
            continue;
        if (plugin_file_ok(path, why, sizeof why))
            return 1;
        if (bad && badlen && !bad[0])
            snprintf(bad, badlen, "%s is not a loadable plugin: %s", path, why);
    }
    if (!searched[0])
        snprintf(searched, slen, "no directory (" PS_PLUGIN_PATH_ENV
                                 " has no absolute directory)");
    return 0;
}

int ps_backend_known(const char *const **names, int *count)
{
    static _Thread_local const char *known[PS_NLIST];
    char path[1100], searched[2048];
    int i, n = 0;
    for (i = 0; i < PS_NLIST; i++)
        if (ps_list[i].kind != PS_BACKEND_KIND_CHECK ||
            find_plugin(ps_list[i].name, path, sizeof path, searched, sizeof searched, NULL,
                        NULL, 0))
            known[n++] = ps_list[i].name;
    *names = known;
    *count = n;
    return PS_OK;
}

int ps_backend_open(const char *name, ps_backend **out)
{
    ps_backend *b;
    const ps_backend_ops *ops = NULL;
    char path[1100], searched[2048], bad[1800];
    const char *origin = NULL;
    void *dl;
    ps_plugin_entry_fn entry;
    int li;

    *out = NULL;
    if (!valid_name(name))
        return ps_error(PS_ENOBACKEND, "'%s' is not a backend name (known: %s)",
                        name ? name : "", ps_backend_names());
    li = list_index(name);
    if (li >= 0 && ps_builtin_fn[li])
        ops = ps_builtin_fn[li]();
    if (ops) {
        b = calloc(1, sizeof *b);
        if (!b)
            return ps_error(PS_ENOMEM, "out of memory");
        b->ops = ops;
        snprintf(b->path, sizeof b->path, "built-in");
        b->origin = PS_ORIGIN_BUILTIN;
        *out = b;
        return PS_OK;
    }
    if (li >= 0 && ps_list[li].kind == PS_BACKEND_KIND_BUILTIN)
        return ps_error(PS_ENOBACKEND, "backend '%s' was not built into this libpstencil "
                                       "(configure did not define %s: see its summary)",
                        name, ps_list[li].condition);
    if (!find_plugin(name, path, sizeof path, searched, sizeof searched, &origin, bad,
                     sizeof bad)) {
        if (bad[0])
            return ps_error(PS_EUNAVAIL, "backend '%s': %s", name, bad);
        if (li < 0)
            return ps_error(PS_ENOBACKEND, "unknown backend '%s' (known: %s; no plugin "
                                           "pstencil_%s.so in %s)",
                            name, ps_backend_names(), name, searched);
        if (ps_list[li].kind == PS_BACKEND_KIND_CHECK)
            return ps_error(PS_EUNAVAIL, "backend '%s' is built by 'make check' for the tests "
                                         "and never installed: no pstencil_%s.so in %s",
                            name, name, searched);
        if (!ps_list[li].built)
            return ps_error(PS_ENOBACKEND, "backend '%s' was not built (configure with "
                                           "--enable-%s)", name, name);
        return ps_error(PS_EUNAVAIL, "backend '%s': plugin pstencil_%s.so not found in %s "
                                     "(set " PS_PLUGIN_PATH_ENV " to its directory)",
                        name, name, searched);
    }
    dlerror();
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        return ps_error(PS_EUNAVAIL, "backend '%s': cannot load %s: %s", name, path,
                        e ? e : "dlopen failed");
    }
    entry = (ps_plugin_entry_fn)(uintptr_t)dlsym(dl, PS_PLUGIN_ENTRY);
    if (!entry) {
        dlclose(dl);
        return ps_error(PS_EUNAVAIL, "backend '%s': %s has no symbol " PS_PLUGIN_ENTRY
                                     " (not a pstencil plugin)", name, path);
    }
    ops = entry();
    if (!ops) {
        dlclose(dl);
        return ps_error(PS_EUNAVAIL, "backend '%s': %s returned no ops table", name, path);
    }
    if (ops->abi_version != PS_BACKEND_ABI_VERSION) {
        int v = ops->abi_version;
        dlclose(dl);
        return ps_error(PS_EABI, "backend '%s': %s was built for plugin ABI version %d, this "
                                 "pstencil needs version %d (rebuild the plugin)",
                        name, path, v, PS_BACKEND_ABI_VERSION);
    }
    if (!ops->name || strcmp(ops->name, name) || !ops->probe || !ops->create || !ops->upload ||
        !ops->step || !ops->finish || !ops->download || !ops->destroy || !ops->last_error) {
        dlclose(dl);
        return ps_error(PS_EUNAVAIL, "backend '%s': %s has an incomplete or misnamed ops table",
                        name, path);
    }
    b = calloc(1, sizeof *b);
    if (!b) {
        dlclose(dl);
        return ps_error(PS_ENOMEM, "out of memory");
    }
    b->ops = ops;
    b->dl = dl;
    snprintf(b->path, sizeof b->path, "%s", path);
    b->origin = origin;
    *out = b;
    return PS_OK;
}

const ps_backend_ops *ps_backend_get_ops(const ps_backend *b)
{
    return b->ops;
}

int ps_backend_kernel_check(const ps_backend *b, const char *stencil, ps_kernel k)
{
    const char *const *f = b->ops->fast_paths;
    char have[256] = "";
    size_t len = 0;
    if (k != PS_KERNEL_FAST)
        return PS_OK;
    for (; f && *f; f++) {
        if (stencil && !strcmp(*f, stencil))
            return PS_OK;
        len += (size_t)snprintf(have + len, len < sizeof have ? sizeof have - len : 0, "%s%s",
                                len ? ", " : "", *f);
        if (len >= sizeof have)
            len = sizeof have - 1;
    }
    return ps_error(PS_EUNSUPPORTED, "--kernel fast: backend '%s' has no fast path for stencil "
                    "'%s' (it has one for: %s); use --kernel generic or auto",
                    b->ops->name, stencil ? stencil : "?", have[0] ? have : "none");
}

const char *ps_backend_name(const ps_backend *b)
{
    return b->ops->name;
}

const char *ps_backend_path(const ps_backend *b)
{
    return b->path;
}

const char *ps_backend_origin(const ps_backend *b)
{
    return b->origin ? b->origin : PS_ORIGIN_BUILTIN;
}

int ps_backend_probe(ps_backend *b, ps_device_info *devs, int max, int *ndevs)
{
    char why[1024] = "";
    int st, n = 0;
    st = b->ops->probe(devs, max, &n, why, sizeof why);
    if (n > max) /* a backend must not report more devices than it could fill */
        n = max;
    if (ndevs)
        *ndevs = n;
    if (st)
        return ps_error(st, "%s: %s", b->ops->name, why[0] ? why : ps_strerror(st));
    if (n <= 0)
        return ps_error(PS_ENODEVICE, "%s: no device (%s)", b->ops->name,
                        why[0] ? why : "the backend reported none");
    return PS_OK;
}

void ps_backend_close(ps_backend *b)
{
    if (!b)
        return;
    /* Vendor runtimes (CUDA, ROCm) register atexit handlers; unloading them
     * before exit crashes. Keep plugin code mapped for the process lifetime. */
    free(b);
}

/* Append @p what to @p list, after @p sep unless the list is empty. */
static void note_sep(char *list, size_t len, const char *sep, const char *what)
{
    size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%s", used ? sep : "", what);
}

/* Append "; what" to a passed-over list. */
static void note(char *list, size_t len, const char *what)
{
    note_sep(list, len, "; ", what);
}

/* A backend `auto` may try: built-ins open (no dlopen), plugins that
 * declare their priority not yet loaded (b NULL). */
typedef struct auto_cand {
    const char *name;
    int priority;
    ps_backend *b;
} auto_cand;

int ps_backend_open_auto(ps_backend **out, char *why, size_t whylen)
{
    const char *const *names;
    auto_cand cand[64];
    char skipped[2048] = "", nodev[256] = "", unloaded[512] = "", path[1100], searched[2048];
    int nnames, ncand = 0, i, j, pick = -1;
    *out = NULL;
    ps_backend_known(&names, &nnames);
    /*
     * Every known backend, by priority (stable: ties in list order). A
     * plugin that declares its priority in its file (PS_PLUGIN_DECLARE) is
     * ordered without loading it; one that does not is loaded to learn it.
     */
    for (i = 0; i < nnames && ncand < 64; i++) {
        auto_cand c = {names[i], 0, NULL};
        int li = list_index(names[i]);
        int builtin = li >= 0 && ps_builtin_fn[li] != NULL;
        if (!builtin && find_plugin(names[i], path, sizeof path, searched, sizeof searched,
                                    NULL, NULL, 0) &&
            ps_backend_declared_priority(path, &c.priority)) {
            /* ordered by its declaration, loaded only when its turn comes */
        } else if (ps_backend_open(names[i], &c.b)) {
            note(skipped, sizeof skipped, ps_error_detail());
            continue;
        } else if (c.b->ops->flags & PS_BACKEND_NOAUTO) {
            ps_backend_close(c.b);
            continue;
        } else {
            c.priority = c.b->ops->priority;
        }
        for (j = ncand; j > 0 && cand[j - 1].priority < c.priority; j--)
            cand[j] = cand[j - 1];
        cand[j] = c;
        ncand++;
    }
    for (i = 0; i < ncand && pick < 0; i++) {
        ps_backend *b = cand[i].b;
        ps_device_info devs[16];
        int n = 0, st, gpu = 0, d;
        if (!b) {
            if (ps_backend_open(cand[i].name, &b)) {
                note(skipped, sizeof skipped, ps_error_detail());
                continue;
            }
            cand[i].b = b;
            if (b->ops->flags & PS_BACKEND_NOAUTO)
                continue; /* closed below, never picked */
        }
        st = ps_backend_probe(b, devs, 16, &n);
        if (st == PS_ENODEVICE) {
            /* no such device or driver on this machine: the usual case, named
             * only (pstencil backends says why); other failures in full */
            note_sep(nodev, sizeof nodev, ", ", b->ops->name);
            continue;
        }
        if (!st && (b->ops->flags & PS_BACKEND_GPU)) {
            /* a GPU backend on a CPU device (OpenCL on PoCL) is not preferred */
            for (d = 0; d < n; d++)
                gpu |= !strcmp(devs[d].type, "gpu");
            if (!gpu)
                st = ps_error(PS_ENODEVICE, "%s: no GPU device (only %s devices)",
                              b->ops->name, devs[0].type[0] ? devs[0].type : "non-GPU");
        }
        if (st) {
            note(skipped, sizeof skipped, ps_error_detail());
            continue;
        }
        pick = i;
        if (b->dl)
            snprintf(why, whylen, "auto picked '%s' (%s) from %s (%s)", b->ops->name,
                     devs[0].name, b->path, ps_backend_origin(b));
        else
            snprintf(why, whylen, "auto picked '%s' (%s, built-in)", b->ops->name,
                     devs[0].name);
    }
    for (i = 0; i < ncand; i++) {
        if (i == pick)
            continue;
        if (!cand[i].b && pick >= 0 && i > pick)
            note_sep(unloaded, sizeof unloaded, ", ", cand[i].name);
        ps_backend_close(cand[i].b);
    }
    if (pick < 0) {
        snprintf(why, whylen, "no backend can run: %s%s%s", skipped[0] ? skipped : "none loads",
                 nodev[0] ? "; no device here for " : "", nodev);
        return ps_error(PS_ENOBACKEND, "%s", why);
    }
    {
        size_t used = strlen(why);
        snprintf(why + used, whylen - used, "%s%s%s%s%s%s%s", skipped[0] ? "; passed over: " : "",
                 skipped, nodev[0] ? "; no device here for " : "", nodev,
                 nodev[0] ? " (pstencil backends says why)" : "",
                 unloaded[0] ? "; not loaded (lower priority): " : "", unloaded);
    }
    *out = cand[pick].b;
    return PS_OK;
}

/* ------------------------------------------------------------------ */

struct ps_context {
    ps_backend *b;
    void *ctx;
    char knobs_text[4096]; /* PS_DESCRIBE_KNOBS */
};

#define CTX_CALL(c, expr)                                                              \
    do {                                                                               \
        int st_ = (expr);                                                              \
        if (st_) {                                                                     \
            const char *m_ = (c)->b->ops->last_error((c)->ctx);                        \
            return ps_error(st_, "%s: %s", (c)->b->ops->name,                          \
                            (m_ && *m_) ? m_ : ps_strerror(st_));                      \
        }                                                                              \
        return PS_OK;                                                                  \
    } while (0)

ps_box ps_box_whole(ps_grid g)
{
    ps_box box;
    memset(&box, 0, sizeof box);
    box.extent = g;
    box.global = g;
    box.ghost = 0;
    box.global_faces = PS_FACE_ALL;
    return box;
}

void ps_config_init(ps_config *cfg, ps_grid g, ps_precision p)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->box = ps_box_whole(g);
    cfg->precision = p;
    cfg->mode = PS_MODE_EXACT;
    cfg->stencil = ps_stencil_default();
    /* the default stencil needs no coordinates: its parameters from its defaults */
    if (ps_stencil_prepare_default(cfg->stencil, g, &cfg->params))
        memset(&cfg->params, 0, sizeof cfg->params);
    cfg->device = -1;
}

int ps_threads_env_check(void)
{
    const char *env = getenv("OMP_NUM_THREADS"), *p;
    if (!env)
        return PS_OK;
    for (p = env; *p == ' ' || *p == '\t'; p++)
        ;
    if (!*p)
        return PS_OK; /* empty: the runtime's default */
    for (p = env;;) {
        char *end;
        long v;
        while (*p == ' ' || *p == '\t')
            p++;
        errno = 0;
        v = strtol(p, &end, 10);
        if (end == p || errno || v < 1 || v > PS_THREADS_MAX)
            return ps_error(PS_EINVAL, "OMP_NUM_THREADS=%s: each thread count must be a whole "
                                       "number in 1..%d (a comma-separated list gives one per "
                                       "nesting level)",
                            env, PS_THREADS_MAX);
        for (p = end; *p == ' ' || *p == '\t'; p++)
            ;
        if (!*p)
            return PS_OK;
        if (*p != ',')
            return ps_error(PS_EINVAL, "OMP_NUM_THREADS=%s: each thread count must be a whole "
                                       "number in 1..%d (a comma-separated list gives one per "
                                       "nesting level)",
                            env, PS_THREADS_MAX);
        p++;
    }
}

int ps_context_create(ps_backend *b, const ps_config *cfg, ps_context **out)
{
    ps_config c = *cfg;
    ps_context *ctx;
    char why[2048] = "";
    int st;
    *out = NULL;
    if (!c.stencil)
        c.stencil = ps_stencil_default();
    if (c.box.global.nz == 0 && c.box.global.ny == 0 && c.box.global.nx == 0)
        c.box.global = c.box.extent; /* a caller that predates the global grid */
    if (c.box.extent.nz == 0 || c.box.extent.ny == 0 || c.box.extent.nx == 0)
        return ps_error(PS_EINVAL, "empty box");
    if (c.threads < 0 || c.threads > PS_THREADS_MAX)
        return ps_error(PS_EINVAL, "invalid thread count %d: it must be 0 (the default) or "
                                   "1..%d", c.threads, PS_THREADS_MAX);
    if (c.threads == 0 && (b->ops->flags & PS_BACKEND_THREADS) && ps_threads_env_check())
        return PS_EINVAL; /* the default team would be OMP_NUM_THREADS's: detail set */
    if ((st = ps_backend_kernel_check(b, c.stencil->name, c.kernel)))
        return st; /* the backend lists no fast path for the stencil: detail set */
    ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return ps_error(PS_ENOMEM, "out of memory");
    ctx->b = b;
    st = b->ops->create(&c, &ctx->ctx, why, sizeof why);
    if (st) {
        free(ctx);
        return ps_error(st, "%s: %s", b->ops->name, why[0] ? why : ps_strerror(st));
    }
    *out = ctx;
    return PS_OK;
}

int ps_context_upload(ps_context *c, const void *host, const ps_region *r)
{
    CTX_CALL(c, c->b->ops->upload(c->ctx, host, r));
}

int ps_context_step(ps_context *c, long nsteps)
{
    if (nsteps < 0)
        return ps_error(PS_EINVAL, "negative step count %ld", nsteps);
    if (nsteps == 0)
        return PS_OK;
    CTX_CALL(c, c->b->ops->step(c->ctx, nsteps));
}

int ps_context_finish(ps_context *c)
{
    CTX_CALL(c, c->b->ops->finish(c->ctx));
}

int ps_context_download(ps_context *c, void *host, const ps_region *r)
{
    CTX_CALL(c, c->b->ops->download(c->ctx, host, r));
}

int ps_context_upload_pitched(ps_context *c, const void *host, size_t row_pitch,
                              size_t plane_pitch, const ps_region *r)
{
    if (!(c->b->ops->flags & PS_BACKEND_PITCHED) || !c->b->ops->upload_pitched)
        return ps_error(PS_ENOTIMPL, "%s has no pitched uploads", c->b->ops->name);
    CTX_CALL(c, c->b->ops->upload_pitched(c->ctx, host, row_pitch, plane_pitch, r));
}

int ps_context_download_pitched(ps_context *c, void *host, size_t row_pitch,
                                size_t plane_pitch, const ps_region *r)
{
    if (!(c->b->ops->flags & PS_BACKEND_PITCHED) || !c->b->ops->download_pitched)
        return ps_error(PS_ENOTIMPL, "%s has no pitched downloads", c->b->ops->name);
    CTX_CALL(c, c->b->ops->download_pitched(c->ctx, host, row_pitch, plane_pitch, r));
}

int ps_context_time_steps(ps_context *c, const void *in, void *out, long steps,
                          double *seconds)
{
    double t;
    int st = ps_context_upload(c, in, NULL);
    if (!st)
        st = ps_context_finish(c);
    t = ps_now();
    if (!st)
        st = ps_context_step(c, steps);
    if (!st)
        st = ps_context_finish(c);
    *seconds = ps_now() - t;
    if (!st && out)
        st = ps_context_download(c, out, NULL);
    return st;
}

int ps_context_adopt(ps_context *c, void *host)
{
    if (!(c->b->ops->flags & PS_BACKEND_ADOPT) || !c->b->ops->adopt)
        return ps_error(PS_ENOTIMPL, "%s cannot step a host field in place", c->b->ops->name);
    CTX_CALL(c, c->b->ops->adopt(c->ctx, host));
}

int ps_context_knobs(ps_context *c, ps_knobs *out)
{
    const ps_knobs *k;
    memset(out, 0, sizeof *out);
    if (!(c->b->ops->flags & PS_BACKEND_KNOBS) || !c->b->ops->knobs)
        return ps_error(PS_ENOTIMPL, "%s reports no tuning knobs", c->b->ops->name);
    k = c->b->ops->knobs(c->ctx);
    if (k)
        *out = *k;
    return PS_OK;
}

const char *ps_context_describe(ps_context *c, int what)
{
    const char *s;
    if (c && what == PS_DESCRIBE_KNOBS) {
        ps_knobs k;
        c->knobs_text[0] = '\0';
        if (!ps_context_knobs(c, &k))
            ps_knobs_describe(&k, c->knobs_text, sizeof c->knobs_text);
        return c->knobs_text;
    }
    if (c && what == PS_DESCRIBE_KERNEL &&
        !(c->b->ops->fast_paths && c->b->ops->fast_paths[0]))
        return "generic";
    if (!c || !(c->b->ops->flags & PS_BACKEND_DESCRIBE) || !c->b->ops->describe)
        return "";
    s = c->b->ops->describe(c->ctx, what);
    return s ? s : "";
}

int ps_context_timing(ps_context *c, ps_timing *t)
{
    if (!c->b->ops->timing)
        return ps_error(PS_ENOTIMPL, "%s keeps no device timing", c->b->ops->name);
    CTX_CALL(c, c->b->ops->timing(c->ctx, t));
}

void ps_context_destroy(ps_context *c)
{
    if (!c)
        return;
    if (c->ctx)
        c->b->ops->destroy(c->ctx);
    free(c);
}
