"""The argparse types the benchmarks share: a count or a time in its range, so that a wrong one
(0 positions, -2 games, NaN seconds) is a usage error naming the flag, before anything runs,
not a traceback at the end of a run (an empty mean, a division by zero).

    from arguments import at_least, duration
    ap.add_argument("--positions", type=at_least(1), default=16)
    ap.add_argument("--games", type=at_least(0), default=0)      # 0 has a meaning of its own there
    ap.add_argument("--seconds", type=duration(), default=1.0)   # finite, above 0
    ap.add_argument("--temperature", type=finite(), action="append")
"""
from __future__ import annotations

import argparse
import math


def at_least(least: int):
    """A whole number, `least` or more."""
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if number < least:
            raise argparse.ArgumentTypeError(f"{number} is below {least}")
        return number
    return parse


def duration(zero: bool = False):
    """A finite number of seconds, above 0 (or 0 and more, with `zero`)."""
    return finite("number of seconds", zero)


def finite(what: str = "number", zero: bool = False):
    """A finite number (`what` names it in the error), above 0 (or 0 and more, with `zero`)."""
    def parse(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(number) or number < 0 or (number == 0 and not zero):
            limit = "0 or more" if zero else "above 0"
            raise argparse.ArgumentTypeError(f"{text} is not a finite {what}, {limit}")
        return number
    return parse
