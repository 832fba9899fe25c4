/* Internal to io/: the bounded pre-parser that checks every file before
 * netCDF-C opens it (io/ps_nc_header.c). Not installed. */
#ifndef PS_NC_HEADER_H
#define PS_NC_HEADER_H

#include <sys/types.h>

/** What ps_nc_precheck() found at the start of the file. */
enum { PS_NC_UNKNOWN = 0, PS_NC_CLASSIC = 1, PS_NC_HDF5 = 2 };

/**
 * Check the file at @p path of @p fsize bytes before any library reads it.
 * Classic, 64-bit-offset and CDF5: parse the whole header (the first MiB
 * read, more as the header needs, at most 32 MiB),
 * checking every count, name length, attribute length and data offset
 * against the bytes present and netCDF's limits (overflow-safe), then
 * compare the size the header implies (all fixed data, every record) with
 * @p fsize. HDF5 (netCDF-4): compare the superblock's end-of-file address
 * with @p fsize. Anything else is not a NetCDF file.
 *
 * @param kind set to PS_NC_CLASSIC, PS_NC_HDF5 or PS_NC_UNKNOWN.
 * @return PS_OK; PS_ETRUNC when the file is shorter than its header says or
 *         ends inside it; PS_EFORMAT for a damaged header or another kind of
 *         file; PS_EIO / PS_ENOMEM otherwise. The detail names @p path and
 *         the problem.
 */
int ps_nc_precheck(const char *path, off_t fsize, int *kind);

#endif
