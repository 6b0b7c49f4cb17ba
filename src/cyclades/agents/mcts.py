"""The mcts agent: information-set Monte Carlo tree search for several players.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) with a reward per player:

- Each iteration samples a full game consistent with what the player knows
  (`Observation.determinize`: the others' purses and the piles' order guessed, a fresh
  generator for the dice), so the search never peeks (R24).
- It walks down one tree shared by all samples. At every node the player to move (in that
  sample) picks by UCB1 on *their own* reward among the actions legal in the sample, counting
  how often each was available; so each player maximises its own result.
- Nodes widen progressively in the order the greedy policy ranks their actions: a node first
  considers greedy's choice, then the next ones as its visits grow (the root considers up to
  `width` at once). Offerings are many (every god x every amount), so they are searched over a
  few amounts per god.
- From the new leaf the greedy policy plays every seat to the end of the cycle (at most `depth`
  decisions), and the position is valued by the heuristic (`evaluation.win_chances`): a reward
  vector that sums to one, the result itself if the game ended.
- Greedy's weights (`apollo`, `gods`, `surplus`) are the searcher's: with `rivals=greedy` only
  its own seat (and its partners') ranks and rolls out with them, the other seats as plain greedy
  does, the way every other level plays; with `rivals=same` (the default) every seat uses them.
- With a value network (`value=shipped` or a weights file: agents/value.py), the new leaf is
  valued by the network instead (its win chances from the view of the player to move there), no
  rollout played; `rollout=1` plays the rollout and values its end by the network. If the
  network has a policy head, `prior=1` makes it the root's prior over its candidates: the root
  picks by PUCT (mean reward + puct x prior x sqrt(visits of the root) / (1 + visits), the
  unvisited valued at the root's mean) instead of trying each candidate once and then UCB1.
- Team play (R22): the reward of a faction is its team's (`rewards`): a team's win is a win for
  each member, a partner's gain is not a rival's, and every member's node statistics back up the
  team's value, so partners cooperate in the tree. The search never considers outbidding a
  partner's offering (R29 allows it) when it has another choice.
- The action played is the root's most visited. A decision with one legal action is taken at
  once; `cancel` (which only returns to the decision before) is never searched.
- The subtree below the action played is kept: when the player's next decision follows at once
  (the steps of a move, the next action of a turn), the search starts from it and only tops it
  up to the budget.

Budget: `iterations` per decision, and/or `seconds` per decision (the clock is checked between
iterations and inside rollouts, so a decision never overruns the budget by more than one
rollout step). With `early_stop` a search may end sooner: at 1, once the most visited root
action leads the next by more than the iterations left, so nothing left could change the choice
(over a game's decisions about a tenth of a 200-iteration budget is spared this way, choices
unchanged); below 1, on a smaller lead (0.5 spares a sixth, 0.2 nearly a third, and a choice
now and then differs). The expert's CPU budget is an average a decision: what easy decisions
spare, a budget of more iterations can spend on the close ones.

Parallel search (`workers=N`, root parallelization): N searches from the same root, each with
its own generator (seeded from the agent's seed and the worker's index) and so its own
determinizations; the root statistics (visits and the player's reward per action) are summed
and the most visited action is played. `iterations` is each worker's budget (N workers do N
times the iterations), `seconds` each worker's clock, so on N free cores a second gives about
N times the iterations of one process. The searches run in persistent worker processes (one
pool per N, started on first use and reused by every agent and decision of the process). The
workers keep nothing between decisions: the agent holds each worker's generator state and
sends it with the decision, so the agent (pickled, e.g. to the server's bot workers) carries
all its state, and each decision searches afresh (no subtree kept, unlike one worker). The
result depends only on the seed and N, not on where the searches ran: in a daemonic process
(which may not have children), with `processes=0`, or with the environment variable
CYCLADES_MCTS_PROCESSES=0, the N searches run one after the other in this process (a seconds
budget then split between them) and choose exactly the same actions.
"""
from __future__ import annotations

import atexit
import gc
import math
import multiprocessing as mp
import os
import random
import threading
import time

from ..engine.actions import Action
from . import evaluation as ev
from .base import Agent
from .base import number_option as checked_number
from .greedy import GreedyPolicy, bid_plan

DEFAULT_ITERATIONS = 100


