/*
 * Internal: the ops tables of the backends built into libpstencil, one
 * declaration per BUILTIN entry of the backend list (backends/ps_backends.h):
 * backend NAME's folder defines const ps_backend_ops *ps_NAME_ops(void).
 */
#ifndef PS_BUILTIN_H
#define PS_BUILTIN_H
#include "ps_backend.h"
#include "../backends/ps_backends.h"

#define PS_BUILTIN_DECLARE_BUILTIN(name) const ps_backend_ops *ps_##name##_ops(void);
#define PS_BUILTIN_DECLARE_PLUGIN(name)
#define PS_BUILTIN_DECLARE_CHECK(name)
#define PS_BUILTIN_DECLARE(name, kind, built) PS_BUILTIN_DECLARE_##kind(name)
PS_BACKEND_LIST(PS_BUILTIN_DECLARE)
#undef PS_BUILTIN_DECLARE
#endif
