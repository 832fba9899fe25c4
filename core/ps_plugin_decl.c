/*
 * A plugin's declared priority (PS_PLUGIN_DECLARE in ps_backend.h), read from
 * its ELF section without dlopen, so `auto` can order plugins before loading
 * any and never load (run the constructors of) those it does not need.
 * Every read is bounded and checked against the file size: a damaged or
 * foreign file counts as undeclared and is loaded the ordinary way.
 */
#include "config.h"
#include "ps_file.h"
#include "ps_backend.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PS_DECL_MAX_SECTIONS 4096
#define PS_DECL_MAX_SHSTRTAB (1u << 20)
#define PS_DECL_MAX_TEXT 128

/* read exactly @p len bytes at @p off; 0 on success */
/* "pstencil-plugin priority=N" -> N; 0 on success */
static int parse_decl(const char *text, int *priority)
{
    static const char pre[] = "pstencil-plugin priority=";
    char *end;
    long v;
    if (strncmp(text, pre, sizeof pre - 1))
        return -1;
    errno = 0;
    v = strtol(text + sizeof pre - 1, &end, 10);
    if (errno || end == text + sizeof pre - 1 || *end || v < INT_MIN || v > INT_MAX)
        return -1;
    *priority = (int)v;
    return 0;
}

int ps_backend_declared_priority(const char *path, int *priority)
{
    Elf64_Ehdr eh;
    Elf64_Shdr sh, strsh;
    struct stat stb;
    char *names = NULL, text[PS_DECL_MAX_TEXT + 1];
    uint64_t fsize;
    int fd, found = 0;
    unsigned i;
    if (!path || !priority)
        return 0;
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC); /* a FIFO never blocks */
    if (fd < 0)
        return 0;
    if (fstat(fd, &stb) || !S_ISREG(stb.st_mode))
        goto done;
    fsize = (uint64_t)stb.st_size;
    if (ps_file_read_at(fd, &eh, sizeof eh, 0, fsize) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 ||
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        eh.e_ident[EI_DATA] != ELFDATA2LSB ||
#else
        eh.e_ident[EI_DATA] != ELFDATA2MSB ||
#endif
        eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
        eh.e_shnum > PS_DECL_MAX_SECTIONS || eh.e_shstrndx >= eh.e_shnum)
        goto done;
    if (ps_file_read_at(fd, &strsh, sizeof strsh, eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof sh,
                fsize) ||
        strsh.sh_size == 0 || strsh.sh_size > PS_DECL_MAX_SHSTRTAB)
        goto done;
    names = malloc(strsh.sh_size + 1);
    if (!names || ps_file_read_at(fd, names, strsh.sh_size, strsh.sh_offset, fsize))
        goto done;
    names[strsh.sh_size] = '\0';
    for (i = 0; i < eh.e_shnum && !found; i++) {
        if (ps_file_read_at(fd, &sh, sizeof sh, eh.e_shoff + (uint64_t)i * sizeof sh, fsize))
            goto done;
        if (sh.sh_type != SHT_PROGBITS || sh.sh_name >= strsh.sh_size ||
            strcmp(names + sh.sh_name, PS_PLUGIN_SECTION))
            continue;
        /* the text and its terminating NUL (one declaration per plugin) */
        if (sh.sh_size < 2 || sh.sh_size > PS_DECL_MAX_TEXT ||
            ps_file_read_at(fd, text, sh.sh_size, sh.sh_offset, fsize))
            goto done;
        text[sh.sh_size] = '\0';
        if (strlen(text) != sh.sh_size - 1)
            goto done; /* more than one string: not ours */
        found = !parse_decl(text, priority);
        goto done;
    }
done:
    free(names);
    close(fd);
    return found;
}