class Node:
    __slots__ = ("avail", "children", "n", "order", "prior", "w")

    def __init__(self, players):
        self.children = {}
        self.order = None
        self.prior = None  # {action: the policy head's chance}, at a root searched with prior=1
        self.n = 0
        self.w = [0.0] * players
        self.avail = 0


def value_option(value):
    """The `value` option of an mcts spec: the weights it names ("shipped" or a file), or None
    for no network ("", "none", "0")."""
    return str(value) if value not in (None, "", "none", "0") else None


RIVALS = ("same", "greedy")


def rivals_option(value) -> str:
    """The `rivals` option of an mcts spec: "same" or "greedy"."""
    value = str(value).strip().lower()
    if value not in RIVALS:
        raise ValueError(f"mcts rivals must be one of {', '.join(RIVALS)}, not {value!r}")
    return value


def flag_option(value) -> bool:
    """A yes-or-no option (`rollout`, `prior`): 1, true or yes."""
    return str(value).lower() in ("1", "true", "yes") if value is not None else False


def number_option(name, value, whole=False, least=0):
    """A number option of an mcts spec, checked (base.number_option)."""
    return checked_number("mcts", name, value, whole, least)


class MCTSAgent(Agent):
    """Options: iterations (per decision; the default, 100, when no seconds are given; 0 = no
    limit but time), seconds (per decision; None = no limit but iterations), depth (rollout
    decisions at most), cycles (cycles a rollout looks ahead: 1 = to the end of the current
    one), c (UCB exploration), width (root candidates), widen (progressive widening below),
    workers (root-parallel searches, each with this budget; 1 = one search in this process),
    processes (whether the workers may be processes; None = when this process may have
    children and CYCLADES_MCTS_PROCESSES is not 0), value (a value network: "shipped" or a
    weights file; the leaves are valued by it, without a rollout unless rollout=1), prior (1: the
    network's policy head is the root's prior, PUCT), puct (its exploration constant), apollo,
    gods and surplus (the weights greedy's ranking and rollouts give Apollo's reward and the gods'
    worth, and the GP past which a GP more is worth nothing: greedy.py's options), rivals (how
    the tree and the rollouts play the other side's seats: "same", with those weights, or
    "greedy", as plain greedy plays, the way the other levels do), early_stop (with an iterations
    budget; 0: search the whole budget; F > 0: stop once the most visited root action leads the
    next by more than F times the iterations left, so with 1 the search stops when nothing can
    change its choice), temperature (of the softmax that turns the heuristic's values at a
    rollout's end into rewards: the heuristic's own by default, higher is softer)."""

    name = "mcts"

    def __init__(self, seed=None, iterations=None, seconds=None, depth=150, cycles=1, c=0.25,  # noqa: PLR0913  (one argument per option)
                 width=8, widen=0.5, workers=1, processes=None, value=None, rollout=None, prior=None,
                 puct=1.0, apollo=1.0, gods=1.0, surplus=0, rivals="same", early_stop=0,
                 temperature=ev.TEMPERATURE):
        super().__init__(seed)
        # value: a value network's weights ("shipped": the package's, or a file's path): the
        # leaves are valued by it instead of a greedy rollout and the heuristic (agents/value.py).
        # rollout: with a network, whether to play the rollout first and value its end by it.
        self.value = value_option(value)
        self.network = self._read_network()
        self.rollout_first = flag_option(rollout)  # with a network: play the rollout, value its end
        self.use_prior = flag_option(prior)
        if self.use_prior and (self.network is None or not self.network.has_policy):
            raise ValueError("mcts prior=1 needs a value network with a policy head (value=FILE, trained "
                             "with cyclades train --policy-weight)")
        self.puct = number_option("puct", puct)
        self.workers = number_option("workers", workers, whole=True, least=1)  # 1: this process
        self.processes = processes
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = number_option("iterations", iterations or 0, whole=True)
        self.seconds = number_option("seconds", seconds or 0) or None
        if not self.iterations and not self.seconds:
            raise ValueError("mcts needs a budget: iterations or seconds per decision")
        self.depth = number_option("depth", depth, whole=True)
        self.cycles = number_option("cycles", cycles, whole=True)
        self.c = number_option("c", c)
        self.early_stop = number_option("early_stop", early_stop)  # 0: the whole budget (root_stats)
        self.width = number_option("width", width, whole=True, least=1)
        # The softmax temperature that turns the heuristic's values at a rollout's end into
        # rewards (evaluation.py's by default; higher: softer, closer to how often such leads win)
        self.temperature = number_option("temperature", temperature)
        if self.temperature <= 0:
            raise ValueError(f"mcts temperature={temperature} must be above 0")
        if self.network is not None and self.temperature != ev.TEMPERATURE:
            raise ValueError("mcts temperature is the heuristic's: a value network (value=...) values "
                             "the leaves with its own chances")
        self.widen = number_option("widen", widen)
        self.rng = random.Random(seed)
        self.apollo = number_option("apollo", apollo)  # the weight of Apollo's reward (greedy.py)
        self.gods = number_option("gods", gods)        # the weight of a god's worth (greedy.py)
        self.surplus = number_option("surplus", surplus, whole=True)  # GP worth holding (greedy.py)
        weights = {"apollo": self.apollo, "gods": self.gods, "surplus": self.surplus}
        self.policy = GreedyPolicy(**weights)  # ranks the actions of the tree's nodes
        self.rollout_policy = GreedyPolicy(budget=12, depth=1, **weights)  # cheaper: plays the rollouts
        # The rivals' seats: played with the same weights, or as plain greedy plays them. Weights
        # that make greedy stronger make the rollouts' rivals stronger too, and then the search
        # expects better play than rivals on plain greedy (every other level) give it.
        self.rivals = rivals_option(rivals)
        # (The root is always the searcher's own decision: the rivals need no full look-ahead.)
        plain = self.rivals == "greedy"
        self.rival_rollout_policy = GreedyPolicy(budget=12, depth=1) if plain else self.rollout_policy
        self.side: frozenset[int] = frozenset()   # the searcher's seats (its own, its partners'): take_side
        self.last_iterations = 0   # for tests and statistics: iterations of the last search
        self.last_seconds = 0.0
        self.last_stats = []       # the root's (action, visits, reward) of the last search
        self.last_worker_iterations = []  # with workers > 1: the iterations of each search
        self.last_worker_cpu = []
        self.last_cpu_elsewhere = 0.0  # CPU seconds of the last decision in the worker processes
        # With workers > 1: each worker's generator state, sent with each decision.
        self._worker_states = None
        # The subtree below the action just played, kept for the player's next decision if it
        # comes right after (the steps of a move, a turn's actions): (node, version, player).
        self._next = None

    def __getstate__(self):
        # The network is read again from its file where the agent is unpickled (a server's bot
        # worker): the weights (megabytes) do not travel with each decision.
        return {**self.__dict__, "network": None}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.network = self._read_network()

    def _read_network(self):
        """The value network the `value` option names, or None."""
        if not self.value:
            return None
        from . import value as vnet
        return vnet.load(None if self.value == "shipped" else self.value)

    # -- the interface -------------------------------------------------------------------

    def choose(self, obs):
        t0 = time.perf_counter()
        self.last_cpu_elsewhere = 0.0
        legal = obs.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or waits on someone else")
        options = searched(legal)
        if len(options) == 1:
            self.last_iterations, self.last_seconds = 0, time.perf_counter() - t0
            self.last_stats = []  # no search: nothing tried
            kept = self._next
            if kept and kept[1] == obs.view["version"] and kept[2] == obs.player:
                self._next = (kept[0], kept[1] + 1, kept[2])  # the search skips these too
            return options[0]
        deadline = t0 + self.seconds if self.seconds else None
        action = self.search(obs, options, deadline)
        self.last_seconds = time.perf_counter() - t0
        return action

    def _reused(self, obs):
        kept, self._next = self._next, None
        if kept and kept[1] == obs.view["version"] and kept[2] == obs.player:
            return kept[0]
        return None

    # -- the search ----------------------------------------------------------------------

    def search(self, obs, options, deadline):
        if self.workers > 1:
            return self.parallel_search(obs, options, deadline)
        root = self._reused(obs)
        stats, root = self.root_stats(obs, options, deadline, root)
        best = pick(stats)
        p = obs.player
        if root is not None and (p, best) in root.children:
            self._next = (root.children[(p, best)], obs.view["version"] + 1, p)
        return best

    def root_stats(self, obs, options, deadline, root=None):
        """Grow the tree of this decision (from `root`, a kept subtree, if given) within the
        budget; ([(action, visits, the player's summed reward)] in the root's order, root)."""
        p = obs.player
        first = ev.sample(obs, self.rng)
        n = first.state.n
        self.take_side(first, p)
        root = root or Node(n)
        root.order = self.candidates(first, p, options, root=True)
        if self.use_prior:  # the policy head's chances of the root's candidates (PUCT)
            considered = root.order[:self.width]
            root.prior = dict(zip(considered, self.network.policy(first, considered)))
        if len(root.order) == 1:
            self.last_iterations = 0
            self.last_stats = [(root.order[0], 0, 0.0)]
            return self.last_stats, None
        # A kept subtree has searched this decision already: top it up to the budget (and at
        # least a quarter of it, for the new candidates of the root).
        # (At least one iteration: a budget of 0 would mean "no limit".)
        budget = max(self.iterations - root.n, self.iterations // 4, 1) if self.iterations else 0
        it = 0
        with collector_paused():
            while True:
                if budget and it >= budget:
                    break
                if self.early_stop and budget and self.decided(root, budget - it):
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                g = first if it == 0 else ev.sample(obs, self.rng)
                self.iterate(root, g, n, deadline)
                it += 1
        self.last_iterations = it
        stats = []
        for a in root.order:
            child = root.children.get((p, a))
            if child is not None and child.n:
                stats.append((a, child.n, child.w[p]))
        self.last_stats = stats or [(root.order[0], 0, 0.0)]
        return self.last_stats, root

    def decided(self, root, left) -> bool:
        """Whether the root's most visited action leads the next by more than early_stop x the
        `left` iterations (1: no iterations left could change the choice). Decisions where one
        action is clearly best stop early, and their iterations can go to the close ones."""
        first = second = 0
        for child in root.children.values():
            if child.n > first:
                first, second = child.n, first
            elif child.n > second:
                second = child.n
        return first - second > self.early_stop * left

    def take_side(self, g, p):
        """Search for p: p's seat and its partners' play with this agent's weights, the others'
        with the rivals' policy."""
        self.side = frozenset(q for q in range(g.state.n) if g.friends(p, q))

    def estimate(self, obs) -> list:
        """The search's own estimate of each faction's chance to win from `obs` (the player's
        information set): the mean reward at the root after the iteration budget, i.e. the
        heuristic's win chances a cycle ahead averaged over sampled hidden information and the
        tree's lines of play. Used for the win-chance chart (agents/advice.py)."""
        first = ev.sample(obs, self.rng)
        if first.is_over:
            return ev.win_chances(first)
        n = first.state.n
        self.take_side(first, obs.player)
        root = Node(n)
        with collector_paused():
            for it in range(max(self.iterations, 1)):
                g = first if it == 0 else ev.sample(obs, self.rng)
                self.iterate(root, g, n, None)
        self.last_iterations = root.n
        return [w / root.n for w in root.w]

    # -- root parallelization ------------------------------------------------------------

    def config(self) -> dict:
        """The options of each worker's search."""
        return {"iterations": self.iterations, "seconds": self.seconds, "depth": self.depth,
                "cycles": self.cycles, "c": self.c, "width": self.width, "widen": self.widen,
                "value": self.value, "rollout": self.rollout_first, "prior": self.use_prior,
                "puct": self.puct, "apollo": self.apollo, "gods": self.gods,
                "surplus": self.surplus, "rivals": self.rivals, "early_stop": self.early_stop,
                "temperature": self.temperature}

    def parallel_search(self, obs, options, deadline):
        seconds = None
        if deadline is not None:
            seconds = max(0.0, deadline - time.perf_counter())
        if self._worker_states is None:
            self._worker_states = [random.Random(worker_seed(self.seed, k)).getstate()
                                   for k in range(self.workers)]
        jobs = [{"config": self.config(), "state": state, "obs": obs, "options": options,
                 "seconds": seconds} for state in self._worker_states]
        results = None
        if self.use_processes():
            pool = worker_pool(self.workers)
            if pool is not None:
                try:
                    results = pool.search(jobs)
                    self.last_cpu_elsewhere = sum(r[2] for r in results)
                except (EOFError, OSError):  # a worker went away: search here instead
                    drop_pool(self.workers)
        if results is None:  # in this process, one search after the other
            share = seconds / self.workers if seconds is not None else None
            results = [worker_search(dict(job, seconds=share)) for job in jobs]
        self._worker_states = [r[3] for r in results]
        stats = combine([r[0] for r in results])
        self.last_stats = stats
        self.last_worker_iterations = [r[1] for r in results]
        self.last_worker_cpu = [r[2] for r in results]  # CPU seconds of each search
        self.last_iterations = sum(self.last_worker_iterations)
        return pick(stats)

    def use_processes(self) -> bool:
        if self.processes is not None and not self.processes:
            return False
        if os.environ.get("CYCLADES_MCTS_PROCESSES", "1").strip() in ("0", "false", "no"):
            return False
        return can_have_children()

    def iterate(self, root, g, n, deadline):
        node = root
        path = [root]
        start_cycle = g.state.cycle
        expanded = False  # one new node per iteration, then the rollout
        while not g.is_over:
            legal = g.legal_actions()
            forced = _forced(legal)
            if forced is not None:  # no node (the agent takes these without search)
                g.apply(forced)
                continue
            q = g.to_move
            if node.order is None:
                node.order = self.candidates(g, q, searched(legal))
            allowed = self.width if node is root else 1 + int(self.widen * math.sqrt(node.n))
            cands = self.considered(node, g, q, legal, allowed)
            kids = [node.children.get((q, a)) for a in cands]
            if node.prior is not None:  # PUCT: the prior says which to try, and how often
                chosen, child = self.select_by_prior(node, q, cands, kids)
                if child is None:
                    child = node.children[(q, chosen)] = kids[cands.index(chosen)] = Node(n)
                    expanded = True
            elif None in kids:  # the first candidate not tried yet: a new node
                i = kids.index(None)
                chosen, child = cands[i], Node(n)
                node.children[(q, chosen)] = kids[i] = child
                expanded = True
            else:
                chosen, child = self.select(q, cands, kids)
            for c in kids:
                if c is not None:
                    c.avail += 1
            g.apply(chosen)
            node = child
            path.append(node)
            if expanded:
                break
        reward = self.leaf_value(g, start_cycle, deadline)
        for nd in path:
            nd.n += 1
            w = nd.w
            for i in range(n):
                w[i] += reward[i]

    def considered(self, node, g, q, legal, allowed) -> list:
        """The first `allowed` of the node's candidates that are legal in this sample."""
        legal_set = set(legal)
        cands = []
        for a in node.order:
            if a in legal_set:
                cands.append(a)
                if len(cands) >= allowed:
                    return cands
        if not cands:  # this sample's actions differ (another purse): rank them too
            opts = searched(legal)
            extra = [a for a in self.candidates(g, q, opts) if a not in set(node.order)]
            node.order = node.order + extra
            cands = extra[:allowed] or opts[:1]
        return cands

    def leaf_value(self, g, start_cycle, deadline) -> list:
        """The reward of each faction for the new leaf: the greedy rollout's end valued by the
        heuristic, or the leaf itself (or the rollout's end, with rollout=1) by the network."""
        if self.network is None:
            return self.rollout(g, start_cycle, deadline)
        if self.rollout_first:  # the rollout's heuristic chances are the network's prior there
            return self.network.win_chances(g, self.rollout(g, start_cycle, deadline))
        return self.network.win_chances(g)

    def select(self, q, cands, kids):
        """UCB1 on q's own reward among the candidates (and their nodes, `kids`)."""
        best, best_child, top = None, None, None
        c = self.c
        for a, ch in zip(cands, kids):
            u = ch.w[q] / ch.n + c * math.sqrt(math.log(max(ch.avail, 1) + 1) / ch.n)
            if top is None or u > top:
                best, best_child, top = a, ch, u
        return best, best_child

    def select_by_prior(self, node, q, cands, kids):
        """PUCT on q's reward: mean + puct x prior x sqrt(the node's visits) / (1 + visits), a
        candidate not tried yet valued at the node's mean; (action, its node or None)."""
        mean = node.w[q] / node.n if node.n else 0.5
        spread = self.puct * math.sqrt(node.n + 1)
        rest = 1.0 / max(len(cands), 1)  # a candidate the prior has not seen (another sample's)
        best, best_child, top = None, None, None
        for a, ch in zip(cands, kids):
            visits = ch.n if ch is not None else 0
            q_value = ch.w[q] / visits if visits else mean
            u = q_value + spread * node.prior.get(a, rest) / (1 + visits)
            if top is None or u > top:
                best, best_child, top = a, ch, u
        return best, best_child

    def rollout(self, g, start_cycle, deadline):
        end = start_cycle + self.cycles
        steps = 0
        while not g.is_over and steps < self.depth and g.state.cycle < end:
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            q = g.to_move
            g.apply(self.rollout_policy_of(q).decide(g, q, legal))
            steps += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self.rewards(g)

    def rollout_policy_of(self, q):
        """The policy that plays seat q in the rollouts and ranks its actions below the root."""
        return self.rollout_policy if q in self.side else self.rival_rollout_policy

    def rewards(self, g) -> list:
        """The reward of each faction for a position: the result if the game is over, else the
        heuristic's win chances; in team play each member gets its team's (evaluation.win_chances)."""
        return ev.win_chances(g, temperature=self.temperature)

    # -- which actions to consider, best first ---------------------------------------------

    def candidates(self, g, p, options, root=False) -> list:
        # The root (the searcher's own decision) is ranked with greedy's full look-ahead, the
        # nodes below more cheaply, each seat with its side's weights.
        policy = self.policy if root else self.rollout_policy_of(p)
        if g.state.stack and g.state.stack[-1]["kind"] == "offer":
            return self.bid_candidates(g, p, options, policy)
        return policy.ranked(g, p, options)

    def bid_candidates(self, g, p, options, policy) -> list:
        """Offerings: greedy's bid first, then for each god a few amounts around what it is
        worth and the lowest, and Apollo."""
        # R29 allows outbidding a teammate; the search does not consider it if it has a choice.
        partner = {god for god, (q, _) in g.state.bids.items() if q != p and g.friends(p, q)}
        if partner:
            options = [a for a in options if not (a.kind == "bid" and a.what in partner)] or options
        ctx = policy.context(g, p)  # one reading of the position for the ranking and the plan
        ranked = policy.ranked(g, p, options, ctx)
        have = set(options)
        plan = bid_plan(ctx, options)
        out = [ranked[0]]
        extra = []
        for a in ranked:
            if a.kind == "apollo":
                extra.append(a)
        lows: dict[str, int] = {}
        for a in options:
            if a.kind == "bid":
                lows[a.what] = min(lows.get(a.what, 99), a.n)
        gods = sorted(lows, key=lambda god: -plan.get(god, (0, -99))[1])
        for god in gods:
            amount = plan.get(god, (lows[god], 0))[0]
            for n in (amount, lows[god], amount + 2, amount - 2, amount + 4):
                a = Action("bid", what=god, n=n)
                if a in have:
                    extra.append(a)
        seen = set(out)
        for a in extra:
            if a not in seen:
                seen.add(a)
                out.append(a)
        return out


class collector_paused:
    """Python's cyclic garbage collector paused while a search runs (as `timeit` does).

    A search makes and drops tens of thousands of small containers a second (copies of the
    game, frames, lists of actions), all freed by reference counting: the collector finds no
    cycle among them (tested), yet every 700 allocations it walks the young ones (3% of the
    search's time). The pause is counted process-wide, so that searches in several threads of
    one process (the server's hints, its bots with --bot-workers 0) pause it once and the last
    one to end resumes it, and only if it was on."""

    _lock = threading.Lock()
    _active = 0
    _resume = False

    def __enter__(self):
        cls = type(self)
        with cls._lock:
            if cls._active == 0:
                cls._resume = gc.isenabled()
                gc.disable()
            cls._active += 1
        return self

    def __exit__(self, *exc):
        cls = type(self)
        with cls._lock:
            cls._active -= 1
            if cls._active == 0 and cls._resume:
                gc.enable()
        return False


def searched(legal) -> list:
    """The actions worth searching: all but `cancel` (which only returns to the decision
    before), unless it is the only one."""
    return [a for a in legal if a.kind != "cancel"] or legal


def _forced(legal):
    """The only action of a decision with one option (`cancel` aside), else None."""
    if len(legal) > 2:  # (one of them at most is `cancel`)
        return None
    opts = searched(legal)
    return opts[0] if len(opts) == 1 else None


# --- root statistics --------------------------------------------------------------------------

def combine(results) -> list:
    """Sum the root statistics of several searches: [(action, visits, reward)], actions in the
    order they first appear (worker 0's order first), so the sum is deterministic."""
    total: dict[Action, list[float]] = {}
    for stats in results:
        for a, n, w in stats:
            t = total.setdefault(a, [0, 0.0])
            t[0] += n
            t[1] += w
    return [(a, n, w) for a, (n, w) in total.items()]


def pick(stats):
    """The most visited action (ties: the better mean reward, then the first)."""
    best, key = None, None
    for a, n, w in stats:
        k = (n, w / n if n else 0.0)
        if key is None or k > key:
            best, key = a, k
    return best


def worker_seed(seed, k):
    """The generator seed of worker k of an agent seeded `seed` (None: unseeded)."""
    return None if seed is None else f"mcts-worker/{seed}/{k}"


# --- persistent worker processes ----------------------------------------------------------------

def can_have_children() -> bool:
    """A daemonic process (e.g. a multiprocessing.Pool worker) may not start processes."""
    try:
        return not mp.current_process().daemon
    except Exception:  # pragma: no cover
        return False


def worker_search(job):
    """One worker's search of one decision: (root statistics, iterations, CPU seconds, the
    generator's state after it). A fresh searcher from the job alone, so the same job gives the
    same answer in any process."""
    t0, cpu = time.perf_counter(), time.process_time()
    agent = MCTSAgent(**job["config"])
    agent.rng.setstate(job["state"])
    deadline = t0 + job["seconds"] if job["seconds"] else None
    stats, _ = agent.root_stats(job["obs"], job["options"], deadline)
    return stats, agent.last_iterations, time.process_time() - cpu, agent.rng.getstate()


def _worker_main(conn):
    """A worker process: serves searches until it is sent None (or its parent goes)."""
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            out = ("ok", worker_search(job))
        except Exception as e:  # the parent raises it
            out = ("error", f"{type(e).__name__}: {e}")
        try:
            conn.send(out)
        except (EOFError, OSError):
            return


class WorkerPool:
    """N worker processes started once (spawned: safe in a threaded parent) and reused by every
    search of this process; worker k runs search k of each decision."""

    def __init__(self, size):
        ctx = mp.get_context("spawn")
        self.size = size
        self.lock = threading.Lock()
        self.conns, self.procs = [], []
        for k in range(size):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, args=(child,), daemon=True,
                               name=f"cyclades-mcts-worker-{k}")
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def alive(self) -> bool:
        return all(p.is_alive() for p in self.procs)

    def search(self, jobs) -> list:
        """Job k to worker k; their answers in order."""
        with self.lock:
            for conn, job in zip(self.conns, jobs):
                conn.send(job)
            out = [conn.recv() for conn in self.conns]
        for status, value in out:
            if status != "ok":
                raise RuntimeError(f"an mcts worker failed: {value}")
        return [value for _, value in out]

    def close(self):
        for conn in self.conns:
            try:
                conn.send(None)
                conn.close()
            except (OSError, ValueError):
                pass
        for p in self.procs:
            p.join(timeout=2)
            if p.is_alive():
                p.terminate()


_POOLS: dict = {}
_POOLS_LOCK = threading.Lock()


def worker_pool(size):
    """The persistent pool of `size` workers of this process (started on first use); None if
    processes cannot be started here (then the searches run in this process)."""
    if not can_have_children():
        return None
    with _POOLS_LOCK:
        pool = _POOLS.get(size)
        if pool is not None and pool.alive():
            return pool
        if pool is not None:
            pool.close()
        try:
            pool = WorkerPool(size)
        except (OSError, RuntimeError, AssertionError):
            return None
        _POOLS[size] = pool
        return pool


def drop_pool(size):
    with _POOLS_LOCK:
        pool = _POOLS.pop(size, None)
    if pool is not None:
        pool.close()


def shutdown_workers():
    """Stop the worker processes of this process (done at exit too)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()


atexit.register(shutdown_workers)
