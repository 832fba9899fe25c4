/*
 * The opencl backend's fast-path table (backends/opencl/fast/ps_opencl_fast.c)
 * on its own, without a device: every name in ps_ocl_fast_paths is a
 * registered stencil with an entry; the lookup answers for exactly those
 * stencils (diffusion7: both precisions, both modes, the GPU shapes ij and
 * ijk, not the row shape, where the generic kernels match it on CPU devices)
 * and names kernels that the embedded program defines; a stencil or shape
 * without an entry gets the generic kernels (NULL).
 */
#include "config.h"
#include "pstencil.h"
#include "ps_backend.h"
#include "fast/ps_opencl_fast.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the embedded program (ps_opencl_source.c, generated at build time) */
extern const char *const ps_ocl_src_list[];

static const char *const shapes[] = {"ij", "ijk", "row"}; /* PS_OCL_SHAPE_* */

/* whether the program defines "__kernel void NAME(" */
static int program_has(const char *name)
{
    char want[200];
    int i;
    snprintf(want, sizeof want, "__kernel void %s(", name);
    for (i = 0; ps_ocl_src_list[i]; i++)
        if (strstr(ps_ocl_src_list[i], want))
            return 1;
    return 0;
}

static int listed(const char *name)
{
    int i;
    for (i = 0; ps_ocl_fast_paths[i]; i++)
        if (!strcmp(ps_ocl_fast_paths[i], name))
            return 1;
    return 0;
}

static void cfg_for(ps_config *cfg, const ps_stencil *s, int p, int m, double d)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->stencil = s;
    cfg->precision = (ps_precision)p;
    cfg->mode = (ps_mode)m;
    cfg->params.scalars[0] = d;
}

int main(void)
{
    const ps_stencil *d7 = ps_stencil_find("diffusion7");
    ps_config cfg;
    int i, p, m, sh;
    EXPECT(d7 != NULL);
    EXPECT(ps_ocl_fast_paths[0] != NULL);
    for (i = 0; ps_ocl_fast_paths[i]; i++)
        CHECK(ps_stencil_find(ps_ocl_fast_paths[i]) != NULL,
              "ps_ocl_fast_paths names '%s', not a registered stencil", ps_ocl_fast_paths[i]);
    for (i = 0; i < ps_stencil_count(); i++) {
        const ps_stencil *s = ps_stencil_at(i);
        int found = 0;
        for (p = PS_FLOAT32; p <= PS_FLOAT64; p++)
            for (m = PS_MODE_EXACT; m <= PS_MODE_FAST; m++)
                for (sh = 0; sh < 3; sh++) {
                    const ps_ocl_fast_entry *f;
                    char k[160];
                    cfg_for(&cfg, s, p, m, 0.5);
                    f = ps_ocl_fast_find(&cfg, sh);
                    if (!f)
                        continue;
                    found = 1;
                    snprintf(k, sizeof k, "%s_%s", f->kernel, shapes[sh]);
                    CHECK(program_has(k), "%s: entry names kernel %s, not in the program",
                          s->name, k);
                }
        CHECK(found == listed(s->name), "%s: %s in ps_ocl_fast_paths but %s entry", s->name,
              listed(s->name) ? "named" : "not named", found ? "has an" : "has no");
    }
    /* diffusion7: every precision and mode in ij and ijk, whatever D; none in row */
    for (p = PS_FLOAT32; p <= PS_FLOAT64; p++)
        for (m = PS_MODE_EXACT; m <= PS_MODE_FAST; m++)
            for (sh = 0; sh < 3; sh++) {
                static const double ds[] = {0.0, 0.5, 1.0, -0.01, 1.01, NAN};
                size_t q;
                for (q = 0; q < sizeof ds / sizeof ds[0]; q++) {
                    const int want = sh != PS_OCL_SHAPE_ROW;
                    cfg_for(&cfg, d7, p, m, ds[q]);
                    CHECK((ps_ocl_fast_find(&cfg, sh) != NULL) == want,
                          "diffusion7 p%d m%d %s D=%g: %s", p, m, shapes[sh], ds[q],
                          want ? "no entry" : "an entry in the row shape");
                }
            }
    return ps_test_finish("test_opencl_fast");
}
