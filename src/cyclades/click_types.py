"""The click parameter types the commands share, the server's and the tools' alike (cli/ and
server/cli.py); here, below both, so that neither imports the other for them.
"""
from __future__ import annotations

import math

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
