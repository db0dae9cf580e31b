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

from core.engine import Chance, Event
from notation.export import TextExporter
from notation.games import NotationPlugin
from notation.replay import Replay, StepInfo
from notation.wording import braced, outcome_text, visible

INDENT_STEP = "  "
INDENT_EVENT = "      "


class TaifaReport(TextExporter):
    """The generic text's tags (with the options) and ending around a report of turns and rounds."""

    hidden_tags: frozenset[str] = frozenset()

    def begin_game(self, replay: Replay) -> None:
        super().begin_game(replay)
        self.lines = 0  # body lines written
        # The game's first turn begins as it is set up, before step 1: its event is not a step's.
        self.turn = 1
        self.round = 0
        self.heading("Turn 1")

    def line(self, text: str) -> None:
        super().line(text)
        self.lines += 1

    def heading(self, text: str) -> None:
        if self.lines:
            self.line("")
        self.line(text)

    def start_round(self, k: int) -> None:
        self.round += 1
        name = self.replay.seat_names[k] if 0 <= k < len(self.replay.seat_names) else f"kingdom {k}"
        self.heading(f"Turn {self.turn}, round {self.round} -- {visible(name)}")

    def visit_step(self, info: StepInfo) -> None:
        self._body()
        self.line(f"{INDENT_STEP}{info.step}. {visible(step_text(info))}")

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
        self.line(visible(f"{INDENT_EVENT}{e.text}  [{e.rule}]" if e.rule else f"{INDENT_EVENT}{e.text}"))

    def visit_comment(self, step: int, text: str) -> None:
        self._body()
        # Comments before the first step stand under the Turn 1 heading, at the margin.
        self.line((INDENT_EVENT if step else "") + braced(visible(text)))

    def _close_step(self) -> None:
        """Each step's line is written as it comes: nothing is gathered."""


def step_text(info: StepInfo) -> str:
    """A step as the report gives it: who decided what, or what the dice, the shuffle or the pick gave."""
    if info.kind == "decision":
        return f"{info.seat_name}: {info.text}"
    chance = info.before
    if not isinstance(chance, Chance):
        return info.text
    label = chance.label or chance.kind
    if chance.kind == "shuffle":
        return f"{label} ({chance.spec[0]} cards)"
    if chance.kind == "pick" and isinstance(info.value, int):
        return f"{label}: {info.value + 1} of {chance.spec[0]}"
    return f"{label}: {outcome_text(info.value)}"  # type: ignore[arg-type]


NOTATION = NotationPlugin(text=TaifaReport)
