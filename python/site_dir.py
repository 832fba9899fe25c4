"""Print where a package for PREFIX goes so that this Python finds it.

    python3 site_dir.py PREFIX

The first directory of sys.path under PREFIX/lib/python* that is a
site-packages or dist-packages (Debian's /usr/local/lib/python3.X/dist-packages
for the default prefix /usr/local); else the posix_prefix scheme's platlib
for PREFIX (PREFIX/lib/python3.X/site-packages), which needs PYTHONPATH.
"""
import os
import sys
import sysconfig

prefix = os.path.normpath(sys.argv[1])
for p in sys.path:
    if (p.startswith(prefix + "/lib/python") and os.path.basename(p) in
            ("site-packages", "dist-packages")):
        print(p)
        break
else:
    print(sysconfig.get_path("platlib", "posix_prefix", vars={"base": prefix,
                                                             "platbase": prefix}))
