/*
 * What the io tests share: a netCDF call that must succeed, whether a path
 * exists, the writer's leftover temporary files in a folder, a text
 * attribute, the grid of a small CF source file.
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


/* The coordinates of the source grid: two records at hours 100 and 106 since
 * 1950-01-01, lev 1, 10, 100 m, y 50..51.5 and x -3..-1 degrees by 0.5. */
static const double source_time[2] = {100, 106}, source_lev[3] = {1, 10, 100};
static const float source_y[4] = {50, 50.5f, 51, 51.5f};
static const float source_x[5] = {-3, -2.5f, -2, -1.5f, -1};

/* Creates the netCDF-4 source file @p path (clobbering it) with the grid:
 * dimensions time (unlimited), lev 3, y 4, x 5 into @p d and their
 * coordinate variables into @p c (time in hours since 1950-01-01, lev in m
 * positive down, y in degrees_north with long_name @p y_long_name unless
 * NULL, x in degrees_east). Returns the file, in define mode for the
 * caller's variables; source_grid_end() writes the coordinates. */
static inline int source_grid_begin(const char *path, int d[4], int c[4],
                                    const char *y_long_name)
{
    int nc;
    NCX(nc_create(path, NC_CLOBBER | NC_NETCDF4, &nc));
    NCX(nc_def_dim(nc, "time", NC_UNLIMITED, &d[0]));
    NCX(nc_def_dim(nc, "lev", 3, &d[1]));
    NCX(nc_def_dim(nc, "y", 4, &d[2]));
    NCX(nc_def_dim(nc, "x", 5, &d[3]));
    NCX(nc_def_var(nc, "time", NC_DOUBLE, 1, &d[0], &c[0]));
    NCX(nc_put_att_text(nc, c[0], "units", 22, "hours since 1950-01-01"));
    NCX(nc_def_var(nc, "lev", NC_DOUBLE, 1, &d[1], &c[1]));
    NCX(nc_put_att_text(nc, c[1], "positive", 4, "down"));
    NCX(nc_put_att_text(nc, c[1], "units", 1, "m"));
    NCX(nc_def_var(nc, "y", NC_FLOAT, 1, &d[2], &c[2]));
    NCX(nc_put_att_text(nc, c[2], "units", 13, "degrees_north"));
    if (y_long_name)
        NCX(nc_put_att_text(nc, c[2], "long_name", strlen(y_long_name), y_long_name));
    NCX(nc_def_var(nc, "x", NC_FLOAT, 1, &d[3], &c[3]));
    NCX(nc_put_att_text(nc, c[3], "units", 12, "degrees_east"));
    return nc;
}

/* Leaves define mode of a source_grid_begin() file and writes its
 * coordinates (source_time, source_lev, source_y, source_x). */
static inline void source_grid_end(int nc, const int c[4])
{
    size_t s0 = 0, n = 2;
    NCX(nc_enddef(nc));
    NCX(nc_put_vara_double(nc, c[0], &s0, &n, source_time));
    NCX(nc_put_var_double(nc, c[1], source_lev));
    NCX(nc_put_var_float(nc, c[2], source_y));
    NCX(nc_put_var_float(nc, c[3], source_x));
}

#endif
