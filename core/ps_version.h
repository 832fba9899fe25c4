/**
 * @file ps_version.h
 * @brief The version of the pstencil library a program runs with.
 */
#ifndef PS_VERSION_H
#define PS_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The version of the libpstencil in use, as "MAJOR.MINOR.PATCH" (the
 * package version, e.g. "0.1.0"): what `pstencil --version` prints. A static
 * string; never NULL.
 */
const char *ps_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PS_VERSION_H */
