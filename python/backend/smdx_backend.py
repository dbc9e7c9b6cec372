"""The PEP 517 build backend of smdx's Python package.

`pip install .` and `pip wheel .` build in isolation: pip installs the
pinned scikit-build-core and pybind11 of pyproject.toml into a fresh
environment, and scikit-build-core builds the CMake target smdx_python
(with the Abseil and yaml-cpp libraries it uses) into a wheel.

Without network, `pip install --no-build-isolation .` in a virtual
environment of Debian's python3 made with --system-site-packages has
Debian's setuptools and pybind11 but no scikit-build-core (Debian 12 does
not package it); the build then goes through setuptools and setup.py, which
builds the same CMake target.
"""

try:
    from scikit_build_core.build import *  # noqa: F401,F403
except ImportError:
    from setuptools.build_meta import *  # noqa: F401,F403
