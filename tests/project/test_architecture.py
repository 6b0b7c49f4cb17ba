"""The package's modules form layers a reader can follow from the bottom up (docs/architecture.md).

Every import statement counts, the ones inside functions and the ones under `if TYPE_CHECKING:`
(made only for annotations) included: the module graph is read from the source (ast), not from
what happens to be imported at run time. The rules take the `Context` of engine/context.py, below
them, never the `Game`, which sits at the top of the engine.
"""
import ast
import re
from graphlib import CycleError, TopologicalSorter

import pytest
from repository import ROOT

SRC = ROOT / "src"

# Layer of each top-level part of the package: a module may import its own layer and the ones
# below, never one above. The package itself (`cyclades`, the public API) is the engine's face.
LAYERS = {
    "content": 0,
    "engine": 1, "": 1,
    "agents": 2, "paths": 2, "click_types": 2, "progress": 2,
    "cli": 3, "server": 3, "web": 3, "env": 3,
}
LAYER_NAMES = {0: "content", 1: "engine", 2: "agents", 3: "interfaces"}

# Import cycles outside the engine that were there when this test was written, in modules other
# engineers own. Each must go, and then leave this list: the test fails when a listed cycle is
# gone as well as when a new one appears. The server has none (its session sync and
# housekeeping cycles went), nor have the agents (their registry, agents/registry.py,
# lists the agent classes instead of importing the modules that register into it).
KNOWN_CYCLES = set()


def _modules() -> dict:
    out = {}
    for path in sorted((SRC / "cyclades").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, package)
    return out


def _known(name, modules) -> str:
    while name not in modules:
        name = name.rpartition(".")[0]
    return name


