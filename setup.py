"""The package's metadata is in pyproject.toml. This file adds one build step: the one-line
`cyclades-gymnasium.pth` (src/) is installed next to the packages, in a wheel and in an
editable install alike, so that `gymnasium.make("cyclades/Cyclades-v0")` works without
importing cyclades first (src/_cyclades_gymnasium.py says how); and a wheel carries each
language's catalog compiled (locale/*/LC_MESSAGES/messages.mo, from its .po, with Babel; an
editable install compiles it in memory at first use: cyclades/content/i18n.py)."""
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
        if not editable:
            compile_catalogs(os.path.join(self.build_lib, "cyclades", "locale"))


def compile_catalogs(locale_dir):
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    source = os.path.join("src", "cyclades", "locale")
    for lang in sorted(os.listdir(source)):
        po = os.path.join(source, lang, "LC_MESSAGES", "messages.po")
        if os.path.isfile(po):
            out = os.path.join(locale_dir, lang, "LC_MESSAGES")
            os.makedirs(out, exist_ok=True)
            with open(po, "rb") as f:
                catalog = read_po(f)
            with open(os.path.join(out, "messages.mo"), "wb") as f:
                write_mo(f, catalog)


setup(cmdclass={"build_py": BuildPy})
