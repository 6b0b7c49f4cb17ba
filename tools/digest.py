#!/usr/bin/env python3
"""A digest of what the engine does, to check that a change of its code changes nothing.

    python tools/digest.py                      # every mode, 40 games each, and OpenSpiel
    python tools/digest.py --games 5 --mode classic-3
    python tools/digest.py --chance explicit    # the same games through chance="explicit"
    python tools/digest.py --src /tmp/before/src   # an older copy of the code
    python tools/digest.py --json out.json      # the digests, machine-readable
    python tools/digest.py --states             # the games' final states too (byte for byte)

Random games of every mode (Legendary at 3, 4 and 5 players, without the Maelström, the three
team games, the classic game at 2 to 5 players), each decision drawn from the legal list with a
generator seeded by the game's seed. For every decision the digest takes in who was to move, the
whole legal list, the choice and the events it caused; at the end of a game its result (with
`--states`, its final state as JSON too: a stricter check, for seeded games). Then
OpenSpiel games (when the `openspiel` extra is installed): every chance node's outcomes and
probabilities, the chance outcome and the action chosen, the legal action ids, the returns.

Two runs that print the same digests played the same games. With `--chance explicit` the games
are made with `chance="explicit"` and every chance decision is resolved as the seeded generator
would resolve it (`Game.sample_chance()`), and left out of the digest: the digest is then the
default one. In the OpenSpiel games, the chance nodes of a card drawn are resolved the same way
and left out, so that the digest compares with code whose only chance nodes were dice.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODES = {
    "legendary-3": dict(players=3),
    "legendary-4": dict(players=4),
    "legendary-5": dict(players=5),
    "legendary-3-base": dict(players=3, maelstrom=False),
    "teams-2": dict(players=2),
    "teams-4": dict(players=4, teams=True),
    "teams-6": dict(players=6),
    "classic-2": dict(players=2, ruleset="classic"),
    "classic-3": dict(players=3, ruleset="classic"),
    "classic-4": dict(players=4, ruleset="classic"),
    "classic-5": dict(players=5, ruleset="classic"),
}
OPENSPIEL_MODES = {
    "openspiel-3": {"players": 3, "max_cycles": 30},
    "openspiel-teams-4": {"players": 4, "teams": True, "max_cycles": 30},
    "openspiel-classic-3": {"players": 3, "ruleset": "classic", "max_cycles": 30},
}


def _actions(actions) -> str:
    return ";".join(f"{a.kind},{a.what},{a.where},{a.n}" for a in actions)


def game_digest(cyclades, options: dict, seed: int, max_cycles: int, chance: str, states: bool = False) -> str:
    extra = {"chance": chance} if chance != "seeded" else {}
    g = cyclades.new_game(seed=seed, max_cycles=max_cycles, **options, **extra)
    rng = random.Random(seed)
    h = hashlib.sha256()
    while not g.is_over:
        mover, legal = g.to_move, g.legal_actions()
        choice = rng.randrange(len(legal))
        events = g.apply(legal[choice])
        while chance != "seeded" and g.to_move == cyclades.CHANCE:
            # resolved as the seeded generator would; what it causes belongs to the decision
            events = events + g.apply(g.sample_chance())
        h.update(f"{mover}|{_actions(legal)}|{choice}|".encode())
        h.update(json.dumps(events, sort_keys=True, separators=(",", ":")).encode())
    h.update(json.dumps(g.result(), sort_keys=True).encode())
    if states:
        h.update(g.to_json().encode())
    return h.hexdigest()


def openspiel_digest(params: dict, seed: int, max_steps: int) -> str:
    import pyspiel

    import cyclades.env.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("cyclades", dict(params, seed=seed))
    state = game.new_initial_state()
    rng = random.Random(seed)
    h = hashlib.sha256()
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        steps += 1
        if state.is_chance_node():
            engine = state.engine
            if engine is not None and getattr(engine, "chance", "seeded") != "seeded" \
                    and engine.chance_outcomes()[0][0].kind == "draw":
                # A card drawn: code whose only chance nodes were dice drew the top card.
                from cyclades.env.openspiel import CHANCE_SPACE
                state.apply_action(CHANCE_SPACE.encode(engine.sample_chance(), engine.board))
                continue
            outcomes = state.chance_outcomes()
            r, acc, chosen = rng.random(), 0.0, outcomes[-1][0]
            for o, p in outcomes:
                acc += p
                if r < acc:
                    chosen = o
                    break
            h.update(f"c{outcomes}|{chosen}|".encode())
            state.apply_action(chosen)
            continue
        legal = state.legal_actions()
        chosen = rng.choice(legal)
        h.update(f"{state.current_player()}|{legal}|{chosen}|".encode())
        state.apply_action(chosen)
    h.update(f"{state.is_terminal()}|{state.returns()}".encode())
    return h.hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per mode (default 40)")
    ap.add_argument("--max-cycles", type=int, default=100, help="the games' max_cycles (default 100)")
    ap.add_argument("--mode", action="append", choices=sorted(MODES) + sorted(OPENSPIEL_MODES),
                    help="only these modes (repeat it); default every mode")
    ap.add_argument("--chance", choices=("seeded", "explicit"), default="seeded",
                    help="make the games with chance='explicit' (resolved as the seeded generator would)")
    ap.add_argument("--states", action="store_true", help="digest each game's final state (JSON) too")
    ap.add_argument("--openspiel-games", type=int, default=10, help="OpenSpiel games per mode (default 10)")
    ap.add_argument("--src", default=os.path.join(ROOT, "src"), help="the package's src/ directory")
    ap.add_argument("--json", metavar="FILE", help="write the digests to FILE")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.src)
    import cyclades

    modes = args.mode or list(MODES) + list(OPENSPIEL_MODES)
    out = {}
    for name in modes:
        start = time.process_time()
        if name in MODES:
            per_game = [game_digest(cyclades, MODES[name], seed, args.max_cycles, args.chance, args.states)
                        for seed in range(args.games)]
        else:
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                print(f"{name}: skipped (open_spiel is not installed)")
                continue
            per_game = [openspiel_digest(OPENSPIEL_MODES[name], seed, 20000)
                        for seed in range(args.openspiel_games)]
        digest = hashlib.sha256("".join(per_game).encode()).hexdigest()[:16]
        out[name] = digest
        print(f"{name:22} {digest}  ({len(per_game)} games, {time.process_time() - start:.1f} s CPU)",
              flush=True)
    total = hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()[:16]
    print(f"{'all':22} {total}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"modes": out, "all": total, "games": args.games, "max_cycles": args.max_cycles,
                       "chance": args.chance}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
