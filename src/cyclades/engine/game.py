"""The Game: the engine's public face. A board, a ruleset and a state, and the one way to change
them: `apply`.

Everything a player chooses is one of `legal_actions()` for the player the engine waits on
(`to_move`); automatic steps (income, refills, the battle's dice) run inside `apply` and come
back as events. With `chance="explicit"` the game also waits on chance (`to_move == CHANCE`):
its legal actions are then the outcomes of a die or a card drawn (`chance_outcomes()` gives
their probabilities), which the caller applies.

The stable API (docs/api.md):

- making games: `Game.new(...)` (`cyclades.new_game`), `from_scenario`, `from_record`,
  `from_json`;
- playing: `to_move`, `is_over`, `phase`, `legal_actions()`, `apply(action)`, `events`,
  `chance_outcomes()`, `sample_chance()`, `result()`, `copy()`, `history`;
- reading: `view(player)`, `observe(player)`, `state_dict()`, `to_json()`, `record()`, and
  `board`, `rules`, `state` (plain data), `options`, `teams`, `goal`, `max_cycles`, `chance`;
- team play and the end of the game (R21, R22), for agents: `purse`, `purse_holder`, `friends`,
  `teammates`, `sees_purse`, `committed`, `side_metropolises`, `counted_metropolises`.

The rules work on the `Context` below (engine/context.py) and never see this module.
"""
from __future__ import annotations

import json
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..content.rulesets import RULESETS
from . import chance as _chance
from . import play, scoring, teams
from .actions import Action
from .board import Board
from .context import EXPLICIT, SEEDED, Context
from .formats import FORMAT, READABLE_FORMATS, upgrade_game_json, upgrade_record
from .frames import HANDLERS
from .observation import Observation
from .offerings import committed
from .plugins import register_all
from .rng import Rng
from .scenario import load_scenario
from .scenario_export import state_dict
from .setup import new_state, placement_shortfall, start_placement
from .state import State
from .teams import share_purses, team_layout
from .view import view
from .wording import illegal_text

if TYPE_CHECKING:
    from typing import Self

# Every rule module and card fills its hooks as it loads: engine/plugins.py lists them.
register_all()

__all__ = ["CHANCE", "FORMAT", "READABLE_FORMATS", "Game", "IllegalAction", "team_layout"]

CHANCE = _chance.CHANCE
CHANCE_MODES = (SEEDED, EXPLICIT)


