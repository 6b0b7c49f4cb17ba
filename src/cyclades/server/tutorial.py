"""The guided first game, and a help for every game: "does this choice end my turn?".

A lesson (`cyclades/content/tutorial/*.yaml`) is a scenario position for
`Game.from_scenario` (the person at seat 0), what the other seats do (`opponents`: actions
they prefer whenever one is legal; otherwise they end their turn or take their first
choice, so they never get in the way), and the steps: a sentence and the one legal action
expected. The server plays a lesson as an ordinary game; how far the person has come is
worked out from the game's own decisions, so a reload or a server restart loses nothing.

`GET /tutorial` is the page that lists the lessons (the lobby's "Learn to play"). The API:
- `GET  /api/tutorial`: the lessons `{"lessons": [{"id", "title", "steps"}], "steps": total}`.
- `POST /api/tutorial` `{"lesson": id, "bot_delay": s?}`: a new game of that lesson:
  `{"game_id", "token", "url", "lesson"}`.
- `GET  /api/tutorial/games/{id}?token=`: the lesson of a game and the person's progress:
  `{"tutorial": null}` for a game that is no lesson, else `{"tutorial": {"id", "title",
  "intro", "done", "steps": [{"say", "expect"}], "step": k, "complete": bool, "off_script":
  bool, "next": id or null, "number", "count"}}`.
- `POST /api/games/{id}/ends-turn` `{"token", "version", "action"}`: `{"ends_turn": bool}`:
  whether that legal action hands the decision to someone else (the client asks "End your
  turn?" first when the person wants it). Worked out on a copy; an action whose outcome
  depends on dice or hidden cards says false, so that nothing hidden leaks (R24).
"""
from __future__ import annotations

import asyncio
import secrets
import time
from functools import lru_cache
from pathlib import Path

import yaml
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr

from ..agents.base import Agent
from ..content.i18n import N_, _
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.queries import controlled_lands
from ..engine.undo import unknowns
from .errors import Refused
from .pages import page
from .sessions import Session

LESSONS_DIR = Path(__file__).resolve().parent.parent / "content" / "tutorial"
HUMAN = 0
ACTION_KEYS = ("kind", "what", "where", "n")
# The seats' names, by the colours the board draws them in (the lessons' words name the bots by
# their colour): given in the learner's language, as the lobby names its seats.
SEAT_NAMES = (N_("Red"), N_("Yellow bot"), N_("Green bot"), N_("Black bot"), N_("Purple bot"), N_("Brown bot"))


# --- lessons -------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def lessons() -> tuple:
    """Every lesson, in order (the files are numbered)."""
    out = []
    for path in sorted(LESSONS_DIR.glob("*.yaml")):
        d = yaml.safe_load(path.read_text())
        d["file"] = path.name
        out.append(d)
    return tuple(out)


def lesson(lesson_id: str) -> dict:
    for d in lessons():
        if d["id"] == lesson_id:
            return d
    raise KeyError(lesson_id)


def next_lesson(lesson_id: str):
    ids = [d["id"] for d in lessons()]
    i = ids.index(lesson_id)
    return ids[i + 1] if i + 1 < len(ids) else None


def total_steps() -> int:
    return sum(len(d["steps"]) for d in lessons())


def matches(action: Action, expect: dict) -> bool:
    """The action is the expected one: every field the step names is equal."""
    return all(getattr(action, k) == v for k, v in expect.items() if k in ACTION_KEYS)


def new_game(d: dict) -> Game:
    return Game.from_scenario(d["scenario"])


def opponent_choice(d: dict, game: Game, seat: int) -> Action:
    """What a seat other than the person's plays in a lesson: its scripted preference if one is
    legal, else the end of its turn, else its first choice (never a cancel)."""
    legal = game.legal_actions()
    for x in (d.get("opponents") or {}).get(seat, []) or (d.get("opponents") or {}).get(str(seat), []):
        for a in legal:
            if matches(a, x):
                return a
    for a in legal:
        if a.kind == "end_turn":
            return a
    return next((a for a in legal if a.kind != "cancel"), legal[0])


