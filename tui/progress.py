"""A long command's progress: its lines on standard output, and a bar on standard error while it
runs when that is a terminal (rich's, which Textual already brings). Nothing is drawn into a pipe or
a file: a script reading the output gets the lines alone."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any


class Progress:
    """``with Progress(1000, "games") as progress: ... progress.line(text)``: each line is one of the
    ``total`` items done; ``quiet``: the lines are not printed, the bar still moves."""

    def __init__(self, total: int, noun: str, *, quiet: bool = False) -> None:
        self.total, self.noun, self.quiet = total, noun, quiet
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> "Progress":
        if _terminal(sys.stderr):
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar, TaskProgressColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            # The lines above the bar only when they go to the terminal too; into a file they go as written.
            self._bar = Bar("{task.description}", BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                            TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                            transient=True, redirect_stdout=_terminal(sys.stdout), redirect_stderr=False)
            self._bar.start()
            self._task = self._bar.add_task(self.noun, total=self.total)
        return self

    def line(self, text: str, *, err: bool = False, quiet: bool | None = None) -> None:
        """One item done, said in ``text`` (unless quiet: this progress's, or ``quiet`` for this line);
        ``err``: on standard error (above the bar, when there is one)."""
        if not (self.quiet if quiet is None else quiet):
            if err and self._bar is not None:
                self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
            else:  # each line as it comes, as typer.echo writes: a reader sees a game as it ends
                stream = sys.stderr if err else sys.stdout
                stream.write(text + "\n")
                stream.flush()
        if self._bar is not None:
            self._bar.advance(self._task)

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
