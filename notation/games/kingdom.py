"""Take the Kingdom's notation: a record's text export as a game report (``fiefdom replay export``).

Steps are numbered as in the record, each with who did what in the game's own words
(the replay words every step with the game's ``describe``) and the events that followed,
each citing its rule (a rulebook heading, or a ruling KD-n of docs/rulings/kingdom.md).
Headings come from the events, as a turn or round begins in the middle of a step (the
last "done" of one kingdom's turn starts the next kingdom's):

* ``Setup``: the Nobles, the kingdom-building draft, the shuffles and the first hands
  (multiplayer), or the difficulty's kingdoms and the three decks (solo);
* each ``turn`` event (multiplayer: ``Turn 3: Player 2 (Simon)``) and ``round`` event (solo:
  ``Round 2 of 18: Cannon, Land, Famine revealed``) is a heading, with its rule;
* ``Result`` at the ``end`` event, then each kingdom's defence points and the result.

A seat is named as the game names it once its Noble is known (``Player 2 (Simon)``,
``Egbert (you)``): the names are read from the position after the step that dealt or chose
the Nobles (solo: from step 1, as they are set with the kingdoms).
"""

from __future__ import annotations

from typing import Any

from core.engine import Event, Result
from notation.export import ReportExporter, step_text
from notation.games import NotationPlugin
from notation.replay import Replay, StepInfo
from notation.wording import visible

class KingdomReport(ReportExporter):
    """A report of the setup, then turn by turn (multiplayer) or round by round (solo)."""

    def begin_game(self, replay: Replay) -> None:
        super().begin_game(replay)
        self.names = list(replay.seat_names)  # with the Nobles from step 1 on (see visit_step)
        self.heading("Setup")

    def name(self, seat: Any) -> str:
        return self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else str(seat)

    def visit_step(self, info: StepInfo) -> None:
        if info.step == 1 or any(e.kind == "noble" for e in info.events):  # the Nobles are known from here on
            # After step 1, never before: a position at step 0 taken first would cost step 1 the
            # events the game emitted as it was set up (the replay's cursor is a clone of it).
            self.names = _names(self.replay.state_at(info.step), self.replay.seat_names)
        self.step_line(info.step, step_text(info, self.name(info.seat)))

    def visit_event(self, e: Event) -> None:
        self._body()
        if e.kind in ("turn", "round"):  # the event is the heading: "Turn 3: Player 2 (Simon)"
            self.heading(visible(f"{e.text}  [{e.rule}]" if e.rule else e.text))
            return
        if e.kind == "end":
            self.heading("Result")
        self.event_line(e)

    def visit_result(self, result: Result | None) -> None:
        if result is not None and result.scores:
            self._body()
            points = ", ".join(f"{self.name(k)} {s}" for k, s in enumerate(result.scores))
            self.line(visible(f"{self.INDENT_STEP}defence points: {points}"))
        super().visit_result(result)


def _names(game: Any, seats: tuple[str, ...]) -> list[str]:
    """Each seat as the game names it (with its Noble once known); the record's names otherwise."""
    try:
        return [str(game.name(k)) for k in range(len(seats))]
    except (AttributeError, KeyError, IndexError, TypeError):
        return list(seats)


NOTATION = NotationPlugin(text=KingdomReport)
