/* pstencil backends: not written yet. */
#include "config.h"
#include "ps_cli.h"

int ps_cmd_backends(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return ps_cli_error("'backends' is not implemented yet");
}