class IllegalAction(Exception):
    """An action the engine did not offer; the game is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Game(Context):
    """A game of Cyclades: its board, ruleset and state, and the decisions it waits on. The
    stable API is listed in this module's docstring; everything else is private."""

    __slots__ = ("_hist",)
    _hist: Any  # the decisions so far: (action, previous) links

    # --- creation -----------------------------------------------------------------

    @classmethod
    def _blank(cls, board: Board, options: dict[str, Any]) -> Self:
        """A game with its board, ruleset and options, and no state yet."""
        g = super()._blank(board, options)
        g._hist = None
        return g

    @classmethod
    def new(cls, players: int = 3, ruleset: str = "legendary", seed: int = 0,
            board: str | dict[str, Any] | Board = "random", maelstrom: bool = True,
            max_cycles: int | None = None, teams: bool = False, team_goal: int = 3,
            chance: str = SEEDED) -> Self:
        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}")
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance is one of {CHANCE_MODES}, not {chance!r}")
        players, seed = _count("players", players), _count("seed", seed)
        if max_cycles is not None:
            max_cycles = _count("max_cycles", max_cycles, least=1)
        r = RULESETS[ruleset]
        team_of = team_layout(players, teams, r)
        if team_goal not in (3, 4):
            raise ValueError("the team goal is 3 or 4 metropolises")
        factions = len(team_of) if team_of else players
        # The board is assembled from the game's own generator (R4): seed it first.
        rng = Rng(seed)
        if isinstance(board, Board):
            b = board
        elif r.board and board in ("random", "recommended", r.board):
            b = Board.for_players(players, rng, kind=r.board)  # a fixed board (classic, R8)
        elif isinstance(board, str) and board in ("random", "recommended"):
            b = Board.for_players(players, rng, kind=board)
        else:
            b = Board.from_spec(board)  # type: ignore[arg-type]  # a spec dict (docs/scenarios.md)
        # `board` keeps the caller's argument so that a replay assembles the same
        # board from the same generator; `board_spec` rebuilds it directly.
        options: dict[str, Any] = {
            "players": players, "ruleset": ruleset, "seed": seed, "maelstrom": maelstrom,
            "max_cycles": max_cycles, "board": board if isinstance(board, str) else b.spec,
            "board_spec": b.spec}
        if team_of:
            options.update(teams=list(team_of), team_goal=team_goal)
        if chance != SEEDED:
            options["chance"] = chance
        g = cls._blank(b, options)
        g.state = new_state(g, factions, rng.s, maelstrom)
        if team_of:
            share_purses(g)
        start_placement(g)
        shortfall = placement_shortfall(g)
        if shortfall:
            raise ValueError(f"this board cannot seat {players} players: {shortfall}")
        play.settle(g)
        g.events = []
        return g

    # --- playing ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The player the game waits on; CHANCE when it waits on chance; None once it is over."""
        return play.to_move(self)

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def phase(self) -> str:
        return self.state.phase

    legal_actions = play.legal_actions

    def apply(self, action: Action | dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one legal action; return the events it caused (engine/events.py declares
        them; docs/events.md). An illegal one raises IllegalAction and changes nothing."""
        if isinstance(action, dict):
            action = Action.from_json(action)
        if self.state.over:
            raise IllegalAction("the game is over")
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = self._legal
        if action not in legal:  # type: ignore[operator]  # computed just above
            raise IllegalAction(self._why_illegal(action))
        s = self.state
        f = s.stack[-1]
        self.events = []
        HANDLERS[f["kind"]].apply(self, f, action)
        play.settle(self)
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
        return illegal_text(self, action)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance decision (`to_move == CHANCE`): each outcome with its probability."""
        f = self._chance_frame()
        return _chance.outcomes(self, f)

    def sample_chance(self) -> Action:
        """At a chance decision: the outcome the seeded game would have, drawn from the game's own
        generator (which moves on, as in the seeded game); `apply` it to play as the seeded game
        plays."""
        return _chance.sample(self, self._chance_frame())

    def _chance_frame(self) -> Any:
        s = self.state
        if s.over or not s.stack or s.stack[-1]["kind"] != "chance":
            raise IllegalAction("the game is not waiting on chance")
        return s.stack[-1]

    def result(self) -> dict[str, Any]:
        """Winners (R21: most metropolises, then most GP, else shared) and per-player figures.
        In team play a team's metropolises and purse are counted together and the team wins."""
        return scoring.result(self)

    def copy(self) -> Self:
        g = self.__class__.__new__(self.__class__)
        g.board, g.rules, g.options, g.max_cycles = self.board, self.rules, self.options, self.max_cycles
        g.teams, g.goal, g.chance = self.teams, self.goal, self.chance
        g.state = self.state.copy()
        g.events = []
        g._legal = self._legal  # never mutated: replaced on apply, copied when handed out
        g._hist = self._hist
        return g

    @property
    def history(self) -> list[Action]:
        out, node = [], self._hist
        while node is not None:
            out.append(node[0])
            node = node[1]
        return out[::-1]

    def log(self, lang: str | None = None, names: list[str] | None = None, full: bool = False) -> list[str]:
        """The game so far in the rulebook's words, one sentence per event from the first decision
        on (the record replayed), in `lang` ("en", "fr"; None: the current language, English
        unless set: content/i18n.py). `names` replaces "Player 1".."Player N"; `full` keeps the
        events that only repeat the sentence before them (engine/log.py Narrator)."""
        from ..content.i18n import language
        from .log import Narrator
        g = self.from_record(self.record(), upto=0)
        narrator = Narrator(g, names, full=full)
        lines: list[str] = []
        with language(lang):
            for action in self.history:
                lines.extend(narrator.lines(g.apply(action)))
        return lines

    # --- team play and the end of the game, for agents (engine/teams.py, engine/scoring.py) ---

    purse = teams.purse
    purse_holder = teams.purse_holder
    friends = teams.friends
    teammates = teams.teammates
    sees_purse = teams.sees_purse
    committed = committed
    side_metropolises = scoring.side_metropolises
    counted_metropolises = scoring.counted_metropolises

    # --- reading and saving ------------------------------------------------------------------

    def observe(self, player: int) -> Observation[Self]:
        """What `player` knows, for agents: view, legal actions, determinize(rng) (R24)."""
        return Observation(self, player)

    def view(self, player: int | None = None) -> dict[str, Any]:
        return view(self, player)

    def state_dict(self) -> dict[str, Any]:
        """The position as a scenario (docs/scenarios.md): `Game.from_scenario(state_dict())`
        is the same position (state, generator, views, legal actions, future)."""
        return state_dict(self)

    def to_json(self, history: bool = False) -> str:
        d: dict[str, Any] = {"format": FORMAT, "options": self.options, "state": self.state.to_dict()}
        if history:
            d["history"] = [a.to_json() for a in self.history]
        return json.dumps(d, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes | dict[str, Any]) -> Self:
        d = upgrade_game_json(json.loads(text) if isinstance(text, (str, bytes)) else text)
        o = d["options"]
        g = cls._blank(Board.from_spec(o["board_spec"]), o)
        g.state = State.from_dict(d["state"])
        for a in d.get("history", ()):
            g._hist = (Action.from_json(a), g._hist)
        return g

    def record(self) -> dict[str, Any]:
        """What replays this game exactly: its options and the decisions made (R4)."""
        return {"format": FORMAT, "options": self.options,
                "actions": [a.to_json() for a in self.history]}

    @classmethod
    def from_record(cls, record: dict[str, Any], upto: int | None = None,
                    on_events: Callable[[Action, list[dict[str, Any]]], Any] | None = None) -> Self:
        """Replay a record; `on_events(action, events)` sees what each decision caused."""
        record = upgrade_record(record)
        o = record["options"]
        if "scenario" in o:
            g = cls.from_scenario(o["scenario"])
        else:
            g = cls.new(players=o["players"], ruleset=o["ruleset"], seed=o["seed"],
                        board=o["board"] if isinstance(o["board"], str) else Board.from_spec(o["board"]),
                        maelstrom=o["maelstrom"], max_cycles=o["max_cycles"],
                        teams=bool(o.get("teams")), team_goal=o.get("team_goal", 3),
                        chance=o.get("chance", SEEDED))
        for i, a in enumerate(record["actions"]):
            if upto is not None and i >= upto:
                break
            action = Action.from_json(a)
            events = g.apply(action)
            if on_events:
                on_events(action, events)
        return g

    @classmethod
    def from_scenario(cls, data_or_path: Any) -> Self:
        return load_scenario(data_or_path, cls)

    def __repr__(self) -> str:
        return (f"<Game {self.options['ruleset']} players={self.state.n} cycle={self.state.cycle} "
                f"phase={self.state.phase} to_move={self.to_move}>")


def _count(name: str, value: Any, least: int | None = None) -> int:
    """A whole number given to `Game.new` as a plain int (a numpy integer is one too): 2.5, "3",
    None or True would fail deep in the set-up, be written into the record as they are, or
    never end a game."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} is a whole number, not {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{name} is {least} or more, not {value}")
    return int(value)
