/* pstencil gen: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_gen(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'gen' is not implemented yet");
}
