/* pstencil summary: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_summary(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'summary' is not implemented yet");
}
