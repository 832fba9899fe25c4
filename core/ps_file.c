/* Kinds of files in words (core/ps_file.h). */
#include "config.h"
#include "ps_file.h"

#include <sys/stat.h>

const char *ps_file_kind(mode_t m)
{
    if (S_ISREG(m))
        return "a regular file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISLNK(m))
        return "a symbolic link";
    return "an unknown kind of file";
}
