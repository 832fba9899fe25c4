/**
 * @file ps_backends.h
 * @brief The backend list: every backend pstencil knows, named once.
 *
 * One line per backend, X(NAME, KIND, BUILT):
 *
 * - NAME: the backend's name. It is the folder backends/NAME/, the plugin
 *   file pstencil_NAME.so, the value of --backend and of ops->name.
 * - KIND: BUILTIN (compiled into libpstencil; its folder defines
 *   `const ps_backend_ops *ps_NAME_ops(void)`), PLUGIN (a libtool module
 *   loaded with dlopen at run time, built in backends/NAME/.libs), or CHECK
 *   (a plugin built by `make check` for the test suite and never installed;
 *   it is known only where its plugin is on the plugin path).
 * - BUILT: the config.h macro configure defines (to 1) when it builds the
 *   backend, or 1 for a backend that is always built.
 *
 * What reads it: the loader (core/ps_loader.c: the known names, the built-in
 * tables, whether a backend was built, its messages, the candidates of
 * `auto`), through the loader the help text, `pstencil backends`, validate,
 * bench and the plot colours (a backend's colour is its position here: add a
 * backend at the end so the others keep theirs), and configure
 * (m4/ps_backends.m4: the configuration summary and the test suite's
 * plugin path, backends/NAME/.libs of every PLUGIN and CHECK entry).
 * configure reads the entries with sed, so keep each on its own line in
 * exactly the form `X(name, KIND, BUILT)`.
 *
 * The order is the order of listings and help text only. `auto` tries every
 * backend that loads by the priority in its ops table (the one source of
 * priority), highest first, skipping PS_BACKEND_NOAUTO ones; a backend
 * flagged PS_BACKEND_GPU is taken only if it has a device of type "gpu".
 *
 * docs/adding-a-backend.md says how to add one. Include config.h first.
 */
#ifndef PS_BACKENDS_H
#define PS_BACKENDS_H

#define PS_BACKEND_LIST(X)                                                             \
    X(reference, BUILTIN, 1)                                                           \
    X(openmp, BUILTIN, PS_HAVE_OPENMP)                                                 \
    X(opencl, PLUGIN, PS_BUILD_OPENCL)                                                 \
    X(cuda, PLUGIN, PS_BUILD_CUDA)                                                     \
    X(hip, PLUGIN, PS_BUILD_HIP)                                                       \
    X(check, CHECK, 1)

/*
 * PS_BACKEND_IS_SET(M): 1 if M is a macro defined as 1 (or is the literal 1),
 * else 0, usable inside an X-macro where #ifdef is not (the kernel's
 * IS_ENABLED idiom): PS_BACKEND_ONE_1 expands to "0," and shifts the 1 into
 * second place; any other name pastes to an unknown token and 0 stays second.
 */
#define PS_BACKEND_ONE_1 0,
#define PS_BACKEND_SECOND_(a, b, ...) b
#define PS_BACKEND_IS_SET_3(junk) PS_BACKEND_SECOND_(junk 1, 0, ~)
#define PS_BACKEND_IS_SET_2(v) PS_BACKEND_IS_SET_3(PS_BACKEND_ONE_##v)
#define PS_BACKEND_IS_SET(m) PS_BACKEND_IS_SET_2(m)

/* PS_BACKEND_IF_SET(M, A, B): A if PS_BACKEND_IS_SET(M), else B. */
#define PS_BACKEND_PICK_0(a, b) b
#define PS_BACKEND_PICK_1(a, b) a
#define PS_BACKEND_PICK_2(c, a, b) PS_BACKEND_PICK_##c(a, b)
#define PS_BACKEND_PICK(c, a, b) PS_BACKEND_PICK_2(c, a, b)
#define PS_BACKEND_IF_SET(m, a, b) PS_BACKEND_PICK(PS_BACKEND_IS_SET(m), a, b)

#endif /* PS_BACKENDS_H */
