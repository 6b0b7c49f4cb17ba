"""The commands the documentation shows in its shell blocks are commands this version has: a
reader who pastes one gets the run it describes, not "No such option". Each `cyclades ...` is
parsed by the command line itself (the command, its options, their values' types; nothing is
run), and each `python SCRIPT ...` names a script of the repository whose --help lists every
option the line uses. Placeholders belong in the prose, not in these blocks."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from functools import cache

import click
import pytest
from repository import ROOT

from cyclades.cli import main as cyclades

DOCS = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")),
        "benchmarks/README.md"]
# (Indented too: a block inside a list item is indented with the item.)
SHELL_BLOCK = re.compile(r"^[ \t]*```(?:bash|sh|shell)\n(.*?)^[ \t]*```$", re.S | re.M)


def shell_commands(doc):
    """(line, words) of each command in the shell blocks of `doc`: continuation lines joined,
    comments dropped, `a && b` two commands, environment assignments and `nohup` left out."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    found = []
    for block in SHELL_BLOCK.finditer(text):
        first = text[:block.start(1)].count("\n") + 1
        for offset, line in enumerate(block.group(1).replace("\\\n", " \n").split("\n")):
            for command in re.split(r"&&|;", line.split(" #")[0].strip()):
                words = shlex.split(command)
                while words and (re.fullmatch(r"\w+=\S*", words[0]) or words[0] in ("nohup", "time")):
                    words = words[1:]
                if words:
                    found.append((first + offset, words))
    return found


COMMANDS = [(f"{doc}:{line}", words) for doc in DOCS for line, words in shell_commands(doc)]
CYCLADES = [(where, words[1:]) for where, words in COMMANDS if words[0].endswith("cyclades")]
SCRIPTS = [(where, words[1], words[2:]) for where, words in COMMANDS
           if re.search(r"(^|/)python3?$", words[0]) and len(words) > 1 and words[1].endswith(".py")]


def test_the_documents_show_commands_of_both_kinds():
    assert len(CYCLADES) >= 25 and len(SCRIPTS) >= 15, (len(CYCLADES), len(SCRIPTS))


@pytest.mark.parametrize(("where", "args"), CYCLADES, ids=[w for w, _ in CYCLADES])
def test_a_cyclades_command_parses(where, args):
    name, rest = args[0], args[1:]
    command = cyclades.get_command(click.Context(cyclades), name)
    assert command is not None, f"{where}: cyclades has no command {name!r}"
    try:
        command.make_context(name, list(rest), parent=click.Context(cyclades, info_name="cyclades"))
    except click.exceptions.Exit:
        pass  # --help, --version
    except click.ClickException as e:
        pytest.fail(f"{where}: cyclades {shlex.join(args)}\n  {e.format_message()}")


@cache
def script_help(script):
    done = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{script} --help failed:\n{done.stderr[-1500:]}"
    return done.stdout


@pytest.mark.parametrize(("where", "script", "args"), SCRIPTS, ids=[w for w, _, _ in SCRIPTS])
def test_a_script_command_names_a_script_and_its_options(where, script, args):
    assert (ROOT / script).is_file(), f"{where}: no script {script}"
    if not script.startswith(("benchmarks/", "examples/")):
        return  # tools/ take subcommands or positional folders (tests/project/test_tools_load.py loads them)
    known = set(re.findall(r"--[\w-]+", script_help(script)))
    flags = [a.split("=")[0] for a in args if re.fullmatch(r"--[\w-]+(=\S*)?", a)]  # not a quoted value
    unknown = [flag for flag in flags if flag not in known]
    assert not unknown, f"{where}: {script} has no option {', '.join(unknown)}"