class LessonBot(Agent):
    """The other seats of a lesson (see `opponent_choice`)."""

    name = "lesson"

    def __init__(self, d: dict, seed=None):
        super().__init__(seed)
        self.d = d

    def act(self, game, player):
        if game.to_move != player:
            raise ValueError(f"player {player} is not to move")
        return opponent_choice(self.d, game, player)


def progress(d: dict, game: Game) -> dict:
    """How far the person has come in lesson d, from the game's decisions: replayed from the
    lesson's position, each of the person's decisions that is the step expected moves on, any
    other leaves the script (`off_script`); a `cancel` goes back to the step where that
    sequence of choices began, and back on the script."""
    g = new_game(d)
    steps = d["steps"]
    k, seq_start, off = 0, None, False
    for a in game.history:
        human = g.to_move == HUMAN
        had_cancel = any(x.kind == "cancel" for x in g.legal_actions())
        k_before = k
        if human:
            if a.kind == "cancel" and seq_start is not None:
                k, off = seq_start, False  # back where the sequence began, detours undone
            elif not off and k < len(steps) and matches(a, steps[k]["expect"]):
                k += 1
            elif k < len(steps):
                off = True
        g.apply(a)
        has_cancel = g.to_move == HUMAN and any(x.kind == "cancel" for x in g.legal_actions())
        if not has_cancel:
            seq_start = None
        elif human and not had_cancel:
            seq_start = k_before  # a sequence of choices begins: a cancel comes back here
    return {"step": k, "complete": k >= len(steps) and not off, "off_script": off}


def goal_reached(d: dict, game: Game) -> bool:
    """The lesson's goal holds in the game (the tests check it)."""
    goal = d.get("goal") or {}
    s, b = game.state, game.board
    if "favour" in goal:
        x = goal["favour"]
        return s.bids.get(x["god"], (None,))[0] == x["player"]
    if "fleets" in goal:
        x = goal["fleets"]
        a = b.index[x["area"]]
        return s.ctrl[a] == x["player"] and s.fleets[a] >= x["n"]
    if "controls" in goal:
        x = goal["controls"]
        return b.index[x["area"]] in controlled_lands(game, x["player"])
    if "metropolises" in goal:
        x = goal["metropolises"]
        return game.result()["metropolises"][x["player"]] >= x["n"]
    if "troops" in goal:
        x = goal["troops"]
        return s.troops[b.index[x["area"]]] == x["n"]
    if "hero" in goal:
        x = goal["hero"]
        return s.hero_owner.get(x["hero"]) == x["player"] and s.hero_at.get(x["hero"]) == b.index[x["area"]]
    raise ValueError(f"unknown goal {goal!r}")


def said(text: str) -> str:
    """A lesson's sentence in the current language (the catalog holds it with its spaces folded)."""
    text = " ".join(str(text).split())
    return _(text) if text else text


def public_lesson(d: dict) -> dict:
    ids = [x["id"] for x in lessons()]
    return {"id": d["id"], "title": said(d["title"]), "intro": said(d.get("intro", "")),
            "done": said(d.get("done", "")),
            "steps": [{"say": said(st["say"]), "expect": st["expect"]} for st in d["steps"]],
            "next": next_lesson(d["id"]), "number": ids.index(d["id"]) + 1, "count": len(ids)}


# --- what ends a turn ------------------------------------------------------------------------

def ends_turn(game: Game, action: Action) -> bool:
    """Whether a legal action hands the decision to another player. False when its outcome
    hangs on the generator, the dice or a hidden pile (nothing hidden may leak, R24)."""
    seat = game.to_move
    g = game.copy()
    before = unknowns(g)
    g.apply(action)
    if unknowns(g) != before:
        return False
    return g.is_over or g.to_move != seat


# --- the server --------------------------------------------------------------------------

