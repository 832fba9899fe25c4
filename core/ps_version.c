/* ps_version(): the package version configure set, compiled into libpstencil. */
#include "config.h"
#include "ps_version.h"

const char *ps_version(void)
{
    return PACKAGE_VERSION;
}
