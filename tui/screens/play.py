"""The play screen, for any game on the Runner: a status line, the game's board (its plugin's)
or else its text view, the options pane, typed input, the move list and the event log.

People choose in the options pane, on the board, or by typing. Everything else advances by
itself: chance (the rulebook bots' dice among it) on timers, in short slices so the screen
keeps drawing, and AI and random seats in a thread worker. Leaving or taking back stops the
AI at once (the runner's stop flag) and waits for it before touching the game.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, RichLog, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from core.engine import Chance, Code, Decision, Event, RulesError
from core.match import Step
from notation.catalog import build_game
from notation.format import RecordError
from notation.runner import Runner
from notation.wording import visible, winners_text
from tui.games import plugin, position_text
from tui.screens.dialogs import GameOverDialog
from tui.widgets.options import OptionChosen, OptionsPane
from tui.widgets.side_panes import SidePanes, event_line, per_line, record_text, shorten, step_words

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)  # seconds between automatic steps
WATCH_SPEED = 2  # the speed of a game nobody here plays (an index into SPEEDS)
SLICE = 0.03  # at speed 0, automatic steps run this long between frames
STATUS_LAST = 24  # the last step in the status line, cut to leave room for who decides


def shown(event: Event) -> str:
    """An event as the log shows it, its text and rule made visible (a resumed record, a user's data)."""
    return event_line(replace(event, text=visible(event.text), rule=visible(event.rule)))


def history_records(runner: Runner) -> list[str]:
    """The move list of a resumed game: its steps worded again on a replay from the start."""
    game = build_game(runner.header, runner.games)
    out = []
    for step in runner.history:
        out.append(visible(record_text(step_words(game, game.point(), step), step.events)))
        if step.kind == "decision":
            game.apply(step.value)  # type: ignore[arg-type]
        else:
            game.resolve(step.value)
    return out


def parse_outcome(chance: Chance, text: str) -> object:
    """Dice typed from the table (``3 5``, ``3,5``): an int for a pick, a tuple otherwise."""
    try:
        values = tuple(int(v) for v in text.replace(",", " ").split())
    except ValueError:
        raise RulesError(f"type the {chance.label or chance.kind} as whole numbers") from None
    return values[0] if chance.kind == "pick" and len(values) == 1 else values


class PlayScreen(Screen):
    BINDINGS = [
        Binding("t", "focus_input", "Type move", id="play.type"),
        Binding("o", "focus_options", "Options", id="play.options"),
        Binding("escape", "focus_board", "Board", show=False, id="play.board"),
        Binding("u", "takeback", "Takeback", id="play.takeback"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False, id="play.faster"),
        Binding("minus", "speed(1)", "Slower", show=False, id="play.slower"),
        Binding("question_mark,f1", "app.help", "Help", id="play.help"),
        Binding("q", "leave", "Home", id="play.home"),
    ]

    def __init__(self, runner: Runner) -> None:
        super().__init__()
        self.runner = runner
        self.board_class = plugin(runner.header.game).load("board")
        self.records = history_records(runner)
        self.speed = 0 if runner.people else WATCH_SPEED
        self.thinking = False
        self.halted = False  # the AI's stop flag: set while leaving or taking back
        self.generation = 0  # bumped on takeback: an answer thought or a step timed before it is dropped
        self.worker: Worker | None = None
        self.viewer: int | None = None  # the seat whose view is drawn
        self.over_shown = False
        runner.set_stop(lambda: self.halted)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            wide = self.board_class is None or self.board_class.wide
            with Vertical(id="board-pane", classes="wide" if wide else ""):
                if self.board_class is not None:
                    yield self.board_class(self.runner.game, self.view_seat(), True, id="board")
                else:
                    with VerticalScroll(id="position-scroll"):
                        yield Static(id="position")
            with Vertical(id="side"):
                yield Static("Options", id="options-title", classes="pane-title")
                yield OptionsPane(id="options")
                yield Input(placeholder="type a move", id="move-input")
                yield Static("", id="error")
                yield SidePanes("Events", id="logs")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#events", RichLog)
        for step in self.runner.history:
            for e in step.events:
                log.write(shown(e))
        self.refresh_all()
        self.action_focus_board()
        self.advance()

    # -- display -----------------------------------------------------------

    @property
    def board(self) -> Widget | None:
        return self.query_one("#board") if self.board_class is not None else None

    def view_seat(self) -> int | None:
        """The seat whose view is drawn: the person deciding, else the last person who did
        (hot-seat privacy comes later: issue 10), else a spectator's."""
        point, people = self.runner.point, self.runner.people
        if isinstance(point, Decision) and point.seat in people:
            self.viewer = point.seat
        elif self.viewer is None and people:
            self.viewer = people[0]
        return self.viewer

    def refresh_all(self) -> None:
        r = self.runner
        waiting = r.waiting
        decision = waiting if isinstance(waiting, Decision) and not self.thinking else None
        seat = self.view_seat()
        board = self.board
        if board is not None:
            board.show(r.game, seat, decision is not None)  # type: ignore[attr-defined]
        else:
            self.query_one("#position", Static).update(escape(position_text(r.game, seat)))
        options = self.query_one("#options", OptionsPane)
        options.show(r.game, decision, idle="the game is over" if r.result else "nobody here is to choose")
        self.query_one("#options-title", Static).update(Text(visible(decision.prompt)) if decision else "Options")
        if decision is not None and decision.options:
            example = visible(r.game.describe(decision.options[0]))
            self.query_one("#move-input", Input).placeholder = f"type a move (t), like {example}"
        self.query_one(SidePanes).show_moves(self.records, per_line=per_line(len(r.game.seats), r.history))
        self.query_one("#status", Static).update(self.status_text())

    def status_text(self) -> Text:
        """The status line as plain text with bold names: every part may come from a record or a user's
        data file, so it is made visible and never read as markup."""
        r = self.runner
        last = f"last: {shorten(self.records[-1], STATUS_LAST)}" if self.records else "nothing played yet"
        head = visible(f"{r.header.game} {r.header.variant} · step {len(self.records) + 1} · {last}")
        result = r.result
        if result is not None:
            return Text.assemble(head, " · ", (winners_text(result, r.game.seats), "bold"), ": ",
                                 visible(f"{result.reason} [{result.rule}]"))
        speed = "" if r.people else f" · speed {SPEEDS[self.speed]:g}s"
        point = r.point
        if isinstance(point, Chance):
            label = point.label or point.kind
            doing = f"type the {label}" if r.waiting is not None else f"chance: {label}"
            return Text.assemble(head, " · ", visible(doing), speed)
        assert isinstance(point, Decision)
        kind = r.seat_kind(point.seat)
        doing = "your move" if kind == "human" else "thinking…"
        if point.kind != "action":
            doing += f" ({point.kind})"
        return Text.assemble(head, " · ", (visible(r.game.seats[point.seat]), "bold"), f" ({kind}) {doing}{speed}")

    def show_error(self, text: str) -> None:
        self.query_one("#error", Static).update(Text(visible(text), style="red") if text else "")

    def record(self, step: Step, words: str) -> None:
        """A step just played: its events to the log, its words to the move list."""
        self.records.append(visible(record_text(words, step.events)))
        log = self.query_one("#events", RichLog)
        for e in step.events:
            log.write(shown(e))

    # -- going on by itself --------------------------------------------------

    def advance(self) -> None:
        """Play what nobody here has to answer, up to where a person must (or the end)."""
        r = self.runner
        if self.thinking or self.halted or not self.is_attached:
            return
        if r.result is not None:
            self.refresh_all()
            self.game_over()
            return
        if r.waiting is not None:
            self.refresh_all()
            return
        if isinstance(r.point, Decision):  # an AI or a random seat
            self.thinking = True
            self.refresh_all()
            self.worker = self.think(self.generation)
            return
        # Chance drawn from the seed: one step at a speed, else a slice of them between frames.
        delay = SPEEDS[self.speed]
        deadline = time.monotonic() + SLICE
        while True:
            point = r.point
            step = r.step()
            if step is None:
                break
            self.record(step, step_words(r.game, point, step))  # a chance step: worded by its point
            if delay or time.monotonic() > deadline or not isinstance(r.point, Chance) or r.waiting:
                break
        self.refresh_all()
        self.go_on()

    def go_on(self) -> None:
        """The next automatic step, after the speed's pause (at once at speed 0, after a frame);
        dropped if a takeback comes first, which starts its own."""
        generation = self.generation

        def again() -> None:
            if generation == self.generation:
                self.advance()

        delay = SPEEDS[self.speed]
        if delay:
            self.set_timer(delay, again)
        else:
            self.call_after_refresh(again)

    @work(thread=True, exclusive=True, group="think", exit_on_error=False)
    def think(self, generation: int) -> None:
        """The deciding AI or random seat's answer, thought in a thread; applied on the screen's."""
        answer: Code | Exception
        try:
            answer = self.runner.think()
        except Exception as err:  # an AI that fails must not take the app down with it
            answer = err
        try:
            self.app.call_from_thread(self.thought, answer, generation)
        except RuntimeError:  # the app has closed
            pass

    def thought(self, answer: Code | Exception, generation: int) -> None:
        self.thinking = False
        if generation != self.generation or self.halted or not self.is_attached:
            return
        if isinstance(answer, Exception):
            self.show_error(f"the AI failed: {answer}")
            self.refresh_all()
            return
        if self.decide(answer):
            self.go_on()

    async def halt(self) -> None:
        """Stop the AI (it answers at once) and wait until its thread is done."""
        self.halted = True
        worker, self.worker = self.worker, None
        if worker is not None and worker.is_running:
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass
        self.thinking = False

    # -- people --------------------------------------------------------------

    def decide(self, code: Code) -> bool:
        """Apply the deciding seat's choice; False (and the error shown) when the rules refuse it."""
        r = self.runner
        try:
            words = r.game.describe(code)
            step = r.decide(code)
        except RulesError as err:
            self.show_error(str(err))
            return False
        self.show_error("")
        self.record(step, words)
        self.refresh_all()
        return True

    def human_decides(self, code: Code) -> None:
        if not isinstance(self.runner.waiting, Decision) or self.thinking:
            self.show_error("wait: nobody here is to choose now")
            return
        if self.decide(code):
            self.advance()

    @on(OptionChosen)
    def option_chosen(self, message: OptionChosen) -> None:
        self.human_decides(message.code)

    @on(Input.Submitted, "#move-input")
    def typed_move(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        if not text:
            return
        r = self.runner
        waiting = r.waiting
        try:
            if isinstance(waiting, Chance):  # dice thrown on a real table
                point = r.point
                step = r.type_outcome(parse_outcome(waiting, text))  # type: ignore[arg-type]
                self.show_error("")
                self.record(step, step_words(r.game, point, step))
                self.refresh_all()
                self.advance()
                return
            code = r.game.parse(text)
        except RulesError as err:
            self.show_error(str(err))
            return
        self.human_decides(code)

    # -- actions -------------------------------------------------------------

    def action_focus_input(self) -> None:
        self.query_one("#move-input", Input).focus()

    def action_focus_options(self) -> None:
        self.query_one("#options", OptionsPane).focus()

    def action_focus_board(self) -> None:
        board = self.board
        if board is not None and board.can_focus:
            board.focus()
        else:
            self.action_focus_options()

    async def action_takeback(self) -> None:
        r = self.runner
        if not r.people:
            self.show_error("takeback is for games with a human player")
            return
        await self.halt()
        self.generation += 1
        try:
            undone = r.takeback()
        except (RecordError, RulesError, OSError) as err:
            undone, problem = 0, f"cannot take back: {err}"
        else:
            problem = "nothing to take back"
        self.halted = False
        if not undone:
            self.show_error(problem)
            self.advance()
            return
        del self.records[len(r.history):]
        self.over_shown = False
        self.query_one("#events", RichLog).write(f"[i]took back {undone} move(s)[/i]")
        self.show_error("")
        self.refresh_all()
        self.advance()

    def action_speed(self, delta: int) -> None:
        self.speed = min(len(SPEEDS) - 1, max(0, self.speed + delta))
        self.refresh_all()

    async def action_leave(self) -> None:
        await self.halt()
        self.runner.close()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.halted = True  # the app is closing: stop any search in progress

    def game_over(self) -> None:
        if self.over_shown:
            return
        self.over_shown = True
        r = self.runner
        assert r.result is not None and r.path is not None
        self.app.push_screen(GameOverDialog(r.result, tuple(r.game.seats), r.path), self._after_game_over)

    def _after_game_over(self, saved: Path | None) -> None:
        if saved is not None:
            self.query_one("#events", RichLog).write(escape(visible(f"record saved: {saved}")))
