/* Internal to io/: every unit pstencil reads or writes, parsed, converted
 * and named by UDUNITS-2 (io/ps_units.c). Not installed. */
#ifndef PS_UNITS_H
#define PS_UNITS_H

#include <stddef.h>

/** What a unit measures. */
typedef enum {
    PS_UNIT_UNKNOWN = 0,   /**< UDUNITS-2 cannot read it */
    PS_UNIT_TEMPERATURE,   /**< convertible to degC */
    PS_UNIT_LENGTH,        /**< convertible to m */
    PS_UNIT_TIME,          /**< a duration, convertible to s */
    PS_UNIT_DIMENSIONLESS, /**< convertible to 1 (also angles: degrees_north) */
    PS_UNIT_OTHER          /**< anything else UDUNITS-2 reads */
} ps_unit_kind;

/** A parsed unit. */
typedef struct ps_unit {
    ps_unit_kind kind;
    double scale, offset; /**< a value in the kind's base unit (degC, m, s, 1) is
                               value * scale + offset */
    char canonical[64];   /**< the spelling written to outputs: the input's when
                               UDUNITS-2 reads it as written, else the one it
                               reads ("DEG C" -> "degC", "METERS" -> "m") */
} ps_unit;

/**
 * Parse @p text with UDUNITS-2 (its database loaded once per process).
 * Spellings UDUNITS-2 does not read, or reads as something else, that ocean
 * files use (Ferret's "DEG C" and "DEG K"; "PPT" and "psu", parts per
 * thousand, which UDUNITS-2 reads as parts per trillion or not at all) are
 * read as "degC", "K" and "1e-3"; a plural it does not know ("hrs", "mins")
 * as its singular; an all-capitals spelling ("METERS") is written in UDUNITS-2's
 * symbol ("m").
 * @return PS_OK; PS_EINVAL (kind PS_UNIT_UNKNOWN) when UDUNITS-2 cannot read
 *         it, or @p text is NULL or blank; PS_EIO when the UDUNITS-2 database
 *         cannot be loaded (the detail says where it looked).
 */
int ps_unit_parse(const char *text, ps_unit *u);

/**
 * The linear map from units @p from to units @p to (parsed as ps_unit_parse()
 * does): a value v in @p from is v * scale + offset in @p to.
 * @return PS_OK; PS_EINVAL when either cannot be read or they measure different
 *         things (the detail names both); PS_EIO as ps_unit_parse().
 */
int ps_unit_factors(const char *from, const char *to, double *scale, double *offset);

/** The kind of @p text (PS_UNIT_UNKNOWN when it cannot be read). */
ps_unit_kind ps_unit_kind_of(const char *text);

#endif
