/* pstencil compare: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_compare(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'compare' is not implemented yet");
}
