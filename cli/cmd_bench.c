/* pstencil bench: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'bench' is not implemented yet");
}
