"""The replay viewer: the play screen's panes plus a timeline, stepping a record."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static

from core.taifa.game import TaifaGame
from core.tafl import TaflGame
from notation.replay import Replay
from tui.screens.dialogs import StepDialog
from tui.screens.play import SPEEDS
from tui.widgets.side_panes import SidePanes, event_line
from tui.session import GameSetup, SeatConfig
from tui.widgets.tafl_board import BoardView, TaflBoard
from tui.widgets.taifa_map import KingdomsPane, TaifaMap


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
        self.records = [self._record(n) for n in range(1, self.last + 1)]

    def _record(self, n: int) -> str:
        move = next((e for e in self.replay.events_at(n) if e.kind == "move" and e.data), None)
        text = str(move.data[0]) if move else self.replay.step_record(n).text
        return text if len(text) <= 72 else text[:71] + "…"  # a shuffle lists every position

    @property
    def taifa(self) -> bool:
        return self.replay.header.game == "taifa"

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="board-pane", classes="taifa" if self.taifa else ""):
                # The viewer's arrows step through the record; the board only shows it.
                if self.taifa:
                    state = self.replay.state_at(self.step)
                    assert isinstance(state, TaifaGame)
                    yield TaifaMap(state, id="map")
                    yield KingdomsPane(state, id="kingdoms")
                else:
                    yield TaflBoard(self._view(), id="board", focusable=False)
                yield Static(id="timeline")
            yield SidePanes("Events of this step")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A Taifa position is played on from `fiefdom taifa play`, not from the viewer.
        return not (action == "play_from_here" and self.taifa)

    def on_mount(self) -> None:
        if not self.report.ok:
            self.notify(f"verify failed: {self.report.message}", severity="error", timeout=10)
        self.show_step()

    def _view(self) -> BoardView:
        state = self.replay.state_at(self.step)
        assert isinstance(state, TaflGame)
        return BoardView.of(state, interactive=False)

    def show_step(self) -> None:
        state = self.replay.state_at(self.step)
        if isinstance(state, TaifaGame):
            self.query_one("#map", TaifaMap).show(state)
            self.query_one("#kingdoms", KingdomsPane).show(state)
            where = f"result: {state.result.reason}" if state.result else \
                f"turn {state.s.turn}, {state.seats[state.s.current]}'s round"
        else:
            self.query_one("#board", TaflBoard).show(BoardView.of(state, interactive=False))
            where = f"result: {state.result.reason}" if state.result else f"{state.seats[state.to_move]} to move"
        h = self.replay.header
        verdict = "[green]verified[/]" if self.report.ok else f"[red]differs at step {self.report.first_bad_step}[/]"
        playing = " · playing" if self.timer else ""
        self.query_one("#timeline", Static).update(
            f"step {self.step}/{self.last} · {verdict}{playing} · speed {SPEEDS[self.speed]:g}s")
        self.query_one("#status", Static).update(escape(f"replay {self.path.name} · {h.game} {h.variant} · {where}"))
        self.query_one(SidePanes).show_moves(self.records, self.step, per_line=1 if self.taifa else 2)
        log = self.query_one("#events", RichLog)
        log.clear()
        if self.step == 0:
            log.write("start position")
        for e in self.replay.events_at(self.step) if self.step else ():
            log.write(event_line(e))
        for c in self.replay.comments_at(self.step):
            log.write(f"[i]{c}[/i]")

    def action_step(self, delta: int) -> None:
        self.step = min(self.last, max(0, self.step + delta))
        self.show_step()

    def action_jump(self, where: int) -> None:
        self.step = self.last if where < 0 else where
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
        state = self.replay.state_at(self.step)
        assert isinstance(state, TaflGame)
        if state.result is not None:
            self.notify("the game is over at this step", severity="warning")
            return
        h = self.replay.header
        setup = GameSetup(h.game, h.variant, (SeatConfig("human"), SeatConfig("ai")), h.seed or 1,
                          dict(h.options), {"position": state.position(), "to_move": state.to_move})
        self.app.start_game(setup)  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        if self.timer:
            self.timer.stop()
        self.app.pop_screen()
