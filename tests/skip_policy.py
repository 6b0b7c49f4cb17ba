"""What the suite may leave out, and where (a pytest plugin, loaded by conftest.py).

- **Skips.** A test skips when something it needs is missing here, and says what: a person
  running the tests sees each reason (`-rs` is in pytest's options). In CI (the `CI` variable
  set, as `.ci/run` does) every test must run: a skip fails the test, and a module skipped as a
  whole fails the run, unless the test and its reason are on the short list of expected ones,
  `tests/expected_skips.txt`. The project's own dependencies (fastapi, uvicorn, SQLAlchemy,
  the test extra) are imported, never `importorskip`ped: a broken install fails.
- **The slow sample.** Tests marked `slow` (thousands of random games) run on demand with
  `pytest -m slow`; a fixed share of them, spread over each slow test's cases, is also marked
  `slow_sample`, which `tools/test` (and so CI) runs besides the default selection; a test
  marked `slow(sample=False)`, one long run of minutes, is never in the sample.
"""
from __future__ import annotations

import fnmatch
import os
import zlib
from pathlib import Path

import pytest

SLOW_SAMPLE_EVERY = 25  # one case in 25 of each slow test, at least one per test


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_addoption(parser):
    parser.addini("expected_skips", "the list of the skips CI accepts, from the root directory",
                  default="tests/expected_skips.txt")


def expected_skips(path: Path) -> list[tuple[str, str]]:
    """(test id pattern, the start of the skip's reason) for each entry of the list: a line
    naming the test (shell wildcards allowed), then an indented line with the reason."""
    entries: list[tuple[str, str]] = []
    test = None
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace():
            if test is None:
                raise ValueError(f"{path}: a reason with no test before it: {line!r}")
            entries.append((test, line.strip()))
            test = None
        else:
            test = line.strip()
    if test is not None:
        raise ValueError(f"{path}: {test} has no reason under it")
    return entries


_EXPECTED = pytest.StashKey[list]()


def pytest_configure(config):
    config.stash[_EXPECTED] = expected_skips(config.rootpath / config.getini("expected_skips"))


def is_expected(config, nodeid: str, reason: str) -> bool:
    return any(fnmatch.fnmatchcase(nodeid, test) and reason.startswith(why)
               for test, why in config.stash[_EXPECTED])


def skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = longrepr[2]
        return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
    return str(longrepr)


def unexpected_skip_text(nodeid: str, reason: str) -> str:
    return (f"{nodeid} skipped in CI, where every test must run: {reason}\n"
            f"Fix what is missing, or, if this skip is expected in CI, add the test and its "
            f"reason to tests/expected_skips.txt.")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        reason = skip_reason(report)
        if not is_expected(item.config, item.nodeid, reason):
            report.outcome = "failed"
            report.longrepr = unexpected_skip_text(item.nodeid, reason)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """A module skipped as a whole (a module-level skip or importorskip) is a collection error:
    the run stops with the reason. The report itself fails, rather than a note kept for the end,
    so that it reaches the controller of a run spread over processes (pytest-xdist) as well."""
    report = yield
    if in_ci() and report.skipped:
        reason = skip_reason(report)
        if not is_expected(collector.config, report.nodeid, reason):
            report.outcome = "failed"
            report.longrepr = unexpected_skip_text(report.nodeid, reason)
    return report


def sample_key(item) -> str:
    """What the sample hashes: "tests/<file>::<test>[<case>]", the layer's folder left out, so
    that a file moving between folders keeps its sample."""
    return f"tests/{item.path.name}::{item.nodeid.split('::', 1)[1]}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the slow sample before `-m` selects: the cases of each slow test whose id hashes
    to 0 modulo SLOW_SAMPLE_EVERY (a fixed choice, spread over seeds and modes), or the
    first of them if none does. A test marked `slow(sample=False)` (one long run: a whole browser game)
    is left out of the sample: it runs on demand only."""
    by_test: dict[str, list] = {}
    for item in items:
        slow = item.get_closest_marker("slow")
        if slow and slow.kwargs.get("sample", True):
            by_test.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    for cases in by_test.values():
        chosen = [i for i in cases if zlib.crc32(sample_key(i).encode()) % SLOW_SAMPLE_EVERY == 0] or cases[:1]
        for item in chosen:
            item.add_marker(pytest.mark.slow_sample)
