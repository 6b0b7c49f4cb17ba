"""The engine's public functions carry type annotations (mypy, configured in pyproject.toml,
checks them: `python -m mypy`)."""
import ast

from repository import ROOT

ENGINE = ROOT / "src" / "cyclades" / "engine"


def _unannotated():
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            owner = parents.get(node)
            if node.name.startswith("_") or isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue  # private, or local to a function
            if isinstance(owner, ast.ClassDef) and owner.name.startswith("_"):
                continue
            args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            static = any(getattr(d, "id", None) == "staticmethod" for d in node.decorator_list)
            if isinstance(owner, ast.ClassDef) and not static and args and args[0].arg in ("self", "cls"):
                args = args[1:]
            missing = [a.arg for a in args if a.annotation is None]
            if node.returns is None:
                missing.append("return")
            if missing:
                out.append(f"{path.relative_to(ENGINE)}:{node.lineno} {node.name}: {missing}")
    return out


def test_the_engines_public_functions_are_annotated():
    assert not _unannotated(), "\n".join(_unannotated())
