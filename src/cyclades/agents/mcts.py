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
rollout step).
"""
from __future__ import annotations

import math
import random
import time

from ..engine.actions import Action
from . import evaluation as ev
from .base import Agent, register
from .greedy import Ctx, GreedyPolicy, bid_plan

DEFAULT_ITERATIONS = 100


class Node:
    __slots__ = ("children", "order", "n", "w", "avail")

    def __init__(self, players):
        self.children = {}
        self.order = None
        self.n = 0
        self.w = [0.0] * players
        self.avail = 0


@register("mcts")
class MCTSAgent(Agent):
    """Options: iterations (per decision; the default, 100, when no seconds are given; 0 = no
    limit but time), seconds (per decision; None = no limit but iterations), depth (rollout
    decisions at most), cycles (cycles a rollout looks ahead: 1 = to the end of the current
    one), c (UCB exploration), width (root candidates), widen (progressive widening below)."""

    name = "mcts"

    def __init__(self, seed=None, iterations=None, seconds=None, depth=150, cycles=1, c=0.25,
                 width=8, widen=0.5):
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = int(iterations) if iterations else 0
        self.seconds = float(seconds) if seconds else None
        if not self.iterations and not self.seconds:
            raise ValueError("mcts needs a budget: iterations or seconds per decision")
        self.depth = int(depth)
        self.cycles = int(cycles)
        self.c = float(c)
        self.width = int(width)
        self.widen = float(widen)
        self.rng = random.Random(seed)
        self.policy = GreedyPolicy()  # ranks the actions of the tree's nodes
        self.rollout_policy = GreedyPolicy(budget=12, depth=1)  # cheaper: plays the rollouts
        self.last_iterations = 0   # for tests and statistics: iterations of the last search
        self.last_seconds = 0.0
        # The subtree below the action just played, kept for the player's next decision if it
        # comes right after (the steps of a move, a turn's actions): (node, version, player).
        self._next = None

    # -- the interface -------------------------------------------------------------------

    def choose(self, obs):
        t0 = time.perf_counter()
        legal = obs.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or waits on someone else")
        options = [a for a in legal if a.kind != "cancel"] or legal
        if len(options) == 1:
            self.last_iterations, self.last_seconds = 0, time.perf_counter() - t0
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
        p = obs.player
        first = ev.sample(obs, self.rng)
        n = first.s.n
        root = self._reused(obs) or Node(n)
        root.order = self.candidates(first, p, options, root=True)
        if len(root.order) == 1:
            return root.order[0]
        # A kept subtree has searched this decision already: top it up to the budget (and at
        # least a quarter of it, for the new candidates of the root).
        budget = max(self.iterations - root.n, self.iterations // 4) if self.iterations else 0
        it = 0
        while True:
            if budget and it >= budget:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            g = first if it == 0 else ev.sample(obs, self.rng)
            self.iterate(root, g, n, deadline)
            it += 1
        self.last_iterations = it
        best, key = None, None
        for a in root.order:
            child = root.children.get((p, a))
            if child is None or not child.n:
                continue
            k = (child.n, child.w[p] / child.n)
            if key is None or k > key:
                best, key = a, k
        if best is None:
            return root.order[0]
        self._next = (root.children[(p, best)], obs.view["version"] + 1, p)
        return best

    def iterate(self, root, g, n, deadline):
        node = root
        path = [root]
        start_cycle = g.s.cycle
        expanded = False  # one new node per iteration, then the rollout
        while not g.is_over:
            legal = g.legal_actions()
            opts = [a for a in legal if a.kind != "cancel"] or legal
            if len(opts) == 1:  # forced: no node (the agent takes these without search)
                g.apply(opts[0])
                continue
            q = g.to_move
            if node.order is None:
                node.order = self.candidates(g, q, opts)
            legal_set = set(legal)
            allowed = self.width if node is root else 1 + int(self.widen * math.sqrt(node.n))
            cands = []
            for a in node.order:
                if a in legal_set:
                    cands.append(a)
                    if len(cands) >= allowed:
                        break
            if not cands:  # this sample's actions differ (another purse): rank them too
                extra = [a for a in self.candidates(g, q, opts) if a not in set(node.order)]
                node.order = node.order + extra
                cands = extra[:allowed] or opts[:1]
            chosen, child = None, None
            for a in cands:
                c = node.children.get((q, a))
                if c is None:
                    chosen = a
                    c = Node(n)
                    node.children[(q, a)] = c
                    child = c
                    expanded = True
                    break
            if chosen is None:
                chosen, child = self.select(node, q, cands)
            for a in cands:
                c = node.children.get((q, a))
                if c is not None:
                    c.avail += 1
            g.apply(chosen)
            node = child
            path.append(node)
            if expanded:
                break
        reward = self.rollout(g, start_cycle, deadline)
        for nd in path:
            nd.n += 1
            w = nd.w
            for i in range(n):
                w[i] += reward[i]

    def select(self, node, q, cands):
        best, best_child, top = None, None, None
        c = self.c
        for a in cands:
            ch = node.children[(q, a)]
            u = ch.w[q] / ch.n + c * math.sqrt(math.log(max(ch.avail, 1) + 1) / ch.n)
            if top is None or u > top:
                best, best_child, top = a, ch, u
        return best, best_child

    def rollout(self, g, start_cycle, deadline):
        policy = self.rollout_policy
        end = start_cycle + self.cycles
        steps = 0
        while not g.is_over and steps < self.depth and g.s.cycle < end:
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            g.apply(policy.decide(g, g.to_move, legal))
            steps += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self.rewards(g)

    @staticmethod
    def rewards(g) -> list:
        """The reward of each faction for a position: the result if the game is over, else the
        heuristic's win chances; in team play each member gets its team's (evaluation.win_chances)."""
        return ev.win_chances(g)

    # -- which actions to consider, best first ---------------------------------------------

    def candidates(self, g, p, options, root=False) -> list:
        # The root is ranked with greedy's full look-ahead, the nodes below more cheaply.
        policy = self.policy if root else self.rollout_policy
        if g.s.stack and g.s.stack[-1]["k"] == "offer":
            return self.bid_candidates(g, p, options, policy)
        return policy.ranked(g, p, options)

    def bid_candidates(self, g, p, options, policy) -> list:
        """Offerings: greedy's bid first, then for each god a few amounts around what it is
        worth and the lowest, and Apollo."""
        # R29 allows outbidding a teammate; the search does not consider it if it has a choice.
        partner = {god for god, (q, _) in g.s.bids.items() if q != p and g.friends(p, q)}
        if partner:
            options = [a for a in options if not (a.kind == "bid" and a.what in partner)] or options
        ranked = policy.ranked(g, p, options)
        have = set(options)
        plan = bid_plan(Ctx(g, p), options)
        out = [ranked[0]]
        extra = []
        for a in ranked:
            if a.kind == "apollo":
                extra.append(a)
        lows = {}
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