class CreateTutorial(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lesson: StrictStr | None = Field(None, description="a lesson id; default: the first")
    bot_delay: StrictFloat | None = Field(None, ge=0, le=10)  # a number, not true/false


class TokenVersion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr
    version: StrictInt


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: StrictStr
    what: StrictStr = ""
    where: StrictStr = ""
    n: StrictInt = 0
    text: StrictStr | None = Field(None, max_length=500, description="ignored: the action's words, as listed")


class EndsTurnBody(TokenVersion):
    action: ActionBody


router = APIRouter()
_PROGRESS: dict = {}  # game id -> (version, progress): asked after every change of a lesson game


@router.get("/tutorial", include_in_schema=False)
async def tutorial_page():
    """The lessons, each with a button that starts it (the lobby's "Learn to play")."""
    return page("tutorial.html")


def _manager(request):
    return request.app.state.manager


def _lesson_of(session: Session):
    lid = (session.settings or {}).get("tutorial")
    if not lid:
        return None
    try:
        d = lesson(lid)
    except KeyError:
        return None
    # The other seats play the lesson's way (also after a server restart).
    for seat, x in enumerate(session.seats):
        if x["kind"] != "human" and not isinstance(session.agents.get(seat), LessonBot):
            session.agents[seat] = LessonBot(d)
    return d


@router.get("/api/tutorial")
async def list_lessons():
    """The lessons of the guided first game, in order."""
    return {"lessons": [{"id": d["id"], "title": said(d["title"]), "steps": len(d["steps"])} for d in lessons()],
            "steps": total_steps()}


@router.post("/api/tutorial", status_code=201)
async def create_tutorial(body: CreateTutorial, request: Request):
    """A new game of a lesson, the person at seat 0: returns its link."""
    m = _manager(request)
    lid = body.lesson or lessons()[0]["id"]
    try:
        d = lesson(lid)
    except KeyError:
        raise Refused(422, N_("no lesson {lesson}; lessons: {known}"),
            lesson=repr(lid), known=', '.join(x['id'] for x in lessons())) from None
    loop = asyncio.get_running_loop()
    game = await loop.run_in_executor(m.cpu, new_game, d)
    n = game.state.n
    seats = [{"kind": "human" if i == HUMAN else "greedy",
              "name": _(SEAT_NAMES[i]),
              "token": secrets.token_urlsafe(24) if i == HUMAN else None,
              "joined": i != HUMAN} for i in range(n)]
    settings = {"tutorial": d["id"]}
    if body.bot_delay is not None:
        settings["bot_delay"] = body.bot_delay
    game_id = secrets.token_urlsafe(9)
    session = m.session(game_id, game, seats, time.time(), settings)
    _lesson_of(session)
    await m.storage.create_game(game_id, game.options, seats, session.status,
                                game.state.version, game.to_move, session.settings)
    m.sessions[game_id] = session
    session.kick_bots()
    token = seats[HUMAN]["token"]
    return {"game_id": game_id, "token": token, "lesson": d["id"],
            "url": f"/game/{game_id}?token={token}"}


@router.get("/api/tutorial/games/{game_id}")
async def tutorial_state(game_id: str, request: Request, token: str | None = None):
    """The lesson a game plays and how far its person has come (`tutorial: null`: no lesson)."""
    s = await _manager(request).get(game_id)
    d = _lesson_of(s)
    if d is None:
        return {"tutorial": None}
    s.seat_of(token)  # a wrong token is refused
    version = s.game.state.version
    p = _PROGRESS.get(game_id)
    if p is None or (p[0] != version and not p[1]["complete"]):  # a finished lesson stays so
        loop = asyncio.get_running_loop()
        p = _PROGRESS[game_id] = (version, await loop.run_in_executor(s.m.cpu, progress, d, s.game.copy()))
        if len(_PROGRESS) > 2000:
            _PROGRESS.pop(next(iter(_PROGRESS)))
    p = p[1]
    return {"tutorial": {**public_lesson(d), **p, "version": s.game.state.version}}


@router.post("/api/games/{game_id}/ends-turn")
async def would_end_turn(game_id: str, body: EndsTurnBody, request: Request):
    """Whether a legal action of the seat to move hands the decision to someone else."""
    s = await _manager(request).get(game_id)
    seat = await s.seat_for(body.token)
    g = s.game
    if seat is None or g.is_over or g.to_move not in s.factions_of[seat] \
            or body.version != g.state.version:
        return {"ends_turn": False}
    a = Action.from_json(body.action.model_dump(exclude={"text"}))
    if a not in g.legal_actions():
        raise Refused(422, N_("not a legal action now"))
    return {"ends_turn": ends_turn(g, a)}
