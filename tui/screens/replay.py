"""The replay viewer for any game: the game's board (its plugin's, not interactive) or its
text view, a timeline, and the moves and events of the step shown. "Play from here" starts
a new game in the autosave folder with the record's steps up to the one shown."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from core.engine import Chance, Decision, Game, Over
from core.match import Step
from notation.catalog import app_version, utc_now
from notation.format import FORMAT_VERSION, Header
from notation.replay import Replay
from notation.runner import SeatPlan
from tui.games import plugin, position_text
from tui.screens.dialogs import StepDialog
from tui.screens.play import SPEEDS
from tui.widgets.side_panes import SidePanes, event_line, per_line, record_text


class ReplayScreen(Screen):
    BINDINGS = [
        Binding("left", "step(-1)", "Back", id="replay.back"),
        Binding("right", "step(1)", "Forward", id="replay.forward"),
        Binding("home", "jump(0)", "Start", id="replay.start"),
        Binding("end", "jump(-1)", "End", id="replay.end"),
        Binding("g", "goto", "Go to", id="replay.goto"),
        Binding("space", "autoplay", "Play/pause", id="replay.autoplay"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False, id="replay.faster"),
        Binding("minus", "speed(1)", "Slower", show=False, id="replay.slower"),
        Binding("p", "play_from_here", "Play from here", id="replay.play_from_here"),
        Binding("question_mark,f1", "app.help", "Help", id="replay.help"),
        Binding("q,escape", "leave", "Close", id="replay.close"),
    ]

    def __init__(self, replay: Replay, path: Path) -> None:
        super().__init__()
        self.replay = replay
        self.path = path
        self.report = replay.verify()
        self.last = replay.steps
        # A record that fails to verify opens at the first step that differs.
        bad = self.report.first_bad_step
        self.step = min(bad, self.last) if bad is not None else 0
        self.speed = 2
        self.timer: Timer | None = None
        self.board_class = plugin(replay.header.game).load("board")
        infos = [replay.step_record(n) for n in range(1, self.last + 1)]
        self.records = [record_text(i.text, i.events) for i in infos]
        self.per_line = per_line(len(replay.seat_names), infos)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            wide = self.board_class is None or self.board_class.wide
            with Vertical(id="board-pane", classes="wide" if wide else ""):
                # The viewer's arrows step through the record; the board only shows it.
                if self.board_class is not None:
                    yield self.board_class(self.replay.state_at(self.step), None, False, id="board")
                else:
                    with VerticalScroll(id="position-scroll"):
                        yield Static(id="position")
                yield Static(id="timeline")
            yield SidePanes("Events of this step", id="side")
        yield Footer()

    def on_mount(self) -> None:
        if not self.report.ok:
            self.notify(f"verify failed: {self.report.message}", severity="error", timeout=10)
        self.show_step()

    @property
    def board(self) -> Widget | None:
        return self.query_one("#board") if self.board_class is not None else None

    def show_step(self) -> None:
        state = self.replay.state_at(self.step)
        board = self.board
        if board is not None:
            board.show(state, None, False)  # type: ignore[attr-defined]
        else:
            self.query_one("#position", Static).update(escape(position_text(state, None)))
        h = self.replay.header
        verdict = "[green]verified[/]" if self.report.ok else f"[red]differs at step {self.report.first_bad_step}[/]"
        playing = " · playing" if self.timer else ""
        self.query_one("#timeline", Static).update(
            f"step {self.step}/{self.last} · {verdict}{playing} · speed {SPEEDS[self.speed]:g}s")
        self.query_one("#status", Static).update(
            escape(f"replay {self.path.name} · {h.game} {h.variant} · {where(state)}"))
        self.query_one(SidePanes).show_moves(self.records, self.step, per_line=self.per_line)
        log = self.query_one("#events", RichLog)
        log.clear()
        if self.step == 0:
            log.write("start position")
        for e in self.replay.events_at(self.step) if self.step else ():
            log.write(event_line(e))
        for c in self.replay.comments_at(self.step):
            log.write(f"[i]{escape(c)}[/i]")

    def action_step(self, delta: int) -> None:
        self.step = min(self.last, max(0, self.step + delta))
        self.show_step()

    def action_jump(self, to: int) -> None:
        self.step = self.last if to < 0 else to
        self.show_step()

    def action_goto(self) -> None:
        def done(n: int | None) -> None:
            if n is not None:
                self.step = n
                self.show_step()

        self.app.push_screen(StepDialog(self.last), done)

    def action_autoplay(self) -> None:
        if self.timer:
            self.timer.stop()
            self.timer = None
        else:
            if self.step >= self.last:
                self.step = 0
            self.timer = self.set_interval(max(SPEEDS[self.speed], 0.05), self._tick)
        self.show_step()

    def _tick(self) -> None:
        if self.step >= self.last:
            self.action_autoplay()
            return
        self.action_step(1)

    def action_speed(self, delta: int) -> None:
        self.speed = min(len(SPEEDS) - 1, max(0, self.speed + delta))
        if self.timer:
            self.timer.stop()
            self.timer = self.set_interval(max(SPEEDS[self.speed], 0.05), self._tick)
        self.show_step()

    def action_play_from_here(self) -> None:
        """A new game with this record's steps up to the one shown: the seat that decides next
        is yours, the others keep their kinds (a person's seat goes to the AI where it may)."""
        if self.replay.state_at(self.step).result is not None:
            self.notify("the game is over at this step", severity="warning")
            return
        steps = [self.replay.step_record(n) for n in range(1, self.step + 1)]
        header = from_here(self.replay, self.step)
        self.app.play_from(header, [Step(i.step, i.kind, i.seat, i.value, i.events)  # type: ignore[attr-defined]
                                    for i in steps])

    def action_leave(self) -> None:
        if self.timer:
            self.timer.stop()
        self.app.pop_screen()


def where(state: Game) -> str:
    """Where a replayed game stands, in the status line."""
    point = state.point()
    if isinstance(point, Over):
        return f"result: {point.result.reason}"
    if isinstance(point, Decision):
        return f"{state.seats[point.seat]} to move"
    assert isinstance(point, Chance)
    return f"chance: {point.label or point.kind}"


def next_decider(replay: Replay, step: int) -> int | None:
    """The seat that decides at or after position ``step``: the next decision in the record,
    else the one the position asks for."""
    for n in range(step + 1, replay.steps + 1):
        info = replay.step_record(n)
        if info.kind == "decision":
            return info.seat
    point = replay.state_at(step).point()
    return point.seat if isinstance(point, Decision) else None


def from_here(replay: Replay, step: int) -> Header:
    """The header of a game played on from ``step``: the next deciding seat a person's, every other
    person's seat the AI's where it allows one, and the rest as they were; a new creation time."""
    h = replay.header
    gi = replay.games(h.game)
    specs = gi.seat_specs(h.variant)
    you = next_decider(replay, step)
    seats = []
    for i, seat in enumerate(h.seats):
        plan = SeatPlan.of(seat)
        if i == you and i < len(specs) and "human" in specs[i].kinds:
            plan = SeatPlan("human")
        elif plan.kind == "human" and i < len(specs) and "ai" in specs[i].kinds:
            plan = SeatPlan("ai")
        seats.append(plan.seat(seat.name, gi) if plan != SeatPlan.of(seat) else seat)
    return dataclasses.replace(h, seats=tuple(seats), app=app_version(), created=utc_now(), format=FORMAT_VERSION)
