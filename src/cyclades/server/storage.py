"""What a game's session needs of the database, and nothing more of it.

`GameStorage` is the session's only way to the database (sessions.py, and sync.py when it
catches a session up): the few calls of store.Store that read or change one game, each run on
the database thread and awaited, so that the event loop never waits on the database. Their
meaning (transactions, compare-and-set on the seats, DuplicateDecision) is store.Store's.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .store import Store


class GameStorage:
    """One game's reads and writes (`db(fn, *args)` runs a call on the database thread)."""

    def __init__(self, store: Store, db: Callable[..., Awaitable[Any]]):
        self.store = store
        self.db = db

    async def create_game(self, *args) -> None:
        await self.db(self.store.create_game, *args)

    async def add_decision(self, game_id: str, idx: int, action: dict, summary: dict,
                           seats: list) -> float:
        return await self.db(self.store.add_decision, game_id, idx, action, summary, seats)

    async def take_back(self, game_id: str, idx: int, summary: dict, seats: list) -> int:
        return await self.db(self.store.take_back, game_id, idx, summary, seats)

    async def set_clocks(self, game_id: str, version: int, clocks: dict, deadline: float | None) -> bool:
        return await self.db(self.store.set_clocks, game_id, version, clocks, deadline)

    async def replace_seats(self, game_id: str, old: list, new: list, status: str) -> bool:
        return await self.db(self.store.replace_seats, game_id, old, new, status)

    async def load(self, game_id: str) -> dict | None:
        return await self.db(self.store.load, game_id)

    async def load_since(self, game_id: str, start: int) -> dict | None:
        return await self.db(self.store.load_since, game_id, start)
