/* pstencil plot: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_plot(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'plot' is not implemented yet");
}
