"""The progress bar of a long run (a tournament, a ladder, self-play, simulations) on stderr.

On a terminal it is redrawn in place. Written to a file instead (a run left going under nohup,
a CI log), a bar redrawn in place shows nothing until the run ends, hours later for self-play:
there the bar is written as a line of its own at each tenth of the run and at least every
`every` seconds, then once more at the end, wide enough not to cut its figures short.
"""
from __future__ import annotations

import time

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

LOG_WIDTH = 160  # columns of a progress line in a file (a terminal's own width otherwise)
# The time left is the games left at the speed of the games done in the last hour: rich's own
# window (30 s) saw no two games of a deep search's self-play, ten minutes each, and said "-:--:--".
SPEED_WINDOW_SECONDS = 3600.0


def err_console() -> Console:
    """The console of the notes and the progress bar: stderr, 160 columns wide when it is a file."""
    probe = Console(stderr=True)
    return probe if probe.is_terminal else Console(stderr=True, width=LOG_WIDTH)


def run_progress(console: Console, *fields: str, eta: bool = True, transient: bool = False,
                 **options) -> LoggedProgress:
    """The bar of a run of games: games done of all, time spent (and, with `eta`, time left),
    then a column for each of the task's `fields`. `transient`: gone from a terminal at the end;
    `options`: rich's Progress's own (its clock, `get_time`, for instance)."""
    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if console.is_terminal:
        columns.insert(0, SpinnerColumn())  # a spinner written into a file is a stray character
    if eta:
        columns += [TextColumn("eta"), TimeRemainingColumn()]
    columns += [TextColumn(f"{{task.fields[{name}]}}") for name in fields]
    options.setdefault("speed_estimate_period", SPEED_WINDOW_SECONDS)
    return LoggedProgress(*columns, console=console, transient=transient, **options)


class LoggedProgress(Progress):
    """rich's Progress that, on a console that is no terminal, writes the bar as a line at each
    tenth of a task and at least every `every` seconds while it advances."""

    def __init__(self, *columns, every: float = 60.0, **kwargs):
        super().__init__(*columns, **kwargs)
        self.every = every
        self._written: dict = {}  # task -> (time of its last line, tenth it was at)

    def add_task(self, *args, **kwargs):
        task_id = super().add_task(*args, **kwargs)
        self._written[task_id] = (time.monotonic(), self._tenth(task_id))
        return task_id

    def update(self, task_id, **kwargs) -> None:
        super().update(task_id, **kwargs)
        if self.console.is_terminal or task_id not in self._written:
            return
        last, tenth = self._written[task_id]
        now, reached = time.monotonic(), self._tenth(task_id)
        if reached > tenth or now - last >= self.every:
            self._written[task_id] = (now, reached)
            task = self._tasks[task_id]
            if not (task.finished and not self.live.transient):  # that last line is the bar's own at the end
                self.console.print(self.make_tasks_table([task]))

    def _tenth(self, task_id) -> int:
        task = self._tasks[task_id]
        return int(10 * task.completed // task.total) if task.total else 0
