"""Seats: the people at a game's table, each playing one faction (two in the 2-player game, R22).

Plain functions of a game's stored seats (`[{"kind": "human"|bot name, "name", "token",
"joined", "access"}]`), shared by the live sessions (sessions.py), the processes' sync
(sync.py) and the lobby's list of stored games (lobby.py).
"""
from __future__ import annotations

import secrets


def seat_factions(players: int, teams) -> list:
    """The factions each seat (a person) plays: seat i plays faction i, except with 2
    players, where the engine has 4 factions in 2 teams and seat i plays its team's two
    (R22): seat 0 factions 0 and 2, seat 1 factions 1 and 3."""
    teams = list(teams or ())
    if teams and len(teams) != players:
        return [[f for f, t in enumerate(teams) if t == i] for i in range(players)]
    return [[i] for i in range(players)]


def seat_access(seat: dict):
    """How a seat is taken: "host" (the creator's own), "invite" (only its link's holder),
    "open" (the first to join from the lobby), None (a bot). Games stored before seats had
    an access were all by link."""
    if seat.get("kind") != "human":
        return None
    return seat.get("access") or "invite"


def faction_names(names: list, factions_of: list) -> list:
    """A name per faction: the seat's name, or in the 2-player game "Ann (A)", "Ann (B)"."""
    n = sum(len(fs) for fs in factions_of)
    out = [f"Player {f + 1}" for f in range(n)]
    for i, fs in enumerate(factions_of):
        for k, f in enumerate(fs):
            out[f] = names[i] if len(fs) == 1 else f"{names[i]} ({chr(65 + k)})"
    return out


def public_seats(seats: list, factions_of: list) -> list:
    """What anyone may know of the seats (never a token)."""
    out = []
    for i, s in enumerate(seats):
        access = seat_access(s)
        fs = factions_of[i] if i < len(factions_of) else [i]
        name = s.get("name") or f"Player {i + 1}"
        out.append({"seat": i, "kind": s["kind"], "name": s.get("name"), "access": access,
                    "open": access == "open", "joined": bool(s.get("joined")) or s["kind"] != "human",
                    "factions": fs, "faction_names": faction_names([name], [list(range(len(fs)))])})
    return out


def same_token(a, b) -> bool:
    """Constant-time comparison of two tokens, as bytes (compare_digest refuses
    non-ASCII str)."""
    return secrets.compare_digest(str(a).encode("utf-8", "surrogatepass"),
                                  str(b).encode("utf-8", "surrogatepass"))
