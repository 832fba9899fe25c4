/**
 * @file ps_file.h
 * @brief What kind of file a path is, in words, for messages that refuse
 *        anything but a regular file (inputs, outputs, plugins).
 */
#ifndef PS_FILE_H
#define PS_FILE_H

#include <sys/types.h>

/**
 * The kind of a file from its @c st_mode, with its article: "a regular file",
 * "a directory", "a FIFO", "a character device", "a block device", "a socket",
 * "a symbolic link", or "an unknown kind of file".
 */
const char *ps_file_kind(mode_t mode);

#endif
