"""The skip policy (tests/skip_policy.py): in CI a skip fails unless it is on the written list
of expected ones; on a person's machine a skip stays a skip, with its reason. Each case runs a
small suite of its own in a pytest session of its own (pytester)."""
import pytest
import skip_policy

pytest_plugins = ["pytester"]

SUITE = """
import pytest

def test_runs():
    pass

def test_needs_a_database():
    pytest.skip("no database here")

def test_inside_the_build():
    pytest.skip("runs inside the build's own test run")

@pytest.mark.xfail(reason="a known bug", strict=True)
def test_known_bug():
    assert False
"""
EXPECTED = """# expected in CI
test_suite.py::test_inside_the_build
    runs inside the build's own
"""


@pytest.fixture
def suite(pytester):
    pytester.makeini("[pytest]\nexpected_skips = expected.txt\n")
    pytester.makefile(".txt", expected=EXPECTED)
    pytester.makepyfile(test_suite=SUITE)
    return pytester


@pytest.fixture
def run(monkeypatch):
    def run(pytester, ci, *args):
        """The small suite run in CI (the CI variable set) or on a person's machine."""
        if ci:
            monkeypatch.setenv("CI", "true")
        else:
            monkeypatch.delenv("CI", raising=False)
        return pytester.runpytest_inprocess("-p", "skip_policy", "-p", "no:cacheprovider", "-rfEs", *args)
    return run


def test_locally_a_skip_is_a_skip_with_its_reason(suite, run):
    result = run(suite, ci=False)
    result.assert_outcomes(passed=1, skipped=2, xfailed=1)
    result.stdout.fnmatch_lines(["SKIPPED*no database here"])


@pytest.mark.parametrize("spread", [(), ("-n", "2")], ids=["one process", "two workers"])
def test_in_ci_an_unexpected_skip_fails_and_an_expected_one_does_not(suite, run, spread):
    result = run(suite, True, *spread)
    result.assert_outcomes(passed=1, failed=1, skipped=1, xfailed=1)
    result.stdout.fnmatch_lines(["*test_needs_a_database skipped in CI, where every test must run: no database here",
                                 "*tests/expected_skips.txt*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_in_ci_an_expected_test_skipped_for_another_reason_fails(suite, run):
    suite.makepyfile(test_suite=SUITE.replace("runs inside the build's own test run", "no compiler"))
    run(suite, ci=True).assert_outcomes(passed=1, failed=2, xfailed=1)


@pytest.mark.parametrize("spread", [(), ("-n", "2")], ids=["one process", "two workers"])
def test_in_ci_a_module_skipped_as_a_whole_fails_the_run(suite, run, spread):
    suite.makepyfile(test_optional='import pytest\npytest.importorskip("no_such_module_here")\n\n'
                                   'def test_it():\n    pass\n')
    result = run(suite, True, "test_optional.py", *spread)
    assert result.ret not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
    result.stdout.fnmatch_lines(["*test_optional.py skipped in CI*no_such_module_here*"])
    assert run(suite, False, "test_optional.py").ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_the_slow_sample_takes_a_share_of_each_slow_test(suite, run):
    suite.makepyfile(test_slow="""
import pytest

@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100))
def test_many(seed):
    pass

@pytest.mark.slow
def test_one():
    pass

@pytest.mark.slow(sample=False)
def test_long_single_run():
    pass

def test_quick():
    pass
""")
    suite.makeini("[pytest]\nexpected_skips = expected.txt\nmarkers =\n    slow\n    slow_sample\n")
    result = run(suite, False, "test_slow.py", "-m", "not slow or slow_sample")
    outcomes = result.parseoutcomes()
    sampled = outcomes["passed"] - 2  # test_quick, and test_one (a slow test of one case)
    assert 1 <= sampled <= 100 // skip_policy.SLOW_SAMPLE_EVERY * 3, outcomes
    assert outcomes["deselected"] == 100 - sampled + 1  # and the long single run, on demand only


def test_the_written_list_is_short_and_each_entry_has_a_reason(pytestconfig):
    entries = skip_policy.expected_skips(pytestconfig.rootpath / pytestconfig.getini("expected_skips"))
    assert 1 <= len(entries) <= 5 and all(test.startswith("tests/") and why for test, why in entries)