def import_graph() -> dict:
    """module -> the cyclades modules it imports anywhere in its source, for annotations too."""
    modules = _modules()
    graph = {}
    for name, (path, package) in modules.items():
        here = name if package else name.rpartition(".")[0]
        deps = set()
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[:len(here.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                # `from . import ops` imports a module; `from .ops import emit` a name of one.
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module
                           for a in node.names]
            else:
                continue
            deps.update(_known(t, modules) for t in targets if t.split(".")[0] == "cyclades")
        deps.discard(name)
        graph[name] = deps
    return graph


def cycles(graph) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def layer(module) -> int:
    part = module.split(".")[1] if "." in module else ""
    assert part in LAYERS, f"{module}: which layer? add {part!r} to LAYERS (and docs/architecture.md)"
    return LAYERS[part]


GRAPH = import_graph()


def test_the_graph_sees_imports_inside_functions_and_for_annotations():
    # agents/encoding.py imports engine/game.py inside game_options; engine/ops.py imports the
    # Context under `if TYPE_CHECKING:` only.
    assert "cyclades.engine.game" in GRAPH["cyclades.agents.encoding"]
    assert "cyclades.engine.context" in GRAPH["cyclades.engine.ops"]


def test_the_engine_and_the_content_have_no_import_cycle():
    inner = {m: {d for d in deps if d.split(".")[1:2] in (["engine"], ["content"])}
             for m, deps in GRAPH.items() if m.split(".")[1:2] in (["engine"], ["content"])}
    try:
        order = list(TopologicalSorter(inner).static_order())
    except CycleError as e:
        pytest.fail(f"an import cycle in the engine: {' -> '.join(e.args[1])}")
    assert "cyclades.engine.hooks" in order


def test_no_new_import_cycle_anywhere_in_the_package():
    found = set(cycles(GRAPH))
    new = [sorted(c) for c in found - KNOWN_CYCLES]
    assert not new, f"import cycles: {new}"
    gone = [sorted(c) for c in KNOWN_CYCLES - found]
    assert not gone, f"these cycles are gone: take them off KNOWN_CYCLES: {gone}"


def test_no_layer_imports_a_higher_one():
    wrong = [f"{m} ({LAYER_NAMES[layer(m)]}) imports {d} ({LAYER_NAMES[layer(d)]})"
             for m, deps in sorted(GRAPH.items()) for d in sorted(deps) if layer(d) > layer(m)]
    assert not wrong, "\n".join(wrong)


def test_the_bottom_of_the_engine_imports_no_rule_module():
    """engine/hooks.py imports nothing; the context, frames, teams, queries and ops only what is
    below them; no rule module imports the Game."""
    assert GRAPH["cyclades.engine.hooks"] == set()
    below = {"cyclades.engine.hooks", "cyclades.engine.state", "cyclades.engine.frames",
             "cyclades.engine.queries", "cyclades.engine.context", "cyclades.engine.teams",
             "cyclades.engine.actions", "cyclades.engine.board", "cyclades.engine.rng",
             "cyclades.content", "cyclades.content.gods", "cyclades.content.cards",
             "cyclades.content.rulesets", "cyclades.content.i18n"}  # the catalog: a frame says what it waits on
    for m in ("context", "frames", "teams", "queries", "ops"):
        assert GRAPH[f"cyclades.engine.{m}"] <= below, (m, GRAPH[f"cyclades.engine.{m}"] - below)
    above_the_game = {"cyclades", "cyclades.engine.game"}
    importers = sorted(m for m, deps in GRAPH.items() if m.startswith("cyclades.engine.") and deps & above_the_game)
    assert importers == [], importers


def test_the_layers_are_documented():
    text = (ROOT / "docs" / "architecture.md").read_text()
    for part in LAYERS:
        if part:
            assert part in text, part
    for module in sorted(m for m in GRAPH if m.startswith("cyclades.engine.")
                         and not m.startswith("cyclades.engine.cards.")):
        short = module.rpartition(".")[2]
        assert re.search(rf"\b{short}\b", text), f"docs/architecture.md does not place {short}"


def test_what_is_card_specific_stays_with_the_card():
    """A creature with a simple effect is its entry in content/cards.py (id, names, text,
    worth), its class in engine/cards/ and its test: no other module keeps a table of creatures
    (the log's articles, the greedy bot's worths and the tooltips read the entry)."""
    from cyclades.content.cards import CREATURES
    names = set(CREATURES)
    tables = []
    for path in sorted((SRC / "cyclades").rglob("*.py")):
        if path.relative_to(SRC).as_posix() == "cyclades/content/cards.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Dict, ast.Set, ast.List, ast.Tuple)):
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                named = [e.value for e in elts if isinstance(e, ast.Constant) and e.value in names]
                # engine/cards/miniatures.py names the miniatures it plugs in: its own cards.
                if len(named) >= 5 and "engine/cards/" not in path.as_posix():
                    tables.append(f"{path.relative_to(SRC)}:{node.lineno}: {named}")
    assert not tables, "per-creature tables outside the card entries:\n" + "\n".join(tables)
    for c, card in CREATURES.items():
        assert card.text, c


def test_the_log_the_bot_and_the_tooltips_read_the_card_entry():
    from cyclades.agents.greedy import CREATURE_WORTH, KEEP_WORTH
    from cyclades.content.cards import CREATURES
    from cyclades.content.descriptions import CREATURE_TEXT
    from cyclades.engine.log import creature_name
    assert creature_name("harpy") == "the Harpy" and creature_name("pegasus") == "Pegasus"
    for c, card in CREATURES.items():
        assert creature_name(c) == card.called and card.title  # its names, on its entry
        assert CREATURE_WORTH[c] == card.worth and KEEP_WORTH[c] == card.keep_worth
        assert CREATURE_TEXT[c] == card.text


def test_every_extension_point_is_plugged_and_read():
    """Every Hook and Table (engine/hooks.py: ALL, each declared where the engine asks it) is
    read somewhere in the engine besides its declaration, and something plugs into it."""
    import cyclades  # noqa: F401  (loads every rule module and card)
    from cyclades.engine import hooks
    engine = SRC / "cyclades" / "engine"
    sources = [p.read_text() for p in engine.rglob("*.py")]
    assert len(hooks.ALL) >= 30
    for name, point in hooks.ALL.items():
        assert len(point) > 0, f"nothing plugs into {name}"
        uses = sum(len(re.findall(rf'\b{name.upper()}\b|\["{name}"\]', text)) for text in sources)
        assert uses >= 2, f"{name} is declared but never read"


def test_cards_declare_their_hooks_on_their_classes():
    """No card module wires hooks at its bottom: every function a card plugs in is a method of
    its class, marked `@plugs(...)` (engine/cards/)."""
    for path in sorted((SRC / "cyclades" / "engine" / "cards").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)] if isinstance(node, ast.Expr) else []
            assigns = isinstance(node, (ast.Assign, ast.AugAssign)) and any(
                isinstance(t, ast.Subscript) for t in getattr(node, "targets", [getattr(node, "target", None)]))
            wired = [c for c in calls if getattr(c.func, "attr", "") in ("append", "plug", "update", "extend")]
            assert not wired and not assigns, f"{path.name}:{node.lineno} wires a hook outside a class"


def test_hooks_run_in_an_order_of_their_own():
    """A hook's functions run by their owners' names, each after the owners it names in
    `after`, whatever order they were plugged in (the import order decides nothing)."""
    import random

    import cyclades  # noqa: F401
    from cyclades.engine.battle import BATTLE
    from cyclades.engine.hooks import ALL, Hook, ordered
    assert BATTLE["building_kinds"].owners() == ["hippolyta", "odysseus"]  # Odysseus ignores hers
    assert BATTLE["before_battle"].owners() == ["pandora", "hector"]  # mercenaries turn, then he strikes
    for name, point in ALL.items():
        if isinstance(point, Hook):
            for _ in range(5):
                shuffled = list(point.entries)
                random.shuffle(shuffled)
                assert [e.owner for e in ordered(shuffled)] == point.owners(), name
            done = []
            for e in ordered(point.entries):
                assert all(a in done for a in e.after if a in point.owners()), (name, e.owner)
                done.append(e.owner)
    with pytest.raises(ValueError, match="cycle"):
        h = Hook("test_cycle", "two functions each after the other")
        h.plug(len, "a", after=("b",))
        h.plug(abs, "b", after=("a",))
    ALL.pop("test_cycle", None)
