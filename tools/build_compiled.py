#!/usr/bin/env python3
"""Compiled builds of the engine, to measure them: mypyc or Cython over a copy.

    python tools/build_compiled.py /tmp/cyc-mypyc                       # mypyc (about 5 min)
    python tools/build_compiled.py /tmp/cyc-cython --backend cython --agents
    python benchmarks/compiled_speed.py --compiled mypyc=/tmp/cyc-mypyc/src \\
        --compiled cython=/tmp/cyc-cython/src
    PYTHONPATH=/tmp/cyc-mypyc/src python -m pytest tests/engine/test_battle.py ...

Off the default path: the package is and stays pure Python, and nothing here touches this
checkout. OUT receives a copy of src/ (OUT/src) with C extension modules beside its .py files
(Python loads an extension before the .py of the same name); delete OUT to get rid of it. The
extensions are a snapshot of the sources at build time: build again after a change. Cython
with `--agents` is the optional build the README offers (random play about x1.5, MCTS about
x1.4, the same games and searches; tests/project/test_compiled_build.py builds it and runs the engine's
and agents' tests on it); mypyc stays a measurement (benchmarks/README.md).

Needs setuptools, a C compiler and the Python headers; mypy (which brings mypyc) for the
default backend, Cython (`pip install cython`) for `--backend cython`. Neither compiler takes
the engine exactly as written; the build works on a temporary copy, changed as follows, and
only the extension modules leave it.

mypyc (every engine module but __init__.py, frames.py, state.py and board.py):
- mypyc makes a class with a decorator an ordinary Python class, and an ordinary class may not
  inherit from a compiled (extension) class. The frame handlers are registered with one
  (`@handler("battle", BattleFrame)`), so frames.py, where their base `Handler` lives, stays
  Python; the other bases of decorated classes (`Power`, `Effect`, `Miniature`,
  `BuildsMetropolis`, `_PlaysAnother`) get `@mypyc_attr(native_class=False)`.
- `Game` too: `cls.__new__(cls)` (a game without `__init__`) does not compile for a native
  class. An ordinary class evaluates its annotations at import, and `Game`'s name types that
  are imported only under TYPE_CHECKING: class-level annotations are quoted.
- state.py stays Python: `State.copy` is generated with exec and set on the class, and
  `object.__new__(State)` does not work on a native class.
- board.py stays Python: mypyc checks annotations at run time, and `rotate(cell: tuple[int,
  int], ...)` receives JSON lists (TypeError). Such checks remain elsewhere: the engine's
  tests find two in engine/log.py (a non-dict event, wrong field types), where the pure
  engine falls back to a plain sentence.
- mypy runs with a relaxed configuration (the project's `disallow_incomplete_defs` trips over
  cyclades/__init__.py, which is not compiled).

Cython (every engine module but the __init__.py files; with `--agents` also
agents/evaluation.py, greedy.py and mcts.py), pure-Python mode, annotations not used for
typing (`annotation_typing=False`: the engine's annotations are not all exact):
- zero-argument `super()` in a method of a class with a decorator fails at run time
  ("super(): __class__ cell not found"): every zero-argument `super()` in a method becomes
  `super(Class, self)`, which means the same.
"""
from __future__ import annotations

import argparse
import ast
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src")
ENGINE = os.path.join("cyclades", "engine")
AGENTS = [os.path.join("cyclades", "agents", f) for f in ("evaluation.py", "greedy.py", "mcts.py")]
EXCLUDE = {"mypyc": {"__init__.py", "frames.py", "state.py", "board.py"},  # see the docstring
           "cython": {"__init__.py"}}
