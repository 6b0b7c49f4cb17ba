"""Where things are: the repository's root and the tests' directory, for tests that read files
of the project (docs, examples, tools, the package's sources)."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
