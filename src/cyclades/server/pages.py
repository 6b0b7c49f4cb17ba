"""The web client's pages, the rules page and the content texts behind the game screen's tooltips.

    GET /, GET /game/{id}                             the lobby and the game screen (web/static)
    GET /api/content?ruleset=classic&maelstrom=true   every god, card, building and piece, with
                                                      its text and cost (content/descriptions.py)
    GET /api/games/{id}/setup                         a game's mode: ruleset, Maelström, teams,
                                                      which factions each seat plays (no seed)
    GET /rules?ruleset=classic                        "How to play", drawn from /api/content

Included in the app by `app.include_router(pages.router)`; the client's other files are served
under /static (create_app mounts STATIC there).
"""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse

from ..content.descriptions import content
from ..content.i18n import _
from ..content.rulesets import RULESETS
from .i18n import TEMPLATES, render

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

router = APIRouter()


def page(name: str):
    """The page `name` (web/templates), in the request's language (server/i18n.py)."""
    if (TEMPLATES / name).is_file():
        return render(name)
    return HTMLResponse(PLACEHOLDER.format(name=name))


PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Cyclades</title></head>
<body><h1>Cyclades</h1><p>The web client ({name}) is not installed yet; the API is at
<a href="/docs">/docs</a>.</p></body></html>"""


@router.get("/", include_in_schema=False)
async def lobby():
    return page("index.html")


@router.get("/game/{game_id}", include_in_schema=False)
async def game_page(game_id: str):
    return page("game.html")


@router.get("/api/content")
async def get_content(ruleset: str = Query("legendary"), maelstrom: bool = Query(True)):
    """What every god, creature, hero, metropolis bonus, building and piece of a ruleset does,
    in plain words, with its cost where it has one."""
    if ruleset not in RULESETS:
        return JSONResponse({"detail": _("no ruleset {ruleset}: one of {known}").format(
                             ruleset=repr(ruleset), known=", ".join(RULESETS))},
                            status_code=422)
    return content(ruleset, maelstrom)


def seat_factions(options: dict, seats: int) -> list:
    """The factions each seat plays: one each, or two each in the 2-player Legendary game
    (factions 0 and 2 for seat 0, 1 and 3 for seat 1, as the teams (0, 1, 0, 1) run)."""
    teams = options.get("teams")
    factions = len(teams) if teams else options.get("players", seats)
    if seats and factions > seats and teams:
        return [[f for f in range(factions) if teams[f] == teams[s]] for s in range(seats)]
    return [[s] for s in range(factions)]


@router.get("/api/games/{game_id}/setup")
async def get_setup(game_id: str, request: Request):
    """A game's mode (public): ruleset, Maelström, player count, teams and the team goal, and the
    factions of each seat. Never the seed."""
    m = request.app.state.manager
    s = await m.get(game_id)
    o = s.game.options
    teams = o.get("teams")
    return {"game_id": game_id, "ruleset": o.get("ruleset", "legendary"),
            "maelstrom": bool(o.get("maelstrom", True)) and o.get("ruleset") != "classic",
            "players": o.get("players"), "factions": s.game.state.n,
            "teams": list(teams) if teams else None,
            "team_goal": o.get("team_goal") if teams else None,
            "goal": s.game.goal,
            "seat_factions": seat_factions({**o, "players": s.game.state.n}, len(s.seats))}


@router.get("/rules", include_in_schema=False)
async def rules_page(ruleset: str | None = None):
    return page("rules.html")