NON_NATIVE = {"Game"}   # `cls.__new__(cls)`: see the docstring
EXT = sysconfig.get_config_var("EXT_SUFFIX")  # .cpython-311-x86_64-linux-gnu.so
MYPY_INI = """[mypy]
python_version = {major}.{minor}
check_untyped_defs = true
no_implicit_optional = true
strict_equality = true
"""
SETUP_MYPYC = """import sys
from setuptools import setup
from mypyc.build import mypycify
modules = sys.argv[1:]
sys.argv = [sys.argv[0], "build_ext", "--inplace", "-j", "{jobs}"]
setup(name="cyclades_compiled",
      ext_modules=mypycify(["--config-file={ini}"] + modules, opt_level="{opt}"))
"""
SETUP_CYTHON = """import sys
from setuptools import setup
from Cython.Build import cythonize
modules = sys.argv[1:]
sys.argv = [sys.argv[0], "build_ext", "--inplace", "-j", "{jobs}"]
setup(name="cyclades_compiled",
      ext_modules=cythonize(modules, quiet=True, nthreads={jobs},
                            compiler_directives={{"language_level": 3, "annotation_typing": False}}))
"""


def engine_modules(src: str, exclude: set[str]) -> list[str]:
    """The engine's module files to compile, relative to src."""
    found = sorted(glob.glob(os.path.join(src, ENGINE, "**", "*.py"), recursive=True))
    return [os.path.relpath(p, src) for p in found if os.path.basename(p) not in exclude]


def non_native_bases(src: str, modules: list[str]) -> set[str]:
    """Names of the classes that must be ordinary Python classes: the bases, transitively, of
    classes with a decorator (mypyc compiles those as ordinary classes)."""
    bases: dict[str, set[str]] = {}
    decorated: set[str] = set()
    for rel in modules:
        with open(os.path.join(src, rel)) as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else b.attr
                         for b in node.bases if isinstance(b, ast.Name | ast.Attribute)}
                bases.setdefault(node.name, set()).update(names)
                if node.decorator_list:
                    decorated.add(node.name)
    todo, out = set(decorated), set(NON_NATIVE)
    while todo:
        name = todo.pop()
        for b in bases.get(name, ()):
            if b in bases and b not in out and b not in decorated:
                out.add(b)
                todo.add(b)
    return out


