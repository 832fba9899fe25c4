/**
 * @file pstencil_io.h
 * @brief Umbrella header of libpstencil-io: the engine (pstencil.h) and
 *        NetCDF reading, writing and the built-in ocean (ps_io.h).
 *
 * @code
 * #include <pstencil/pstencil_io.h>  // pkg-config --cflags --libs pstencil-io
 * @endcode
 */
#ifndef PSTENCIL_IO_H
#define PSTENCIL_IO_H

#include "pstencil.h"
#include "ps_io.h"

#endif
