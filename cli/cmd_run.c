/* pstencil run: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'run' is not implemented yet");
}
