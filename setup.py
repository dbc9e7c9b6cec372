"""Builds smdx's native module (python/module.cc) with CMake for pip, on
the offline route: `pip install --no-build-isolation .` with Debian's
setuptools and pybind11 (python/backend/smdx_backend.py comes here when
scikit-build-core, the isolated build's backend, is missing).

The metadata is in pyproject.toml. The extension is the CMake target
smdx_python, built in build-python/cmake (or in SMDX_BUILD_DIR, a configured
CMake build of this checkout, which the test command reuses) and copied
where setuptools packages it.
"""

import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("SMDX_BUILD_DIR") or os.path.join(
            ROOT, "build-python", "cmake")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call([
                "cmake", "-S", ROOT, "-B", build, "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=Release", "-DSMDX_BUILD_TESTS=OFF",
                "-DSMDX_BUILD_BENCH=OFF",
                "-DPython_EXECUTABLE=" + sys.executable,
            ])
        subprocess.check_call(
            ["cmake", "--build", build, "--target", "smdx_python"])
        built = glob.glob(os.path.join(build, "python", "smdx", "_smdx*.so"))
        if not built:
            raise RuntimeError(f"CMake built no _smdx module in {build}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    ext_modules=[Extension("smdx._smdx", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-python"},
             "egg_info": {"egg_base": "build-python"}},
)
