"""How often random play buys each creature and recruits and sacrifices each hero.

    python tools/card_stats.py --games 1000 [--no-maelstrom]

A card that random play never reaches is a sign that it is unreachable: this is the check.
"""
import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import cyclades
from cyclades.content.cards import CREATURES, HEROES


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-maelstrom", action="store_true")
    args = ap.parse_args()
    maelstrom = not args.no_maelstrom
    count = collections.Counter()
    decisions = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        game = cyclades.new_game(players=3 + i % 3, seed=seed, maelstrom=maelstrom, max_cycles=100)
        rng = random.Random(seed)
        while not game.is_over:
            for e in game.apply(rng.choice(game.legal_actions())):
                t = e["type"]
                if t in ("creature_bought", "creature_wasted", "kept", "hero_recruited",
                         "hero_sacrificed", "creature_played"):
                    count[t, e.get("card") or e.get("hero")] += 1
            decisions += 1
    elapsed = time.perf_counter() - start
    print(f"{args.games} random games (3-5 players, Maelström {'on' if maelstrom else 'off'}): "
          f"{args.games / elapsed:.1f} games/s, {decisions / elapsed:,.0f} decisions/s")
    print(f"\n{'creature':18} {'bought':>7} {'played free':>11} {'no effect':>9} {'kept':>6}")
    for c in sorted(CREATURES):
        if maelstrom or not CREATURES[c].maelstrom:
            print(f"{c:18} {count['creature_bought', c]:7} {count['creature_played', c]:11} "
                  f"{count['creature_wasted', c]:9} {count['kept', c]:6}")
    print(f"\n{'hero':18} {'recruited':>9} {'sacrificed':>10}")
    for h in sorted(HEROES):
        if maelstrom or not HEROES[h].maelstrom:
            print(f"{h:18} {count['hero_recruited', h]:9} {count['hero_sacrificed', h]:10}")


if __name__ == "__main__":
    main()
