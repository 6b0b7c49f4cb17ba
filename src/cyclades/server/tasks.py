"""Stopping the server's background tasks (the sweeps, the listeners, the bots' turns).

Each task's own loop logs what goes wrong inside it; whoever stops it only needs it gone.
"""
from __future__ import annotations

import asyncio
from collections.abc import Iterable


async def stop_tasks(tasks: Iterable[asyncio.Task | None]) -> None:
    """Cancel the tasks, then wait until each has ended, however it ends (cancelled, or with
    an error its loop has already logged). If the caller itself is cancelled meanwhile, that
    cancellation goes on up."""
    live = [t for t in tasks if t is not None]
    for t in live:
        t.cancel()
    await asyncio.gather(*live, return_exceptions=True)
