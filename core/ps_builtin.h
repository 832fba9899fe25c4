/* Internal: ops tables of the backends built into libpstencil. */
#ifndef PS_BUILTIN_H
#define PS_BUILTIN_H
#include "ps_backend.h"
const ps_backend_ops *ps_reference_ops(void);
const ps_backend_ops *ps_openmp_ops(void);
#endif
