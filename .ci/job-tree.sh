# Sourced by .ci/jobs/*.sh: a fresh source tree for a job's own build.
#
# The main CI job configures the checkout in place, and automake refuses an
# out-of-tree build of a source directory that is configured ("source
# directory already configured"). So each job builds from its own copy of
# the tracked files (the working tree as it is, edits included), bootstrapped
# with autoreconf: build-NAME/src, with the build in build-NAME/obj.
#
# ps_job_tree NAME: make build-NAME/src and build-NAME/obj, cd into obj, and
# set PS_JOB_CONFIGURE to the copy's configure script.
ps_job_tree() {
  local name=$1 top
  top=$(pwd)
  command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
    echo "ps_job_tree: $top is not a git checkout (the job copies its tracked files)"; return 1; }
  rm -rf "build-$name" && mkdir -p "build-$name/src" "build-$name/obj" || return 1
  # tracked files that exist (a file deleted in the working tree is skipped)
  git ls-files -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -xf - -C "build-$name/src" || return 1
  (cd "build-$name/src" && autoreconf -fi > autoreconf.log 2>&1) || {
    tail -20 "build-$name/src/autoreconf.log"; echo "autoreconf failed"; return 1; }
  cd "build-$name/obj" || return 1
  PS_JOB_CONFIGURE=$top/build-$name/src/configure
  export PS_JOB_CONFIGURE
}
