/* pstencil validate: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'validate' is not implemented yet");
}
