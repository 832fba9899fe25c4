# docs/: the user guide and the man page.
man_MANS = docs/pstencil.1
EXTRA_DIST += docs/pstencil.1
