"""Taifa's notation: a record's text export as a game report (``fiefdom replay export``).

Steps are numbered as in the record; their events are grouped under the turn
and the kingdom's round they belong to (``Turn 1, round 3 -- Taifa of
Valencia``), each event with the rule it cites. One step's events may run
across several rounds (a die thrown for one bot's attack, then the next bots'
rounds, which need no question at all), so the round headings come from the
events, not the steps:

* a ``turn`` event for a new turn number starts a turn (draws, shuffles, El
  Cid's Truce), one for the turn in progress ends it (6); turn 1 begins as the
  game is set up, before step 1, so its heading comes first;
* a round starts at its ``round`` event (data: the round, the kingdom), which
  the game emits as each kingdom's round begins, a player's before its action.
"""

from __future__ import annotations

from core.engine import Event
from notation.export import ReportExporter, step_text
from notation.games import NotationPlugin
from notation.replay import Replay, StepInfo
from notation.wording import visible

class TaifaReport(ReportExporter):
    """The generic text's tags (with the options) and ending around a report of turns and rounds."""

    def begin_game(self, replay: Replay) -> None:
        super().begin_game(replay)
        # The game's first turn begins as it is set up, before step 1: its event is not a step's.
        self.turn = 1
        self.round = 0
        self.heading("Turn 1")

    def start_round(self, k: int) -> None:
        self.round += 1
        name = self.replay.seat_names[k] if 0 <= k < len(self.replay.seat_names) else f"kingdom {k}"
        self.heading(f"Turn {self.turn}, round {self.round} -- {visible(name)}")

    def visit_step(self, info: StepInfo) -> None:
        self.step_line(info.step, step_text(info))

    def visit_event(self, e: Event) -> None:
        self._body()
        if e.kind == "turn" and e.data and type(e.data[0]) is int:
            if e.data[0] > self.turn:
                self.turn, self.round = e.data[0], 0
                self.heading(f"Turn {self.turn}")
            elif self.round:  # not turn 1's own start, which the game emits before step 1
                self.heading(f"Turn {self.turn}, end")
        elif e.kind == "round":
            self.start_round(e.data[1])
        elif e.kind == "end":
            self.heading("Result")
        self.event_line(e)


NOTATION = NotationPlugin(text=TaifaReport)
__all__ = ["NOTATION", "TaifaReport", "step_text"]
