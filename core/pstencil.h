/**
 * @file pstencil.h
 * @brief Umbrella header of libpstencil, the engine: status codes, fields,
 *        the stencil registry, backends and their loader, the oracle, regions, the
 *        driver, the timer, the cell-by-cell comparison and the exact
 *        reductions of a record.
 *
 * The layers above have their own headers and libraries (docs/architecture.md):
 * NetCDF io `pstencil_io.h` (libpstencil-io), pictures `ps_plot.h`
 * (libpstencil-plot), validation `ps_validate.h` (libpstencil-validate).
 *
 * @code
 * #include <pstencil/pstencil.h>     // pkg-config --cflags --libs pstencil
 * @endcode
 */
#ifndef PSTENCIL_H
#define PSTENCIL_H

#include "ps_status.h"
#include "ps_field.h"
#include "ps_stencil.h"
#include "ps_backend.h"
#include "ps_knobs.h"
#include "ps_oracle.h"
#include "ps_region.h"
#include "ps_driver.h"
#include "ps_timer.h"
#include "ps_compare.h"
#include "ps_decomp.h"
#include "ps_ooc.h"
#include "ps_version.h"
#include "ps_exactsum.h"
#include "ps_reduce.h"
#include "ps_currents.h"
#include "ps_tune.h"

#endif
