"""The click parameter types the commands share, the server's and the tools' alike (cli/,
agents/cli.py, server/cli.py; server/store.py reads its folder check): here, below them all, so
that none imports another for them: finite numbers, and the files and folders a command writes.
"""
from __future__ import annotations

import math
import os

import click


class FiniteRange(click.FloatRange):
    """click's FloatRange for a finite number: NaN compares false with both bounds, so
    FloatRange lets "nan" through, and "inf" passes any lower bound (a training target, a share
    of random moves or a server's delay that is NaN or infinite spoils what follows, silently;
    an option that can be unlimited says which finite value means so, such as 0)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def folder_problem(folder: str) -> str | None:
    """Why files cannot be made in `folder` (None: they can), the folder named."""
    if not os.path.isdir(folder):
        return f"{folder}: {'a file, not a folder' if os.path.exists(folder) else 'no such folder'}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder}: a folder this user may not write in"
    return None


class OutputFile(click.Path):
    """A file a command writes, often at the end of a long run (a network trained for an hour,
    the figures of a thousand games): its folder must exist and take new files, checked before
    any work, so that the work is not lost for want of a place to put it."""

    def __init__(self):
        super().__init__(dir_okay=False, writable=True)

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        why = folder_problem(os.path.dirname(os.path.abspath(path)))
        if why:
            self.fail(why, param, ctx)
        return path


class OutputFolder(click.Path):
    """A folder a command fills as it goes (made with its parents): the nearest part of it that
    exists must be a folder that takes new files, checked before any game is played."""

    def __init__(self):
        super().__init__(file_okay=False, writable=True)

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        nearest = os.path.abspath(path)
        while not os.path.exists(nearest):
            nearest = os.path.dirname(nearest)
        why = folder_problem(nearest)
        if why:
            self.fail(why, param, ctx)
        return path
