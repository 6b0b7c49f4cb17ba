"""The Game: a board, a ruleset and a state, and the one way to change it: `apply`.

Everything a player chooses is one of `legal_actions()` for the player the
engine waits on (`to_move`); automatic steps (income, dice, refills) run
inside `apply` and come back as events.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..content.rulesets import RULESETS
from . import cycle, ops
from .actions import Action
from .board import Board
from .formats import FORMAT, READABLE_FORMATS, upgrade_game_json, upgrade_record  # noqa: F401
from .frames import HANDLERS
from .plugins import register_all
from .queries import metropolis_counts
from .setup import new_state, placement_shortfall, share_purses, start_placement, team_layout  # noqa: F401  (re-exported)

if TYPE_CHECKING:
    from ..content.rulesets import Ruleset
    from .setup import PlaceFrame
    from .state import State

# Every rule module and card fills the tables of engine/hooks.py: engine/plugins.py lists them.
register_all()

# FORMAT (engine/formats.py): what to_json, record and state_dict write; READABLE_FORMATS: what
# from_json, from_record and from_scenario read (an older format through its migration).


class IllegalAction(Exception):
    """An action the engine did not offer; the game is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Game:
    __slots__ = ("board", "rules", "state", "events", "options", "max_cycles", "teams", "goal", "_legal", "_hist")
    board: Board             # the board
    rules: Ruleset           # the ruleset (content/rulesets.py)
    state: State             # the state: plain data (engine/state.py)
    events: list[dict]       # the events of the last apply
    options: dict            # how the game was made (record(): what replays it)
    max_cycles: int | None
    teams: tuple | None      # each faction's team (R22), or None
    goal: int                # the metropolises that end the game (R21)
    _legal: list | None      # the legal actions, computed once per position
    _hist: Any               # the decisions so far: (action, previous) links

    # --- creation -----------------------------------------------------------------

    @classmethod
    def _blank(cls, board: Board, options: dict) -> Game:
        """A game with its board, ruleset and options, and no state yet."""
        register_all()
        g = cls.__new__(cls)
        g.board = board
        g.rules = RULESETS[options["ruleset"]]
        g.options = options
        g.max_cycles = options.get("max_cycles")
        teams = options.get("teams")
        g.teams = tuple(teams) if teams else None
        g.goal = options.get("team_goal") or g.rules.metropolises_to_win
        g.events = []
        g._legal = None
        g._hist = None
        g.state = None  # type: ignore[assignment]  # set by the caller
        return g

    @classmethod
    def new(cls, players: int = 3, ruleset: str = "legendary", seed: int = 0,
            board: str | dict | Board = "random", maelstrom: bool = True,
            max_cycles: int | None = None, teams: bool = False, team_goal: int = 3) -> Game:
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}")
        r = RULESETS[ruleset]
        team_of = team_layout(players, teams, r)
        if team_goal not in (3, 4):
            raise ValueError("the team goal is 3 or 4 metropolises")
        factions = len(team_of) if team_of else players
        # The board is assembled from the game's own generator (R4): seed it first.
        from .rng import Rng
        rng = Rng(seed)
        if isinstance(board, Board):
            b = board
        elif r.board and board in ("random", "recommended", r.board):
            b = Board.for_players(players, rng, kind=r.board)  # a fixed board (classic, R8)
        elif board in ("random", "recommended"):
            b = Board.for_players(players, rng, kind=board)
        else:
            b = Board.from_spec(board)  # type: ignore[arg-type]  # a spec dict (docs/scenarios.md)
        # `board` keeps the caller's argument so that a replay assembles the same
        # board from the same generator; `board_spec` rebuilds it directly.
        options = {"players": players, "ruleset": ruleset, "seed": seed,
                   "maelstrom": maelstrom, "max_cycles": max_cycles,
                   "board": board if isinstance(board, str) else b.spec, "board_spec": b.spec}
        if team_of:
            options.update(teams=list(team_of), team_goal=team_goal)
        g = cls._blank(b, options)
        new_state(g, factions, rng.s, maelstrom)
        if team_of:
            share_purses(g)
        start_placement(g)
        shortfall = placement_shortfall(g)
        if shortfall:
            raise ValueError(f"this board cannot seat {players} players: {shortfall}")
        g._settle()
        g.events = []
        return g

    # --- the public API ---------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        s = self.state
        if s.over or not s.stack:
            return None
        return s.stack[-1]["player"]

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def phase(self) -> str:
        return self.state.phase

    def legal_actions(self) -> list:
        if self._legal is None:
            s = self.state
            if s.over or not s.stack:
                self._legal = []
            else:
                f = s.stack[-1]
                self._legal = HANDLERS[f["kind"]].legal(self, f)
        return list(self._legal)  # a copy: callers may shuffle or sort it

    def apply(self, action: Action | dict) -> list[dict]:
        """Apply one legal action; return the events it caused (engine/events.py declares
        them; docs/events.md). An illegal one raises IllegalAction and changes nothing."""
        if isinstance(action, dict):
            action = Action.from_json(action)
        if self.state.over:
            raise IllegalAction("the game is over")
        if self._legal is None:
            self.legal_actions()
        if action not in self._legal:  # type: ignore[operator]  # computed just above
            raise IllegalAction(self._why_illegal(action))
        s = self.state
        f = s.stack[-1]
        self.events = []
        HANDLERS[f["kind"]].apply(self, f, action)
        self._settle()
        s.version += 1
        self._legal = None
        self._hist = (action, self._hist)
        return self.events

    def _why_illegal(self, action: Action) -> str:
        if not isinstance(action, Action):
            return f"not an action: {action!r}"
        # In the rulebook's words, for the people the command line and the server show it to:
        # "'Offer 3 GP to Zeus' cannot be played now: Player 2 is placing their starting units
        # (first round): choose a free land area for a Control token (for example: ...)".
        from .wording import illegal_text
        return illegal_text(self, action)

    def _settle(self):
        """Run automatic steps until a decision is pending or the game is over."""
        s = self.state
        while not s.over:
            if not s.stack:
                cycle.advance(self)
                continue
            f = s.stack[-1]
            if not HANDLERS[f["kind"]].auto(self, f):
                break

    def result(self) -> dict:
        """Winners (R21: most metropolises, then most GP, else shared) and per-player figures.
        In team play a team's metropolises and purse are counted together and the team wins."""
        s = self.state
        metros = metropolis_counts(self)
        alive = [p for p in range(s.n) if not s.eliminated[p]]
        score = {p: (self.counted_metropolises(self.side_metropolises(p, metros)), self.purse(p)) for p in alive}
        best = max(score.values(), default=(0, 0))
        winners = [p for p in alive if score[p] == best] if s.over else []
        if self.teams and s.over:  # the whole team wins, eliminated teammates included
            won = {self.teams[p] for p in winners}
            winners = [p for p in range(s.n) if self.teams[p] in won]
        out = {"over": s.over, "winners": winners, "metropolises": metros,
               "gp": [self.purse(p) for p in range(s.n)],  # team play: each the team's purse
               "cycles": s.cycle, "cycle_limit": s.cycle_limit_hit, "eliminated": list(s.eliminated)}
        if self.teams:
            out["teams"] = list(self.teams)
        return out

    def counted_metropolises(self, metropolises: int) -> int:
        """Metropolises as the winner is decided (R21). Classic: whoever reached the goal wins,
        ties among them on GP, so a metropolis past the goal does not count."""
        return min(metropolises, self.goal) if self.rules.score_caps_at_goal else metropolises

    def side_metropolises(self, p: int, metros: list | None = None) -> int:
        """Metropolises of p, or of p's team in team play (R21, R22)."""
        if metros is None:
            metros = metropolis_counts(self)
        if not self.teams:
            return metros[p]
        return sum(metros[q] for q in self.teammates(p, include_self=True))

    def goal_reached(self) -> bool:
        """R21: someone (team play: a team) controls the metropolises needed to end the game."""
        s = self.state
        metros = metropolis_counts(self)
        return any(self.side_metropolises(p, metros) >= self.goal
                   for p in range(s.n) if not s.eliminated[p])

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.board, g.rules, g.options, g.max_cycles = self.board, self.rules, self.options, self.max_cycles
        g.teams, g.goal = self.teams, self.goal
        g.state = self.state.copy()
        g.events = []
        g._legal = self._legal  # never mutated: replaced on apply, copied when handed out
        g._hist = self._hist
        return g

    @property
    def history(self) -> list:
        out, node = [], self._hist
        while node is not None:
            out.append(node[0])
            node = node[1]
        return out[::-1]

    # --- serialization ------------------------------------------------------------------

    def to_json(self, history: bool = False) -> str:
        d = {"format": FORMAT, "options": self.options, "state": self.state.to_dict()}
        if history:
            d["history"] = [a.to_json() for a in self.history]
        return json.dumps(d, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes | dict) -> Game:
        from .state import State
        d = upgrade_game_json(json.loads(text) if isinstance(text, (str, bytes)) else text)
        o = d["options"]
        g = cls._blank(Board.from_spec(o["board_spec"]), o)
        g.state = State.from_dict(d["state"])
        for a in d.get("history", ()):
            g._hist = (Action.from_json(a), g._hist)
        return g

    def record(self) -> dict:
        """What replays this game exactly: its options and the decisions made (R4)."""
        return {"format": FORMAT, "options": self.options,
                "actions": [a.to_json() for a in self.history]}

    @classmethod
    def from_record(cls, record: dict, upto: int | None = None,
                    on_events: Callable[[Action, list[dict]], Any] | None = None) -> Game:
        """Replay a record; `on_events(action, events)` sees what each decision caused."""
        record = upgrade_record(record)
        o = record["options"]
        if "scenario" in o:
            g = cls.from_scenario(o["scenario"])
        else:
            g = cls.new(players=o["players"], ruleset=o["ruleset"], seed=o["seed"],
                        board=o["board"] if isinstance(o["board"], str) else Board.from_spec(o["board"]),
                        maelstrom=o["maelstrom"], max_cycles=o["max_cycles"],
                        teams=bool(o.get("teams")), team_goal=o.get("team_goal", 3))
        for i, a in enumerate(record["actions"]):
            if upto is not None and i >= upto:
                break
            action = Action.from_json(a)
            events = g.apply(action)
            if on_events:
                on_events(action, events)
        return g

    def observe(self, player: int) -> Any:
        """What `player` knows, for agents: view, legal actions, determinize(rng) (R24)."""
        from .observation import Observation
        return Observation(self, player)

    def view(self, player: int | None = None) -> dict:
        from .view import view
        return view(self, player)

    @classmethod
    def from_scenario(cls, data_or_path: Any) -> Game:
        from .scenario import load_scenario
        return load_scenario(data_or_path, cls)

    def state_dict(self) -> dict:
        """The position as a scenario (docs/scenarios.md): `Game.from_scenario(state_dict())`
        is the same position (state, generator, views, legal actions, future)."""
        from .scenario_export import state_dict
        return state_dict(self)

    # --- services for the rules (team play overrides purse and friendship) ---------------------

    def emit(self, kind: str, **data: Any) -> None:
        # ops.emit, inlined: a second call with the keywords repacked cost as much as the rest.
        if self.events is not None:
            data["type"] = kind
            self.events.append(data)

    # A team's purse is kept with its first member (R22): these are the only ways in and out.

    def purse_holder(self, p: int) -> int:
        return self.teams.index(self.teams[p]) if self.teams else p

    def purse(self, p: int) -> int:
        return self.state.gp[self.purse_holder(p)]

    def committed(self, p: int, displaced: str | None = None) -> int:
        """GP a teammate's current offerings already need from the shared purse (R11), less
        the offering on the god `displaced`, which an outbid takes back (R29)."""
        if not self.teams:
            return 0
        from .offerings import cost_of
        return sum(cost_of(self, q, amount) for god, (q, amount) in self.state.bids.items()
                   if q != p and self.teams[q] == self.teams[p] and god != displaced)

    def gain(self, p: int, n: int) -> None:
        ops.gain_gp(self, self.purse_holder(p), n)

    def pay(self, p: int, n: int) -> None:
        if n:
            h = self.purse_holder(p)
            if n > self.state.gp[h]:
                raise AssertionError(f"player {p} cannot pay {n} GP")  # the legal list prevents it
            self.state.gp[h] -= n

    def teammates(self, p: int, include_self: bool = False) -> list:
        if not self.teams:
            return [p] if include_self else []
        return [q for q in range(len(self.teams))
                if self.teams[q] == self.teams[p] and (include_self or q != p)]

    def friends(self, p: int, q: int) -> bool:
        return p == q or (self.teams is not None and q >= 0 and self.teams[p] == self.teams[q])

    def may_attack(self, p: int, q: int, area: int) -> bool:
        """R22: teammates never fight each other."""
        return not self.friends(p, q)

    def may_stop(self, p: int, area: int) -> bool:
        """R22: a player may pass through a teammate's areas but never stop there."""
        q = self.state.ctrl[area]
        return q == p or not self.friends(p, q)

    def allowed_start(self, p: int, area: int, frame: PlaceFrame) -> bool:
        """Team play: teammates may not start on the same island in the first round."""
        if not self.teams or frame["round"] != 1:
            return True
        island = self.board.island[area]
        return not any(self.state.ctrl[a] == q for q in self.teammates(p) for a in self.board.islands[island])

    def sees_purse(self, viewer: int | None, p: int) -> bool:
        """R24: a purse is hidden from other players; teammates share theirs (R22)."""
        return viewer is not None and self.friends(viewer, p)

    def __repr__(self):
        return (f"<Game {self.options['ruleset']} players={self.state.n} cycle={self.state.cycle} "
                f"phase={self.state.phase} to_move={self.to_move}>")
