/*
 * Starting MPI for a run, with the MPI-IO settings the output needs.
 *
 * Open MPI's own MPI-IO (OMPIO) before 4.1.7 and 5.0.0-5.0.5 writes with data
 * sieving (read-modify-write over the small gaps between the blocks of one
 * collective write) without locking the file range, so two aggregators can
 * overwrite each other's bytes: HDF5 then finds chunks whose Fletcher32
 * checksum no longer matches (open-mpi/ompi issue 12718, fixed by locking
 * ranges by default). On those versions write data sieving is turned off for
 * this process, unless the user set it or the locking protocol already
 * (OMPI_MCA_fbtl_posix_write_datasieving, OMPI_MCA_fs_ufs_lock_algorithm).
 * Other MPI libraries (MPICH's ROMIO locks its sieved writes) are left alone.
 */
#include "config.h"
#include "ps_mpi.h"
#include "ps_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ps_mpi_ompio_needs_sieving_off(const char *version)
{
    const char *p = version ? strstr(version, "Open MPI v") : NULL;
    int major = 0, minor = 0, patch = 0;
    if (!p || sscanf(p + strlen("Open MPI v"), "%d.%d.%d", &major, &minor, &patch) < 2)
        return 0;
    if (major < 4)
        return 1; /* 2.x and 3.x: OMPIO with the same unlocked sieving */
    if (major == 4)
        return minor < 1 || (minor == 1 && patch < 7);
    if (major == 5)
        return minor == 0 && patch < 6;
    return 0;
}

int ps_mpi_start(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, inited = 0;
    MPI_Initialized(&inited);
    if (inited)
        return PS_OK;
    /* one of the calls MPI allows before MPI_Init */
    if (MPI_Get_library_version(version, &len) == MPI_SUCCESS &&
        ps_mpi_ompio_needs_sieving_off(version) &&
        !getenv("OMPI_MCA_fbtl_posix_write_datasieving") &&
        !getenv("OMPI_MCA_fs_ufs_lock_algorithm"))
        setenv("OMPI_MCA_fbtl_posix_write_datasieving", "0", 0);
    return MPI_Init(NULL, NULL) == MPI_SUCCESS ? PS_OK : PS_EIO;
}
