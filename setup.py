"""Build-time shim of pyproject.toml (the configuration is there): setuptools' scratch files --
the `termeval.egg-info` metadata and the `build/` tree -- go to a temporary directory removed at
the end, so that building or installing (`pip install /opt/termeval`) writes nothing into the
source tree, which may be a read-only or shared clone (tests/recipe/test_packaging.py)."""
import atexit
import os
import shutil
import tempfile

from setuptools import setup

_scratch = tempfile.mkdtemp(prefix="termeval-build-")
atexit.register(shutil.rmtree, _scratch, True)
setup(options={"egg_info": {"egg_base": _scratch},
               "build": {"build_base": os.path.join(_scratch, "build")}})
