/* Internal to io/: the size check of classic-format netCDF files
 * (io/ps_nc_header.c). Not installed. */
#ifndef PS_NC_HEADER_H
#define PS_NC_HEADER_H

#include <sys/types.h>

/**
 * For a classic, 64-bit-offset or CDF5 file of @p fsize bytes: parse its
 * header, compute the smallest size it implies (every fixed variable's data,
 * every record of every record variable) and compare. PS_OK when the file is
 * at least that long or the header is too odd to judge; PS_ETRUNC when it is
 * shorter or ends inside its header; PS_EIO / PS_ENOMEM otherwise. The
 * detail names @p path.
 */
int ps_nc_check_classic_size(const char *path, off_t fsize);

#endif
