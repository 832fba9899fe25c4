/*
 * What the io tests share: a netCDF call that must succeed, whether a path
 * exists, the writer's leftover temporary files in a folder, a text
 * attribute.
 */
#ifndef PS_IO_TEST_H
#define PS_IO_TEST_H

#include <dirent.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* a netCDF call that must succeed: exit 99 (a hard error) naming it otherwise */
#define NCX(x) do { int rc_ = (x); if (rc_) { printf("netCDF error %s at %s:%d\n", nc_strerror(rc_), __FILE__, __LINE__); exit(99); } } while (0)

static inline int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* Number of leftover temporary files (".*.tmp.*", the writer's) in @p dir. */
static inline int tmp_files_in(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        if (e->d_name[0] == '.' && strstr(e->d_name, ".tmp."))
            n++;
    if (d)
        closedir(d);
    return n;
}

/* Text attribute @p name of variable @p v (malloc'd, NULL if absent). */
static inline char *get_text(int nc, int v, const char *name)
{
    size_t len;
    char *s;
    if (nc_inq_attlen(nc, v, name, &len))
        return NULL;
    s = calloc(len + 1, 1);
    if (s)
        nc_get_att_text(nc, v, name, s);
    return s;
}

#endif
