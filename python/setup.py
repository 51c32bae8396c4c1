"""Builds asys._asys, the engine module, for `pip install ./python`.

The module is core/ compiled with pybind11 (python/CMakeLists.txt). When the
checkout's native build has made it (build/native/python, or the build
directory ASYS_BUILD_DIR names), it is copied; otherwise CMake builds it
here, offline, from the checkout's sources (pybind11-dev, python3-dev and
the engine's own build dependencies: scripts/setup.sh).
"""

import glob
import os
import shutil
import subprocess
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(HERE)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        build_dir = os.environ.get("ASYS_BUILD_DIR", os.path.join(CHECKOUT, "build", "native"))
        built = os.path.join(build_dir, "python", "_asys" + suffix)
        if not os.path.exists(built):
            build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            subprocess.check_call(["cmake", "-S", CHECKOUT, "-B", build_dir, "-G", "Ninja",
                                   "-DCMAKE_BUILD_TYPE=Release", "-DPython_EXECUTABLE=" + os.path.realpath(
                                       os.environ.get("ASYS_PYTHON", "/usr/bin/python3"))])
            subprocess.check_call(["cmake", "--build", build_dir, "--target", "asys_python"])
            built = glob.glob(os.path.join(build_dir, "python", "_asys*"))[0]
        shutil.copyfile(built, target)


setup(ext_modules=[Extension("asys._asys", sources=[])], cmdclass={"build_ext": CMakeBuild})
