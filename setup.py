"""The package's metadata is in pyproject.toml. This file adds one build step: the one-line
`cyclades-gymnasium.pth` (src/) is installed next to the packages, in a wheel and in an
editable install alike, so that `gymnasium.make("cyclades/Cyclades-v0")` works without
importing cyclades first (src/_cyclades_gymnasium.py says how)."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "cyclades-gymnasium.pth"


class BuildPy(build_py):
    def run(self):
        super().run()
        # An editable install builds its wheel from install_lib; a wheel from build_lib.
        editable = getattr(self, "editable_mode", False)
        target = self.distribution.get_command_obj("install").install_lib if editable else self.build_lib
        self.copy_file(os.path.join("src", PTH), os.path.join(target, PTH))


setup(cmdclass={"build_py": BuildPy})
