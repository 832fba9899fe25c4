/**
 * @file pstencil.h
 * @brief Umbrella header of libpstencil.
 *
 * @code
 * #include <pstencil/pstencil.h>
 * @endcode
 */
#ifndef PSTENCIL_H
#define PSTENCIL_H

#include "ps_status.h"
#include "ps_field.h"
#include "ps_stencil.h"
#include "ps_backend.h"
#include "ps_region.h"
#include "ps_driver.h"
#include "ps_timer.h"
#include "ps_compare.h"
#include "ps_validate.h"
#include "ps_io.h"

#endif