def quote_class_annotations(text: str) -> str:
    """The module with its class-level annotations as strings (`rules: Ruleset` becomes
    `rules: "Ruleset"`): the same types for mypy, but an ordinary class compiled by mypyc
    would evaluate them at import, and some name types imported only under TYPE_CHECKING."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                ann = stmt.annotation if isinstance(stmt, ast.AnnAssign) else None
                if ann is None or isinstance(ann, ast.Constant) or ann.lineno != ann.end_lineno:
                    continue
                edits.append((ann.lineno - 1, ann.col_offset, ann.end_col_offset))
    for row, start, end in sorted(edits, reverse=True):
        line = lines[row].encode()  # ast offsets count UTF-8 bytes
        quoted = repr(line[start:end].decode()).encode()
        lines[row] = (line[:start] + quoted + line[end:]).decode()
    return "".join(lines)


def mark_non_native(path: str, names: set[str]) -> list[str]:
    """Put @mypyc_attr(native_class=False) on the module-level classes of `path` named in
    `names` (and quote every class-level annotation of the module); the classes marked."""
    with open(path) as fh:
        text = quote_class_annotations(fh.read())
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    marked = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name in names]
    if not marked:
        with open(path, "w") as fh:
            fh.write(text)
        return []
    for node in sorted(marked, key=lambda n: n.lineno, reverse=True):
        first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        lines.insert(first, "@_mypyc_attr(native_class=False)\n")
    # The import after the docstring and any `from __future__` import.
    at = 0
    for stmt in tree.body:
        is_doc = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        if is_doc or (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
            at = stmt.end_lineno or at
        else:
            break
    lines.insert(at, "from mypy_extensions import mypyc_attr as _mypyc_attr\n")
    with open(path, "w") as fh:
        fh.writelines(lines)
    return [n.name for n in marked]


def explicit_super(path: str) -> list[str]:
    """Zero-argument `super()` in methods becomes `super(Class, self)` (Cython); the classes."""
    with open(path) as fh:
        text = fh.read()
    lines = text.splitlines(keepends=True)
    changed = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.ClassDef):
            continue
        for fn in node.body:
            if not isinstance(fn, ast.FunctionDef) or not fn.args.args:
                continue
            for call in ast.walk(fn):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                        and call.func.id == "super" and not call.args):
                    row = call.lineno - 1
                    lines[row] = lines[row].replace("super()", f"super({node.name}, {fn.args.args[0].arg})", 1)
                    changed.append(node.name)
    if changed:
        with open(path, "w") as fh:
            fh.writelines(lines)
    return changed


def prepare(work: str, backend: str, modules: list[str], verbose: bool) -> None:
    """Change the temporary copy for the compiler (see the docstring)."""
    if backend == "mypyc":
        names = non_native_bases(work, modules)
        for rel in modules:
            marked = mark_non_native(os.path.join(work, rel), names)
            if marked and verbose:
                print(f"  {rel}: @mypyc_attr(native_class=False) on {', '.join(marked)}")
    else:
        for rel in modules:
            changed = explicit_super(os.path.join(work, rel))
            if changed and verbose:
                print(f"  {rel}: explicit super() in {', '.join(changed)}")


def build(src: str, dest: str, backend: str, modules_of, opt: str, jobs: int,
          verbose: bool) -> list[str]:
    """Compile in a temporary copy of src; copy the extension modules into dest (a src/
    directory). The extension files, relative to dest."""
    with tempfile.TemporaryDirectory(prefix=f"cyclades-{backend}-") as tmp:
        work = os.path.join(tmp, "src")
        shutil.copytree(src, work, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        modules = modules_of(work)
        prepare(work, backend, modules, verbose)
        setup = os.path.join(tmp, "setup_compiled.py")
        with open(setup, "w") as fh:
            if backend == "mypyc":
                ini = os.path.join(tmp, "mypy.ini")
                with open(ini, "w") as ini_fh:
                    ini_fh.write(MYPY_INI.format(major=sys.version_info[0], minor=sys.version_info[1]))
                fh.write(SETUP_MYPYC.format(jobs=jobs, ini=ini, opt=opt))
            else:
                fh.write(SETUP_CYTHON.format(jobs=jobs))
        print(f"{backend}: {len(modules)} modules, {jobs} jobs")
        proc = subprocess.run([sys.executable, setup, *modules], cwd=work,
                              capture_output=not verbose, text=True, check=False)
        if proc.returncode:
            sys.stderr.write((proc.stdout or "") + (proc.stderr or ""))
            raise SystemExit(f"{backend} build failed (exit {proc.returncode})")
        built = sorted(os.path.relpath(p, work)
                       for p in glob.glob(os.path.join(work, "**", "*" + EXT), recursive=True))
        built = [rel for rel in built if not rel.startswith("build" + os.sep)]  # setuptools' copies
        for rel in built:
            shutil.copy2(os.path.join(work, rel), os.path.join(dest, rel))
        return built


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="directory to create: a compiled copy of src/ in OUT/src")
    ap.add_argument("--backend", choices=("mypyc", "cython"), default="mypyc")
    ap.add_argument("--agents", action="store_true",
                    help="cython: compile agents/evaluation.py, greedy.py and mcts.py too")
    ap.add_argument("--exclude", action="append", default=[], metavar="FILE.py",
                    help="another engine module to leave as Python (repeatable)")
    ap.add_argument("--src", default=SRC, help="the sources to compile (default: this checkout's src/)")
    ap.add_argument("--opt-level", default="3", choices="0123", help="mypyc: C optimization level (default 3)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel C compiles")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.agents and args.backend != "cython":
        ap.error("--agents: with --backend cython (the agents do not type-check, which mypyc needs)")
    if os.path.exists(args.out) and os.listdir(args.out):
        ap.error(f"{args.out} exists and is not empty")
    exclude = EXCLUDE[args.backend] | set(args.exclude)

    def modules_of(work: str) -> list[str]:
        return engine_modules(work, exclude) + (AGENTS if args.agents else [])

    dest = os.path.join(os.path.abspath(args.out), "src")
    shutil.copytree(args.src, dest, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    t = time.perf_counter()
    built = build(os.path.abspath(args.src), dest, args.backend, modules_of, args.opt_level,
                  args.jobs, args.verbose)
    print(f"built {len(built)} extension modules into {dest} in {time.perf_counter() - t:.0f} s")
    print(f"use it with: PYTHONPATH={dest} python ...")
    return 0


if __name__ == "__main__":
    sys.exit(main())
