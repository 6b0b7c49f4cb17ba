"""Bot levels a person understands, and the expert's parallel search."""
import json

import pytest
from click.testing import CliRunner

import cyclades
from cyclades.agents import agent_labels, agent_names, levels, make_agent
from cyclades.agents.greedy import GreedyAgent
from cyclades.agents.levels import CarelessAgent, resolve
from cyclades.agents.mcts import MCTSAgent, combine, pick
from cyclades.cli import main


def _midgame(seed=3, decisions=40):
    g = cyclades.new_game(players=3, seed=seed)
    greedy = make_agent("greedy", seed=0)
    for _ in range(decisions):
        g.apply(greedy.act(g, g.to_move))
    while len(g.legal_actions()) < 3:
        g.apply(greedy.act(g, g.to_move))
    return g


# --- the levels ---------------------------------------------------------------------------------

def test_levels_resolve_to_agents_with_their_budgets():
    beginner, casual, strong, expert = (make_agent(n, seed=1) for n in levels.ORDER)
    assert isinstance(beginner, CarelessAgent) and beginner.mistakes == 0.3
    assert isinstance(casual, GreedyAgent)
    assert isinstance(strong, MCTSAgent) and strong.iterations == 100 and strong.workers == 1
    assert isinstance(expert, MCTSAgent) and expert.iterations == 500 and expert.workers == 2
    assert expert.seconds is None  # iteration budgets: the same play on a loaded machine
    assert [a.level for a in (beginner, casual, strong, expert)] == levels.ORDER
    # A level's options go over its own, as for the agent it stands for.
    one = make_agent("expert:workers=1", seed=1)
    assert one.workers == 1 and one.iterations == 500
    assert resolve("expert") == "mcts:iterations=500,workers=2"
    assert resolve("expert:workers=1") == "mcts:iterations=500,workers=1"
    assert resolve("greedy") == "greedy" and resolve("casual") == "greedy:surplus=16"
    assert casual.surplus == 16 and make_agent("greedy", seed=0).surplus == 0


def test_levels_are_listed_first_with_labels_for_people():
    names = agent_names()
    assert names[:4] == ["beginner", "casual", "strong", "expert"]
    assert {"random", "greedy", "mcts", "careless"} <= set(names)
    labels = agent_labels()
    assert set(labels) == set(names)
    assert labels["expert"].startswith("Expert") and labels["beginner"].startswith("Beginner")


def test_the_lobby_lists_the_levels_with_labels(tmp_path):
    """GET /api/bots: the levels first, a label for each bot kind and each level's name, in the
    asker's language (lobby.js shows them: "bot: Casual (level 2 of 4)")."""
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'lobby.db'}", bot_delay=0.0)) as client:
        data = client.get("/api/bots").json()
        french = client.get("/api/bots?lang=fr").json()
    assert data["bots"][:4] == levels.ORDER and data["default"] in data["bots"]
    assert data["labels"]["casual"].startswith("Casual")
    assert list(data["levels"]) == levels.ORDER and data["levels"]["casual"] == "Casual"
    assert french["levels"]["beginner"] == "Débutant" and list(french["levels"]) == levels.ORDER


def test_unknown_levels_and_bad_budgets_are_refused():
    with pytest.raises(ValueError, match="unknown agent 'grandmaster'"):
        make_agent("grandmaster")
    with pytest.raises(ValueError, match="workers must be 1 or more"):
        make_agent("expert:workers=0")
    with pytest.raises(ValueError, match="workers must be 1 or more"):
        MCTSAgent(seed=1, iterations=5, workers=0)
    with pytest.raises(ValueError, match="probability"):
        make_agent("beginner:mistakes=2")
    r = CliRunner().invoke(main, ["tournament", "--agents", "expert,grandmaster", "--games", "1"])
    assert r.exit_code != 0 and "unknown agent 'grandmaster'" in r.output


def test_careless_errs_as_often_as_asked():
    g = _midgame()
    obs = g.observe(g.to_move)
    sure = CarelessAgent(seed=4, mistakes=0.0)
    greedy = GreedyAgent(seed="careless/4")
    assert sure.choose(obs) == greedy.choose(obs)
    wild = CarelessAgent(seed=4, mistakes=1.0)
    picks = {wild.choose(obs) for _ in range(30)}
    assert len(picks) > 1 and picks <= set(obs.legal_actions())


