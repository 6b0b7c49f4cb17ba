"""The search's speed-ups change nothing it computes: the shared Positions read the
same figures as fresh ones, a shared Position does not follow the game it was read from, the
written-out shuffle draws as random.shuffle does, and the greedy/mcts choices stay those of the
straightforward code (benchmarks/mcts_speed.py compares whole searches with the old code)."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import types

from repository import TESTS

import cyclades
from cyclades.agents import evaluation as ev
from cyclades.agents import make_agent
from cyclades.engine.observation import _shuffle

FIELDS = ("lands", "seas", "units", "fort", "ports", "metros_in", "buildings_in", "income_of",
          "types", "dups", "free", "metros", "income", "troops", "fleets", "heroes", "creatures",
          "hero_count", "side_types")


def _games(count=3, steps=260):
    """Games played a while by greedy with random moves mixed in (3 players, 4 in teams)."""
    for seed in range(count):
        kw = {"players": 4, "teams": True} if seed % 3 == 1 else {"players": 3}
        g = cyclades.new_game(seed=seed, **kw)
        rng = random.Random(seed)
        agent = make_agent("greedy", seed=seed)
        for _ in range(steps):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(rng.choice(legal) if rng.random() < 0.3 else agent.act(g, g.to_move))
            yield g


def _same(a, b):
    for f in FIELDS:
        assert getattr(a, f) == getattr(b, f), f
    assert a.threats() == b.threats()
    for q in range(a.n):
        assert a.reach(q) == b.reach(q)


def test_shared_position_reads_what_a_fresh_one_reads():
    for g in _games():
        _same(ev.position(g), ev.Position(g))
        assert ev.values(g) == ev.values(g, ev.Position(g))


def test_shared_position_does_not_follow_its_game():
    g = next(x for x in _games(1, 120) if x.state.stack and x.state.stack[-1]["kind"] == "turn")
    pos = ev.position(g)
    before = {f: repr(getattr(pos, f)) for f in FIELDS}
    threats = dict(pos.threats())
    h = g.copy()
    for _ in range(40):  # play on: the Position read before must not change
        if h.is_over:
            break
        h.apply(h.legal_actions()[0])
    assert {f: repr(getattr(pos, f)) for f in FIELDS} == before
    assert pos.threats() == threats
    assert ev.position(g) is pos  # the same content: the same Position


def test_the_last_position_is_reused_only_for_the_same_content():
    g = next(x for x in _games(1, 120) if x.state.stack and x.state.stack[-1]["kind"] == "turn")
    pos = ev.position(g)
    assert ev.position(g.copy()) is pos  # the same content, asked right after: the same Position
    h = g.copy()
    land = next(a for a in h.board.lands if h.state.ctrl[a] >= 0)
    h.state.troops[land] += 1  # one troop more: another Position, which reads h
    other = ev.position(h)
    assert other is not pos
    _same(other, ev.Position(h))
    assert ev.position(g) is pos


def test_a_decision_with_one_option_besides_cancel_is_forced():
    from cyclades.agents.mcts import _forced
    from cyclades.engine.actions import Action
    cancel, done, end = Action("cancel"), Action("done"), Action("end_turn")
    assert _forced([done]) == done and _forced([cancel, done]) == done and _forced([cancel]) == cancel
    assert _forced([done, end]) is None and _forced([cancel, done, end]) is None


def test_shuffle_draws_as_random_shuffle():
    for seed in range(50):
        for n in (0, 1, 2, 7, 30):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            _shuffle(b, r2)
            assert a == b and r1.getstate() == r2.getstate()


def test_mcts_choices_repeat_with_warm_caches():
    """A second identical search (every cache warm) chooses the same with the same statistics."""
    g = cyclades.new_game(players=3, seed=5)
    greedy = make_agent("greedy", seed=1)
    for _ in range(40):
        g.apply(greedy.act(g, g.to_move))
    while len(g.legal_actions()) < 3:
        g.apply(greedy.act(g, g.to_move))
    runs = []
    for _ in range(2):
        agent = make_agent("mcts", seed=3, iterations=25)
        a = agent.act(g, g.to_move)
        runs.append((a, [(x, n, round(w, 9)) for x, n, w in agent.last_stats]))
    assert runs[0] == runs[1]


def test_a_search_pauses_the_collector_and_leaves_it_as_it_found_it():
    """The cyclic collector is off while the search iterates and back on after it; left off if
    the caller had turned it off."""
    import gc

    from cyclades.agents import mcts

    seen = []
    g = next(g for g in _games(1, 60) if len(g.legal_actions()) >= 3)
    agent = make_agent("mcts", seed=1, iterations=10)
    iterate = agent.iterate
    agent.iterate = lambda *a: (seen.append(gc.isenabled()), iterate(*a))[1]
    assert gc.isenabled()
    agent.act(g, g.to_move)
    assert seen and not any(seen) and gc.isenabled()
    gc.disable()
    try:
        agent.act(g, g.to_move)
        assert not gc.isenabled()
    finally:
        gc.enable()
    # Two searches at once (threads of the server): the collector resumes when the last ends.
    first, second = mcts.collector_paused(), mcts.collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_searches_leave_no_cyclic_garbage():
    """Pausing the collector loses no memory only if a search makes no reference cycles: after
    searches of positions with creatures and heroes in play (3 players and a team game), a
    collection finds nothing of the package to free. In a process of its own: in a long test run
    other tests' threads and caches (an in-process server's bots, a cache evicting a board's
    tables) make garbage of their own while the search runs."""
    code = "import json, test_mcts_speed as t; print(json.dumps(t.search_garbage()))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS / "agents"), str(TESTS)])}
    run = subprocess.run([sys.executable, "-c", code], cwd=TESTS, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    searched, left = json.loads(run.stdout.strip().splitlines()[-1])
    assert searched >= 8 and left == []


def search_garbage() -> tuple:
    """(positions searched, the package's objects a collection freed after their searches)."""
    import gc

    def ours(obj) -> bool:
        """An object of the package: its class, function or running code is cyclades'."""
        if isinstance(obj, types.FrameType):
            return "cyclades" in obj.f_code.co_filename
        module = getattr(obj, "__module__", None) if isinstance(obj, types.FunctionType) \
            else type(obj).__module__
        return str(module).startswith("cyclades")

    searched, found = 0, []
    for step, g in enumerate(_games(3, 260)):
        if step % 60 != 59 or g.is_over or len(g.legal_actions()) < 2:
            continue
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection frees is kept in gc.garbage, to be read
        try:
            make_agent("mcts", seed=2, iterations=40).act(g.copy(), g.to_move)
            gc.collect()
            left = [type(o).__name__ for o in gc.garbage if ours(o)]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        found += left
        searched += 1
    return searched, found
