"""`cyclades bench`: the engine's speed next to catanatron's, by running the repository's
benchmarks/engine_speed.py with this Python (it is part of the source repository, not of the
package); other options go to the benchmark as they are."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click

import cyclades


def bench_script():
    """benchmarks/engine_speed.py of the repository this package runs from, or None: it is
    part of the source repository (src/cyclades/ beside benchmarks/), not of the package."""
    path = Path(cyclades.__file__).resolve().parent.parent.parent / "benchmarks" / "engine_speed.py"
    return path if path.is_file() else None


@click.command(context_settings={"ignore_unknown_options": True})
@click.option("--quick", is_flag=True, help="A short run of a few seconds (what the CI guard runs).")
@click.option("--update-baseline", is_flag=True, help="Record the ratios in benchmarks/baseline.json.")
@click.argument("options", nargs=-1, type=click.UNPROCESSED, metavar="[BENCHMARK OPTIONS]...")
def bench(quick, update_baseline, options):
    """Engine speed against catanatron: runs benchmarks/engine_speed.py with this Python.

    Other options go to the benchmark as they are (`cyclades bench -h` lists them), e.g.
    `cyclades bench --games 20 --json out.json`."""
    script = bench_script()
    if script is None:
        raise click.ClickException(
            "benchmarks/engine_speed.py is not beside this installation of cyclades "
            f"({Path(cyclades.__file__).resolve().parent}): the benchmark is part of the source "
            "repository, not of the package. Clone the repository, install it from there with "
            "`pip install -e '.[bench]'` (the bench extra brings catanatron==3.2.1), then run "
            "`cyclades bench` or `python benchmarks/engine_speed.py`.")
    args = ([sys.executable, str(script)] + (["--quick"] if quick else [])
            + (["--update-baseline"] if update_baseline else []) + list(options))
    sys.stdout.flush()
    try:
        code = subprocess.call(args, cwd=script.parent.parent)
    except KeyboardInterrupt:
        code = 130
    if code:
        sys.exit(code)
