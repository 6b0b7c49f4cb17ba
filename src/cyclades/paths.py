"""Where the command line writes what the user did not name a place for: the user's data
folder (platformdirs: ~/.local/share/cyclades on Linux, or $XDG_DATA_HOME/cyclades), never
the current folder.

    game_record_path(seed)        # .../cyclades/games/20260501-142233-seed7.json (cyclades play)
    results_dir("tournament")     # .../cyclades/tournaments/tournament-20260501-142233
"""
from __future__ import annotations

import time
from pathlib import Path


def data_dir() -> Path:
    """The user's data folder for cyclades (the server keeps its database there too)."""
    from platformdirs import user_data_dir
    return Path(user_data_dir("cyclades", appauthor=False))


def game_record_path(seed) -> Path:
    """A new file name for the record of a game played in the terminal."""
    return data_dir() / "games" / f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}.json"


def results_dir(kind: str) -> Path:
    """A new folder for the results of a run: <data>/<kind>s/<kind>-<date-time>."""
    return data_dir() / f"{kind}s" / time.strftime(f"{kind}-%Y%m%d-%H%M%S")
