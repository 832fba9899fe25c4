/**
 * @file ps_file.h
 * @brief What kind of file a path is, in words, for messages that refuse
 *        anything but a regular file (inputs, outputs, plugins).
 */
#ifndef PS_FILE_H
#define PS_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * The kind of a file from its @c st_mode, with its article: "a regular file",
 * "a directory", "a FIFO", "a character device", "a block device", "a socket",
 * "a symbolic link", or "an unknown kind of file".
 */
const char *ps_file_kind(mode_t mode);

/**
 * Read exactly @p len bytes at offset @p off of the open file @p fd, whose
 * size is @p fsize (retrying on EINTR and short reads).
 * @return 0, or -1 when the bytes do not all lie inside the file or a read
 *         fails or ends early.
 */
int ps_file_read_at(int fd, void *buf, size_t len, uint64_t off, uint64_t fsize);

#endif
