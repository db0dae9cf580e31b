"""The play screen: board, move list, event log with citations, status line.

Humans move with the board (keys or mouse) or by typing a move; AI seats
think in a thread worker so the screen never freezes.
"""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, RichLog, Static

from core.engine import Code, RulesError
from core.tafl.ai import TaflAI
from tui.screens.dialogs import GameOverDialog
from tui.session import Session
from tui.widgets.side_panes import SidePanes, event_line
from tui.widgets.tafl_board import BoardView, TaflBoard

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)  # seconds between moves when AIs play each other


class PlayScreen(Screen):
    BINDINGS = [
        Binding("t", "focus_input", "Type move", id="play.type"),
        Binding("escape", "focus_board", "Board", show=False, id="play.board"),
        Binding("u", "takeback", "Takeback", id="play.takeback"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False, id="play.faster"),
        Binding("minus", "speed(1)", "Slower", show=False, id="play.slower"),
        Binding("question_mark,f1", "app.help", "Help", id="play.help"),
        Binding("q", "leave", "Home", id="play.home"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.speed = 2  # index into SPEEDS
        self.thinking = False
        self.generation = 0  # bumped on takeback/leave so a stale AI answer is dropped

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="board-pane"):
                yield TaflBoard(BoardView.of(self.session.game), id="board")
                yield Input(placeholder="type a move: e1-e4", id="move-input")
                yield Static("", id="error")
            yield SidePanes("Events")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#events", RichLog)
        for entry in self.session.history:
            for e in entry.step.events:
                log.write(event_line(e))
        self.refresh_all()
        self.query_one("#board", TaflBoard).focus()
        self.next_turn()

    # -- display -----------------------------------------------------------

    def refresh_all(self) -> None:
        s = self.session
        human_to_move = s.decision is not None and s.seat_kind(s.decision.seat) == "human"
        self.query_one("#board", TaflBoard).show(BoardView.of(s.game, interactive=human_to_move))
        self.query_one(SidePanes).show_moves([m.record for m in s.history])
        self.query_one("#status", Static).update(self.status_text())

    def status_text(self) -> str:
        s = self.session
        last = f"last: {s.history[-1].record}" if s.history else "no moves yet"
        head = f"{s.setup.game} {s.setup.variant} · move {len(s.history) + 1} · {last}"
        if s.over is not None:
            r = s.over.result
            who = f"{s.game.seats[r.winners[0]]} win" if r.winners else "draw"
            return f"{escape(head)} · [b]{who}[/b]: {escape(f'{r.reason} [{r.rule}]')}"
        seat = s.decision.seat if s.decision else 0
        name = s.game.seats[seat]
        kind = s.seat_kind(seat)
        doing = "thinking…" if kind == "ai" else "your move"
        speed = f" · speed {SPEEDS[self.speed]:g}s" if s.ai_only else ""
        return f"{head} · [b]{name}[/b] ({kind}) {doing}{speed}"

    def show_error(self, text: str) -> None:
        self.query_one("#error", Static).update(f"[red]{escape(text)}[/red]" if text else "")

    # -- turns -------------------------------------------------------------

    def next_turn(self) -> None:
        s = self.session
        if s.over is not None:
            self.refresh_all()
            self.app.push_screen(GameOverDialog(s), self._after_game_over)
            return
        if s.decision is not None and s.seat_kind(s.decision.seat) == "ai" and not self.thinking:
            self.thinking = True
            self.think(self.generation)

    @work(thread=True, exclusive=True, group="ai")
    def think(self, generation: int) -> None:
        s = self.session
        decision = s.decision
        if decision is None:
            return
        # Leaving the screen (or quitting) bumps the generation: the search stops at once.
        ai = TaflAI(time_budget=s.setup.seats[decision.seat].ai_time, seed=s.setup.seed + len(s.history),
                    stop=lambda: generation != self.generation)
        code = ai.choose(s.game.clone(), decision)
        if generation == self.generation:
            self.app.call_from_thread(self._ai_moved, code, generation)

    def _ai_moved(self, code: Code, generation: int) -> None:
        self.thinking = False
        if generation != self.generation or not self.is_attached:
            return
        delay = SPEEDS[self.speed] if self.session.ai_only else 0.0
        self.apply(code)
        if delay:
            self.set_timer(delay, self.next_turn)
        else:
            self.next_turn()

    def apply(self, code: Code) -> bool:
        try:
            events = self.session.play(code)
        except RulesError as err:
            self.show_error(str(err))
            return False
        self.show_error("")
        log = self.query_one("#events", RichLog)
        for e in events:
            log.write(event_line(e))
        self.refresh_all()
        return True

    def human_move(self, code: Code) -> None:
        s = self.session
        if s.decision is None or s.seat_kind(s.decision.seat) != "human":
            self.show_error("wait: it is not a human's move")
            return
        if self.apply(code):
            self.next_turn()

    @on(TaflBoard.MoveChosen)
    def board_move(self, message: TaflBoard.MoveChosen) -> None:
        names = self.session.game.geo.names
        self.human_move((names[message.frm], names[message.to]))

    @on(Input.Submitted, "#move-input")
    def typed_move(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        if not text:
            return
        try:
            code = self.session.game.parse(text)
        except RulesError as err:
            self.show_error(str(err))
            return
        self.human_move(code)

    # -- actions -------------------------------------------------------------

    def action_focus_input(self) -> None:
        self.query_one("#move-input", Input).focus()

    def action_focus_board(self) -> None:
        self.query_one("#board", TaflBoard).focus()

    def action_takeback(self) -> None:
        s = self.session
        if s.ai_only:
            self.show_error("takeback is for games with a human player")
            return
        self.generation += 1
        self.thinking = False
        undone = s.takeback()
        if not undone:
            self.show_error("nothing to take back")
            return
        log = self.query_one("#events", RichLog)
        log.write(f"[i]took back {undone} move(s)[/i]")
        self.show_error("")
        self.refresh_all()
        self.next_turn()

    def action_speed(self, delta: int) -> None:
        self.speed = min(len(SPEEDS) - 1, max(0, self.speed + delta))
        self.refresh_all()

    def action_leave(self) -> None:
        self.generation += 1
        self.session.close()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.generation += 1  # the app is closing: stop any search in progress

    def _after_game_over(self, saved: Path | None) -> None:
        if saved is not None:
            self.query_one("#events", RichLog).write(f"record saved: {saved}")