@pytest.fixture
def quick_levels(monkeypatch):
    """The levels with small budgets (the same agents), so that whole games are quick."""
    quick = dict(levels.LEVELS)
    quick["strong"] = levels.Level("strong", "Strong", "mcts:iterations=4", "test")
    quick["expert"] = levels.Level("expert", "Expert", "mcts:iterations=3,workers=2", "test")
    monkeypatch.setattr(levels, "LEVELS", quick)
    from cyclades.agents import registry
    registry.register_levels()
    yield
    monkeypatch.undo()
    registry.register_levels()


def test_levels_play_tournaments_by_name(tmp_path, quick_levels):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tournament", "--agents", "expert,casual", "--games", "3",
                                  "--workers", "1", "--max-cycles", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "results.json").read_text())
    assert {s["agent"] for s in data["summary"]} == {"expert", "casual"}
    assert data["games"] == 3 and not data["errors"]


def test_levels_play_simulations_by_name(tmp_path, quick_levels):
    out = tmp_path / "sim.json"
    r = CliRunner().invoke(main, ["simulate", "--agents", "expert,casual", "--games", "1",
                                  "--players", "3", "--max-cycles", "1", "--json", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["agents"] == ["expert", "casual"]


# --- the parallel search ---------------------------------------------------------------------------

def test_parallel_search_is_legal_deterministic_and_sums_the_roots():
    """Root parallelization: 2 workers (processes) return a legal action, the same one for the
    same seed and workers, the same as the 2 searches run in this process, and the root's
    statistics are the workers' summed."""
    g = _midgame()
    p = g.to_move
    a = MCTSAgent(seed=5, iterations=12, workers=2)
    b = MCTSAgent(seed=5, iterations=12, workers=2)
    here = MCTSAgent(seed=5, iterations=12, workers=2, processes=False)
    x = a.act(g, p)
    assert x in g.legal_actions()
    assert b.act(g, p) == x and here.act(g, p) == x
    assert a.last_stats == b.last_stats == here.last_stats
    assert a.last_worker_iterations == [12, 12] and a.last_iterations == 24
    # The sum: each worker's search alone (worker k's seed), then combined.
    subs = [MCTSAgent(seed=f"mcts-worker/5/{k}", iterations=12) for k in range(2)]
    options = [o for o in g.legal_actions() if o.kind != "cancel"]
    parts = [s.root_stats(g.observe(p), options, None)[0] for s in subs]
    assert combine(parts) == a.last_stats
    assert sum(n for _, n, _ in a.last_stats) == 24
    assert pick(a.last_stats) == x
    # Another seed may search otherwise, but one worker is the plain search.
    solo = MCTSAgent(seed=5, iterations=12)
    assert solo.act(g, p) in g.legal_actions() and solo.last_iterations == 12


def test_parallel_search_plays_on_and_travels_pickled():
    """Over consecutive decisions (the worker processes are reused) every action is legal; the
    agent carries its workers' generators, so a pickled copy (as the server's bot workers get
    it) decides exactly as the original does."""
    import pickle
    g = _midgame(seed=8, decisions=25)
    agent = MCTSAgent(seed=1, iterations=6, workers=2)
    greedy = make_agent("greedy", seed=2)
    me = g.to_move
    for step in range(40):
        if g.is_over:
            break
        if g.to_move == me:
            if step > 10:
                twin = pickle.loads(pickle.dumps(agent))
                a = agent.act(g, me)
                assert twin.act(g, me) == a
            else:
                a = agent.act(g, me)
        else:
            a = greedy.act(g, g.to_move)
        assert a in g.legal_actions()
        g.apply(a)


def test_parallel_search_in_a_daemonic_process_runs_in_place():
    """A pool worker (daemonic) may not start processes: the search runs there, unchanged."""
    import multiprocessing as mp
    g = _midgame()
    expect = MCTSAgent(seed=9, iterations=8, workers=2, processes=False).act(g, g.to_move)
    with mp.get_context("spawn").Pool(1) as pool:
        got = pool.apply(_search_in_worker, (g.to_json(), 9))
    assert got == expect.to_json() if hasattr(expect, "to_json") else got == repr(expect)


def _search_in_worker(game_json, seed):
    import multiprocessing as mp

    import cyclades as c
    from cyclades.agents.mcts import MCTSAgent as M
    assert mp.current_process().daemon
    g = c.Game.from_json(game_json)
    a = M(seed=seed, iterations=8, workers=2).act(g, g.to_move)
    return a.to_json() if hasattr(a, "to_json") else repr(a)
