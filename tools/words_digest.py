#!/usr/bin/env python3
"""A digest of the game log's words, to check that a change of where the sentences live changes none.

    python tools/words_digest.py                     # every mode of tools/digest.py, 40 games each
    python tools/words_digest.py --games 5 --mode classic-3
    python tools/words_digest.py --src /tmp/before/src   # an older copy of the code
    python tools/words_digest.py --malformed         # events with a field left out, too

The games of tools/digest.py (its MODES, each decision drawn from the legal list with a
generator seeded by the game's seed). After each decision its events are told as the log tells
them (engine/log.py's Narrator, as `Game.log()` does), in English and in French: every event
(a `full` narrator, players named "Player 1".."Player N") and the log as the terminal and the
server show it (the repetitions left out, the players given names), and the sentence of a
decision that emits no event (`decision_sentence`). Every line goes into the digest. With
`--malformed` each event is told again with each of its fields left out in turn (`describe`
must still say something, and the same thing).

Random games never show some kinds (Hector, Croesus...): the digest "declared" tells every kind
engine/events.py declares, each field given in turn each value of a list for its type (every
God, creature, hero, building, bonus; a land and a sea; a player, another, none...), the
others their first one, in a classic and a Legendary game, in English and in French.

Two runs that print the same digests wrote the same words.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)

from digest import MODES  # noqa: E402

LANGS = ("en", "fr")
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def game_words(cyclades, options: dict, seed: int, max_cycles: int, malformed: bool) -> str:
    from cyclades.content.i18n import language
    from cyclades.engine.log import Narrator, decision_sentence, describe

    g = cyclades.new_game(seed=seed, max_cycles=max_cycles, **options)
    rng = random.Random(seed)
    h = hashlib.sha256()
    full = {lang: Narrator(g, full=True) for lang in LANGS}
    shown = {lang: Narrator(g, NAMES) for lang in LANGS}
    while not g.is_over:
        mover, legal = g.to_move, g.legal_actions()
        action = legal[rng.randrange(len(legal))]
        events = g.apply(action)
        for lang in LANGS:
            with language(lang):
                lines = [*full[lang].lines(events), "|", *shown[lang].lines(events), "|",
                         decision_sentence(action, mover, NAMES)]
                if malformed:
                    for e in events:
                        for k in e:
                            if k != "type":
                                lines.append(describe({f: v for f, v in e.items() if f != k}, g))
            h.update("\n".join(lines).encode())
            h.update(b"\0")
    h.update(json.dumps(g.result(), sort_keys=True).encode())
    return h.hexdigest()


def _samples(typ: str, field: str, g, named: dict) -> list:
    """The values a field of type `typ` takes in turn (the first one when another field varies)."""
    if typ.endswith("?"):
        return [*_samples(typ[:-1], field, g, named), None]
    b = g.board
    land = b.ids[b.is_land.index(True)]
    seas = [b.ids[i] for i, x in enumerate(b.is_land) if not x][:2]
    if typ.startswith("list["):
        inner = typ[5:-1]
        if inner == "int":
            return [[3, 1], [2, 2], [0, 5], []]
        if inner == "god":
            gods = sorted(named["god"] - {"apollo"})
            return [gods, gods[:2], gods[2:], []]
        if inner == "area_count":
            return [[], [{"area": seas[0], "count": 2}]]
        if inner == "area":
            return [seas, [land, seas[0]], []]
        one = _samples(inner, field, g, named)
        return [one[:1], one[:3], []]
    if typ == "int":
        return [2, 1, 0, -3]
    if typ == "bool":
        return [True, False]
    if typ == "str":
        return ["economic", "cultural", "heroic", "prosperity", "priestess", "philosopher", "troop", "merc",
                "fleet", "creatures", "heroes", "calydonian-boar", "achilles", "other"]
    if typ == "area":
        return [land, seas[0]]
    if typ == "player":
        return [0, 1]
    return sorted(named[typ])


def declared_words(cyclades) -> str:
    """Every declared kind told with each field given each of its sample values in turn."""
    from cyclades.content.i18n import language
    from cyclades.engine.events import KINDS, NAMED
    from cyclades.engine.log import describe

    h = hashlib.sha256()
    for options in (MODES["classic-3"], MODES["legendary-3"]):
        g = cyclades.new_game(seed=0, **options)
        for kind in KINDS:
            samples = {f.name: _samples(f.type, f.name, g, NAMED) for f in kind.fields}
            first = {"type": kind.name, **{k: v[0] for k, v in samples.items()}}
            events = [first] + [{**first, k: v} for k, vs in samples.items() for v in vs[1:]]
            for lang in LANGS:
                with language(lang):
                    for e in events:
                        h.update(describe(e, g).encode())
                        h.update(describe(e, g, NAMES, (1, 0)).encode())
    return h.hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per mode (default 40)")
    ap.add_argument("--max-cycles", type=int, default=100, help="the games' max_cycles (default 100)")
    ap.add_argument("--mode", action="append", choices=sorted(MODES),
                    help="only these modes (repeat it); default every mode")
    ap.add_argument("--malformed", action="store_true", help="tell each event with each field left out too")
    ap.add_argument("--src", default=os.path.join(os.path.dirname(ROOT), "src"), help="the package's src/ directory")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.src)
    import cyclades

    out = {}
    for name in args.mode or list(MODES):
        start = time.process_time()
        per_game = [game_words(cyclades, MODES[name], seed, args.max_cycles, args.malformed)
                    for seed in range(args.games)]
        out[name] = hashlib.sha256("".join(per_game).encode()).hexdigest()[:16]
        print(f"{name:22} {out[name]}  ({len(per_game)} games, {time.process_time() - start:.1f} s CPU)",
              flush=True)
    if not args.mode:
        start = time.process_time()
        out["declared"] = hashlib.sha256(declared_words(cyclades).encode()).hexdigest()[:16]
        print(f"{'declared':22} {out['declared']}  ({time.process_time() - start:.1f} s CPU)", flush=True)
    total = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    print(f"{'all':22} {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
