"""The Game: a board, a ruleset and a state, and the one way to change it: `apply`.

Everything a player chooses is one of `legal_actions()` for the player the
engine waits on (`to_move`); automatic steps (income, dice, refills) run
inside `apply` and come back as events.
"""
import json

from ..content.rulesets import RULESETS
from . import cycle, ops
from .actions import Action
from .board import Board
from .frames import HANDLERS
from .queries import metropolises_of
from .setup import new_state, start_placement
from . import battle, creatures, heroes, maintenance, metropolis, moves, offerings, turns  # noqa: F401  (register frames)
from .cards import creatures as _creature_cards  # noqa: F401  (register creature effects)

FORMAT = 1


class IllegalAction(Exception):
    """An action the engine did not offer; the game is unchanged."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Game:
    __slots__ = ("b", "r", "s", "ev", "options", "max_cycles", "_legal", "_hist")

    # --- creation -----------------------------------------------------------------

    @classmethod
    def new(cls, players=3, ruleset="legendary", seed=0, board="random", maelstrom=True,
            max_cycles=None):
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}")
        if not 3 <= players <= 5:
            raise ValueError("the Legendary game without teams is for 3 to 5 players")
        g = cls.__new__(cls)
        g.r = RULESETS[ruleset]
        g.ev = []
        g.max_cycles = max_cycles
        g._legal = None
        g._hist = None
        g.s = None
        # The board is assembled from the game's own generator (R4): seed it first.
        from .rng import Rng
        rng = Rng(seed)
        if isinstance(board, Board):
            g.b = board
        elif board in ("random", "recommended"):
            g.b = Board.for_players(players, rng, kind=board)
        else:
            g.b = Board.from_spec(board)
        # `board` keeps the caller's argument so that a replay assembles the same
        # board from the same generator; `board_spec` rebuilds it directly.
        g.options = {"players": players, "ruleset": ruleset, "seed": seed,
                     "maelstrom": maelstrom, "max_cycles": max_cycles,
                     "board": board if isinstance(board, str) else g.b.spec, "board_spec": g.b.spec}
        new_state(g, players, rng.s, maelstrom)
        start_placement(g)
        g._settle()
        g.ev = []
        return g

    # --- the public API ---------------------------------------------------------------

    @property
    def to_move(self):
        s = self.s
        if s.over or not s.stack:
            return None
        return s.stack[-1]["p"]

    @property
    def is_over(self) -> bool:
        return self.s.over

    @property
    def phase(self) -> str:
        return self.s.phase

    @property
    def board(self) -> Board:
        return self.b

    def legal_actions(self) -> list:
        if self._legal is None:
            s = self.s
            if s.over or not s.stack:
                self._legal = []
            else:
                f = s.stack[-1]
                self._legal = HANDLERS[f["k"]].legal(self, f)
        return list(self._legal)  # a copy: callers may shuffle or sort it

    def apply(self, action) -> list:
        """Apply one legal action; return the events it caused. An illegal one raises
        IllegalAction and changes nothing."""
        if isinstance(action, dict):
            action = Action.from_json(action)
        if self.s.over:
            raise IllegalAction("the game is over")
        self.legal_actions()
        if action not in self._legal:
            raise IllegalAction(self._why_illegal(action))
        s = self.s
        f = s.stack[-1]
        self.ev = []
        HANDLERS[f["k"]].apply(self, f, action)
        self._settle()
        s.version += 1
        self._legal = None
        self._hist = (action, self._hist)
        return self.ev

    def _why_illegal(self, action) -> str:
        if not isinstance(action, Action):
            return f"not an action: {action!r}"
        f = self.s.stack[-1]
        kinds = sorted({a.kind for a in self.legal_actions()})
        return (f"'{action}' is not legal now: player {f['p']} is to decide ({f['k']}); "
                f"legal kinds: {', '.join(kinds)}")

    def _settle(self):
        """Run automatic steps until a decision is pending or the game is over."""
        s = self.s
        while not s.over:
            if not s.stack:
                cycle.advance(self)
                continue
            f = s.stack[-1]
            if not HANDLERS[f["k"]].auto(self, f):
                break

    def result(self) -> dict:
        """Winners (R21: most metropolises, then most GP, else shared) and per-player figures."""
        s = self.s
        metros = [metropolises_of(self, p) for p in range(s.n)]
        alive = [p for p in range(s.n) if not s.eliminated[p]]
        best = max(((metros[p], s.gp[p]) for p in alive), default=(0, 0))
        winners = [p for p in alive if (metros[p], s.gp[p]) == best] if s.over else []
        return {"over": s.over, "winners": winners, "metropolises": metros, "gp": list(s.gp),
                "cycles": s.cycle, "cycle_limit": s.cycle_limit_hit, "eliminated": list(s.eliminated)}

    def copy(self) -> "Game":
        g = Game.__new__(Game)
        g.b, g.r, g.options, g.max_cycles = self.b, self.r, self.options, self.max_cycles
        g.s = self.s.copy()
        g.ev = []
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

    def to_json(self, history=False) -> str:
        d = {"format": FORMAT, "options": self.options, "state": self.s.to_dict()}
        if history:
            d["history"] = [a.to_json() for a in self.history]
        return json.dumps(d, separators=(",", ":"))

    @classmethod
    def from_json(cls, text) -> "Game":
        from .state import State
        d = json.loads(text) if isinstance(text, (str, bytes)) else text
        if d.get("format") != FORMAT:
            raise ValueError(f"unsupported game format {d.get('format')!r}")
        o = d["options"]
        g = cls.__new__(cls)
        g.r = RULESETS[o["ruleset"]]
        g.b = Board.from_spec(o["board_spec"])
        g.options = o
        g.max_cycles = o.get("max_cycles")
        g.ev = []
        g._legal = None
        g.s = State.from_dict(d["state"])
        g._hist = None
        for a in d.get("history", ()):
            g._hist = (Action.from_json(a), g._hist)
        return g

    def record(self) -> dict:
        """What replays this game exactly: its options and the decisions made (R4)."""
        return {"format": FORMAT, "options": self.options,
                "actions": [a.to_json() for a in self.history]}

    @classmethod
    def from_record(cls, record, upto=None, on_events=None) -> "Game":
        """Replay a record; `on_events(action, events)` sees what each decision caused."""
        o = record["options"]
        if "scenario" in o:
            g = cls.from_scenario(o["scenario"])
        else:
            g = cls.new(players=o["players"], ruleset=o["ruleset"], seed=o["seed"],
                        board=o["board"] if isinstance(o["board"], str) else Board.from_spec(o["board"]),
                        maelstrom=o["maelstrom"], max_cycles=o["max_cycles"])
        for i, a in enumerate(record["actions"]):
            if upto is not None and i >= upto:
                break
            action = Action.from_json(a)
            events = g.apply(action)
            if on_events:
                on_events(action, events)
        return g

    def view(self, player=None) -> dict:
        from .view import view
        return view(self, player)

    @classmethod
    def from_scenario(cls, data_or_path) -> "Game":
        from .scenario import load_scenario
        return load_scenario(data_or_path)

    # --- services for the rules (team play overrides purse and friendship) ---------------------

    def emit(self, kind, **data):
        ops.emit(self, kind, **data)

    def purse(self, p) -> int:
        return self.s.gp[p]

    def committed(self, p) -> int:
        return 0

    def gain(self, p, n):
        ops.gain_gp(self, p, n)

    def pay(self, p, n):
        if n:
            if n > self.s.gp[p]:
                raise AssertionError(f"player {p} cannot pay {n} GP")  # the legal list prevents it
            self.s.gp[p] -= n

    def may_attack(self, p, q, area) -> bool:
        return True

    def may_stop(self, p, area) -> bool:
        return True

    def allowed_start(self, p, area, frame) -> bool:
        return True

    def sees_purse(self, viewer, p) -> bool:
        """R24: a purse is hidden from other players (team play shares it)."""
        return viewer == p

    def __repr__(self):
        return (f"<Game {self.options['ruleset']} players={self.s.n} cycle={self.s.cycle} "
                f"phase={self.s.phase} to_move={self.to_move}>")
