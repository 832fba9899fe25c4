/* A stand-in for a vendor runtime (libcuda, libamdhip64...): the
 * pstencil_novendor test plugin links against it, and the loader test runs
 * with the library moved out of reach, as on a machine without the driver. */
int ps_fakevendor_init(void);
int ps_fakevendor_init(void)
{
    return 42;
}
