"""agents/estimate.py: the time a run of games will take, said before it starts."""
import re

from cyclades.agents.estimate import cpu_seconds_per_game, forecast, seconds_per_decision, seconds_per_game


def _minutes(text):
    m = re.search(r"about ([\d.]+) (s|min|h)\.$", text)
    value, unit = float(m.group(1)), m.group(2)
    return value * {"s": 1 / 60, "min": 1, "h": 60}[unit]


def test_a_parallel_search_counts_its_processes_against_the_cores():
    """A search on 2 worker processes takes the wall time of one but keeps two cores busy: two
    such games at once on a 2-core machine take twice as long as on 4 cores (a tournament of the
    expert was announced at 85 minutes and took more than twice that)."""
    seats = ["mcts:iterations=500,workers=2", "strong", "strong"]
    one = ["mcts:iterations=500,workers=1", "strong", "strong"]
    assert seconds_per_game(seats) == seconds_per_game(one)
    assert cpu_seconds_per_game(seats) > cpu_seconds_per_game(one)
    on_two = _minutes(forecast(seats, 3, games=60, workers=2, cores=2))
    on_four = _minutes(forecast(seats, 3, games=60, workers=2, cores=4))
    assert on_two > 1.5 * on_four
    # Without parallel search the games alone set the pace: more cores than games change nothing.
    assert _minutes(forecast(one, 3, games=60, workers=2, cores=2)) == _minutes(forecast(one, 3, 60, 2, cores=8))


def test_quick_agents_get_no_forecast():
    assert forecast(["greedy", "random", "casual"], 3, games=100, workers=2) is None


def test_a_search_that_reads_a_value_network_is_counted_at_its_cheaper_iterations():
    """Its leaves are valued without a rollout: an iteration costs about half (measured by
    benchmarks/level_time.py), so 190 of them are announced at about the time of 100 plain."""
    plain = seconds_per_decision("mcts:iterations=100")
    network = seconds_per_decision("mcts:iterations=190,value=shipped")
    assert 0.8 * plain < network < 1.1 * plain
    assert seconds_per_decision("mcts:iterations=100,value=shipped,rollout=1") > plain
    # the forecast reads the options as the search does: rollout=no plays no rollout
    assert seconds_per_decision("mcts:iterations=190,value=shipped,rollout=no") == network
    assert seconds_per_decision("mcts:iterations=190,value=none") == seconds_per_decision("mcts:iterations=190")
