/**
 * @file ps_oracle.h
 * @brief The oracle: the backend every other one is compared with, found by
 *        its capability flag (PS_BACKEND_ORACLE), never by its name.
 */
#ifndef PS_ORACLE_H
#define PS_ORACLE_H

#include "ps_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Open the oracle: the first backend, searched from the end of
 * ps_backend_known() (the `auto` order puts it last), whose ops table has
 * PS_BACKEND_ORACLE. PS_ENOBACKEND (with the detail) if none can be opened.
 * Close it with ps_backend_close(); ps_backend_name() gives its name.
 */
int ps_backend_open_oracle(ps_backend **out);

#ifdef __cplusplus
}
#endif
#endif /* PS_ORACLE_H */
