/* The oracle: the backend flagged PS_BACKEND_ORACLE (see ps_oracle.h). */
#include "config.h"
#include "ps_oracle.h"
#include "ps_status.h"

#include <stddef.h>

int ps_backend_open_oracle(ps_backend **out)
{
    const char *const *names;
    int n, i;
    *out = NULL;
    ps_backend_known(&names, &n);
    for (i = n - 1; i >= 0; i--) {
        ps_backend *b = NULL;
        if (ps_backend_open(names[i], &b))
            continue;
        if (ps_backend_get_ops(b)->flags & PS_BACKEND_ORACLE) {
            *out = b;
            return PS_OK;
        }
        ps_backend_close(b);
    }
    return ps_error(PS_ENOBACKEND, "no backend with the PS_BACKEND_ORACLE flag could be opened "
                    "(the reference every backend is compared with)");
}
