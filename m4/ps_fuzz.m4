dnl PS_CHECK_FUZZ: a C compiler that takes -fsanitize=fuzzer (clang), for the
dnl libFuzzer target of the reader (tests/fuzz/, `make fuzz`). FUZZ_CC names it
dnl (override with FUZZ_CC=...); the conditional PS_FUZZ says whether it works.
AC_DEFUN([PS_CHECK_FUZZ], [
  AC_ARG_VAR([FUZZ_CC], [C compiler with -fsanitize=fuzzer for make fuzz (default: clang)])
  AS_IF([test -z "$FUZZ_CC"], [AC_CHECK_PROGS([FUZZ_CC], [clang clang-16 clang-15 clang-14])])
  ps_fuzz_happy=no
  AS_IF([test -n "$FUZZ_CC"], [
    AC_MSG_CHECKING([whether $FUZZ_CC supports -fsanitize=fuzzer])
    cat > conftest_fuzz.c <<'PSEOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
PSEOF
    AS_IF([$FUZZ_CC -fsanitize=fuzzer,address -o conftest_fuzz conftest_fuzz.c >&AS_MESSAGE_LOG_FD 2>&1],
          [ps_fuzz_happy=yes])
    rm -f conftest_fuzz conftest_fuzz.c
    AC_MSG_RESULT([$ps_fuzz_happy])
  ])
  AM_CONDITIONAL([PS_FUZZ], [test "$ps_fuzz_happy" = yes])
])
