# plot tests/rules (owned by one area; see Makefile.am)
