"""The keys of the decision stack's frames, per frame kind (readable frame fields).

    python tools/frame_keys.py [--games 20] [--cycles 30] [--json]

Keys are collected twice: from the source (every `push(g, kind, player, key=...)` call in
src/cyclades) and from play (every frame a handler is asked about, before and after it answers,
in a few random games of every mode: legendary with and without the Maelström, 2 to 6 players,
4-player teams, classic). The report gives the distinct keys over all kinds and how many of them
have one or two letters. tests/engine/test_frames.py runs the same collection to check that every key
met in play is declared in its kind's TypedDict.
"""
import argparse
import ast
import collections
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import cyclades  # noqa: E402
from cyclades.engine.frames import HANDLERS  # noqa: E402

MODES = (
    dict(players=2), dict(players=3), dict(players=4), dict(players=5), dict(players=6),
    dict(players=3, maelstrom=False), dict(players=4, teams=True),
    dict(players=3, ruleset="classic"), dict(players=4, ruleset="classic"),
    dict(players=5, ruleset="classic"),
)


def _kind(f):
    return f.get("kind", f.get("k"))


def source_keys(root=ROOT / "src" / "cyclades") -> dict:
    """{kind: keys} of the fields passed to push(g, kind, player, ...) in the source; the kind
    and player keys are the ones push itself writes (read from frames.py's push)."""
    out = collections.defaultdict(set)
    base = _push_base_keys(root / "engine" / "frames.py")
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "push" \
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                kind = node.args[1].value
                out[kind] |= base | {k.arg for k in node.keywords if k.arg}
    return out


def _push_base_keys(frames_py) -> set:
    """The keys push() writes itself: the string keys of the dict literal in its body."""
    tree = ast.parse(frames_py.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "push":
            for sub in ast.walk(node):
                if isinstance(sub, ast.Dict):
                    return {k.value for k in sub.keys if isinstance(k, ast.Constant)}
    return set()


def played_keys(games=20, cycles=30, seed=0, modes=MODES) -> dict:
    """{kind: keys} of the frames the handlers see in random games of every mode."""
    out = collections.defaultdict(set)
    originals = dict(HANDLERS)

    def watch(cls):
        class Watched(cls):
            @staticmethod
            def legal(g, f):
                out[_kind(f)].update(f)
                return cls.legal(g, f)

            @staticmethod
            def apply(g, f, a):
                out[_kind(f)].update(f)
                r = cls.apply(g, f, a)
                out[_kind(f)].update(f)
                return r

            @staticmethod
            def auto(g, f):
                out[_kind(f)].update(f)
                r = cls.auto(g, f)
                out[_kind(f)].update(f)
                return r
        return Watched

    try:
        for kind, cls in originals.items():
            HANDLERS[kind] = watch(cls)
        for m, mode in enumerate(modes):
            for i in range(games):
                s = seed + 100 * m + i
                g = cyclades.new_game(seed=s, max_cycles=cycles, **mode)
                rng = random.Random(s)
                while not g.is_over:
                    g.apply(rng.choice(g.legal_actions()))
                    for f in g.state.stack:
                        out[_kind(f)].update(f)
    finally:
        HANDLERS.update(originals)
    return out


def collect(games=20, cycles=30, seed=0) -> dict:
    keys = collections.defaultdict(set)
    for part in (source_keys(), played_keys(games, cycles, seed)):
        for kind, ks in part.items():
            keys[kind] |= ks
    return {k: sorted(v) for k, v in sorted(keys.items())}


def summary(keys: dict) -> dict:
    distinct = sorted(set().union(*map(set, keys.values())))
    short = [k for k in distinct if len(k) <= 2]
    return {"kinds": len(keys), "distinct_keys": len(distinct), "short_keys": len(short),
            "short": short, "keys": distinct}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="random games per mode")
    ap.add_argument("--cycles", type=int, default=30, help="cycle limit of each game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the keys per kind as JSON")
    args = ap.parse_args()
    keys = collect(args.games, args.cycles, args.seed)
    if args.json:
        print(json.dumps(keys, indent=1))
        return
    for kind, ks in keys.items():
        print(f"{kind:12} {' '.join(ks)}")
    sm = summary(keys)
    print(f"\n{sm['kinds']} frame kinds, {sm['distinct_keys']} distinct keys, "
          f"{sm['short_keys']} of one or two letters: {' '.join(sm['short'])}")


if __name__ == "__main__":
    main()
