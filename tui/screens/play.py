"""The play screen, for any game on the Runner: a status line, the game's board (its plugin's)
or else its text view, the options pane, typed input, the move list and the event log.

People choose in the options pane, on the board, or by typing; dice thrown on a real table are
typed. Everything else advances by itself at a pace a person can follow (a speed setting; `n`
skips ahead to the next person's decision): chance (the rulebook bots' dice among it) on timers,
in short slices at speed 0 so the screen keeps drawing, and AI and random seats in a thread
worker; an AI seat thinks in a process of its own (notation/ai_process.py), so the thread only
waits for its answer and the screen answers keys while it searches. A step that played several units (five bots' rounds) is played out unit by unit from
the game's ``frames()``. Leaving or taking back stops the AI at once (the runner's stop flag)
and waits for it before touching the game.

Hot seat: with two or more people, the table shows the view of the person at the keyboard; before
another person decides, a hand-over screen covers it and the board is drawn for no seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.events import Key
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, RichLog, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from core.engine import Chance, Code, Decision, Event, Game, RulesError
from core.match import Step
from core.visibility import Told, events_seen, tell
from core.visibility import warning as warning_for
from notation.format import Header, RecordError
from notation.replay import StepInfo
from notation.seat_log import history_log, played_step
from notation.runner import Runner, SeatPlan
from notation.wording import visible, winners_text
from tui.games import plugin, position_text
from tui.screens.dialogs import REMATCH, REVIEW, ConfirmDialog, GameOverDialog, HandOverScreen, SaveDialog
from tui.screens.play_support import dice_example, dice_prompt, parse_outcome, units
from tui.widgets.options import EARLY, ChoiceRefused, MoveInput, OptionChosen, OptionsPane, now
from tui.widgets.side_panes import SidePanes, event_line, per_line, record_text, shorten

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)  # seconds between automatic steps
WATCH_SPEED = 2  # the speed of a game nobody here plays (an index into SPEEDS)
PLAY_SPEED = 2  # and of the bots and AI in a game with people: a pace a person can follow
SLICE = 0.03  # at speed 0, automatic steps run this long between frames
STATUS_LAST = 24  # the last step in the status line, cut to leave room for who decides


def shown(event: Event) -> str:
    """An event as the log shows it, its text and rule made visible (a resumed record, a user's data)."""
    return event_line(replace(event, text=visible(event.text), rule=visible(event.rule)))


class PlayScreen(Screen):
    BINDINGS = [
        # Priority: the keys typed right after `t` or `o` go where it sends them, not to the widget
        # that had the focus when they were read (they are routed before a plain binding runs).
        Binding("t", "focus_input", "Type move", id="play.type", priority=True),
        Binding("o", "focus_options", "Options", id="play.options", priority=True),
        Binding("escape", "focus_board", "Board", show=False, id="play.board"),
        Binding("u", "takeback", "Takeback", id="play.takeback"),
        Binding("n", "skip", "Next decision", id="play.skip"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False, id="play.faster"),
        Binding("minus", "speed(1)", "Slower", show=False, id="play.slower"),
        Binding("question_mark,f1", "app.help", "Help", id="play.help"),
        Binding("q", "leave", "Home", id="play.home"),
    ]

    def __init__(self, runner: Runner) -> None:
        super().__init__()
        self.runner = runner
        self.board_class = plugin(runner.header.game).load("board")
        self.score_word = runner.gi.score_word
        # The move list and the events, told for every point of view: each is worded for the seat
        # shown (the information wall), and the log written again when that seat changes.
        self.entries: list[StepInfo] = history_log(runner.header, runner.games, runner.history)
        self.worded: dict[int | None, list[str]] = {}  # the move list as each seat shown reads it
        self.notes: list[tuple[int, Text]] = []  # lines of our own in the log, after that many steps
        self.log_viewer: int | None = None  # the seat the event log is written for
        self.speed = PLAY_SPEED if runner.people else WATCH_SPEED
        self.skipping = False  # `n`: at speed 0 until a person must answer
        # Whether anything here plays by itself (a bot, an AI, dice): else there is no pace to show.
        self.paced = runner.gi.has_chance or len(runner.people) < len(runner.plans)
        self.thinking = False
        self.halted = False  # the AI's stop flag: set while leaving or taking back
        self.generation = 0  # bumped on takeback: an answer thought before it is dropped
        self.beat = 0  # bumped by every new timer: only the latest one goes on
        self.worker: Worker | None = None
        self.viewer: int | None = None  # hot seat: the person at the keyboard, whose view is drawn
        self.handing_over: int | None = None  # hot seat: the seat the hand-over screen waits for
        self.frame: Game | None = None  # the picture the board shows while a step's units play out
        self.frames_due: list[tuple[Any, list[Event]]] = []  # the units still to show, with their events
        self.asked: object = None  # the typed chance last asked for (the input is focused once for it)
        self.over_shown = False
        # The question on the screen (the step it answers, after which takeback) and when it was
        # first shown, on the clock keys are stamped with: nothing made before is applied to it.
        self.question: tuple[int, int] | None = None
        self.question_at = float("inf")
        runner.set_stop(lambda: self.halted)
        runner.think_apart()  # an AI's search never holds the interpreter this screen needs

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            wide = self.board_class is None or self.board_class.wide
            with Vertical(id="board-pane", classes="wide" if wide else ""):
                if self.board_class is not None:
                    # Drawn for no seat until the screen knows who is at the keyboard (hot seat).
                    yield self.board_class(self.runner.game, self.solo_seat(), True, id="board")
                else:
                    with VerticalScroll(id="position-scroll"):
                        yield Static(id="position")
            with Vertical(id="side"):
                yield Static("Options", id="options-title", classes="pane-title")
                yield OptionsPane(id="options")
                yield MoveInput(placeholder="type a move", id="move-input")
                yield Static("", id="error")
                yield SidePanes("Events", id="logs")
        yield Footer()

    def on_mount(self) -> None:
        self.log_viewer = self.view_seat()
        self.rewrite_log()
        self.focus_start()
        self.refresh_all()  # focuses the move box instead when dice from the table are due
        self.advance()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Skip and speed only where something plays by itself (not two people at a Tafl board)."""
        return self.paced if action in ("skip", "speed") else True

    def on_screen_resume(self) -> None:
        """Back from help or a dialog: a hand-over that fell due meanwhile is shown now."""
        if self.handing_over is None:
            self.refresh_all()

    # -- whose view --------------------------------------------------------------

    @property
    def header(self) -> Header:
        return self.runner.header

    @property
    def board(self) -> Widget | None:
        return self.query_one("#board") if self.board_class is not None else None

    @property
    def records(self) -> list[str]:
        """The move list as the seat shown may read it (another seat's face-down card is not named):
        worded once a step for each seat shown (the screen asks for it at every refresh)."""
        seat = self.view_seat()
        words = self.worded.setdefault(seat, [])
        words += [record_text(e.told.to(seat), events_seen(e.events, seat)) for e in self.entries[len(words):]]
        return words

    def seed_line(self) -> Text:
        """The game and its seed, to play it again; a game with hidden information keeps its seed
        until it is over (the seed deals every card again)."""
        h, r = self.runner.header, self.runner
        secret = not r.gi.perfect_information and r.result is None
        return Text(visible(f"{h.game} {h.variant}" + ("" if secret else f", seed {h.seed}")), style="dim")

    def note(self, line: Text | str) -> None:
        """A line of our own in the event log (a takeback, a saved record), kept when it is written again."""
        text = line if isinstance(line, Text) else Text.from_markup(line)
        self.notes.append((len(self.entries), text))
        self.query_one("#events", RichLog).write(text)

    def rewrite_log(self) -> None:
        """The event log written again for the seat shown: every step's events as it may read them."""
        log = self.query_one("#events", RichLog)
        log.clear()
        seat = self.log_viewer
        log.write(self.seed_line())
        notes = iter(self.notes)
        pending = next(notes, None)
        for n, info in enumerate(self.entries):
            while pending is not None and pending[0] <= n:
                log.write(pending[1])
                pending = next(notes, None)
            for e in events_seen(info.events, seat):
                log.write(shown(e))
        while pending is not None:
            log.write(pending[1])
            pending = next(notes, None)

    def solo_seat(self) -> int | None:
        """The one person's seat, who always sees their own view; None with no people or several."""
        people = self.runner.people
        return people[0] if len(people) == 1 else None

    def view_seat(self) -> int | None:
        """The seat whose view is drawn: the one person's; in hot seat, the person who said they are
        at the keyboard (None until someone has); a spectator's (None) when nobody here plays."""
        return self.viewer if len(self.runner.people) > 1 else self.solo_seat()

    def hand_over_due(self) -> int | None:
        """Hot seat: the person who must decide now, when the view shown is another seat's. Where
        neither seat's view holds anything a spectator's does not (a Tafl board), the view just
        changes hands: nothing is hidden, so nothing is covered."""
        r = self.runner
        waiting = r.waiting
        if len(r.people) < 2 or not isinstance(waiting, Decision) or waiting.seat == self.viewer \
                or self.thinking or self.frame is not None:
            return None
        public = r.game.view(None)
        if r.game.view(waiting.seat) == public and (self.viewer is None or r.game.view(self.viewer) == public):
            self.viewer = waiting.seat
            return None
        return waiting.seat

    def hand_over(self, seat: int) -> None:
        """Cover the table until ``seat``'s person is at the keyboard: first every private thing
        is drawn for no seat, then the (opaque) hand-over screen goes on top."""
        self.viewer = None
        self.handing_over = seat
        self.show_error("")
        self.app.push_screen(HandOverScreen(self.runner.game.seats[seat]), lambda ready: self.handed_over(seat, ready))

    def handed_over(self, seat: int, ready: bool | None) -> None:
        self.handing_over = None
        if ready is False:
            self.run_worker(self.action_leave(), exclusive=False)
            return
        self.viewer = seat
        self.refresh_all()
        self.focus_start()

    # -- display -----------------------------------------------------------------

    def refresh_all(self) -> None:
        r = self.runner
        due = self.hand_over_due()
        if due is not None:
            self.viewer = None  # nothing of the last person's view stays under the hand-over screen
        waiting = r.waiting
        busy = self.thinking or self.frame is not None or due is not None
        decision = waiting if isinstance(waiting, Decision) and not busy else None
        self.mark_question(decision)
        dice = waiting if isinstance(waiting, Chance) and self.frame is None else None
        seat = self.view_seat()
        game = self.frame if self.frame is not None else r.game
        board = self.board
        if board is not None:
            board.show(game, seat, decision is not None)  # type: ignore[attr-defined]
        else:
            self.query_one("#position", Static).update(escape(position_text(game, seat)))
        options = self.query_one("#options", OptionsPane)
        idle = ("the game is over" if r.result else f"{dice_prompt(dice)} in the box below, then Enter" if dice
                else "nobody here is to choose")
        options.show(r.game, decision, idle=idle, since=self.question_at)
        title = decision.prompt if decision else "Dice from the table" if dice else "Options"
        self.query_one("#options-title", Static).update(Text(visible(title)))
        placeholder = "type a move"
        if decision is not None and decision.options:
            placeholder = f"type a move (t), like {visible(r.game.describe(decision.options[0]))}"
        elif dice is not None:
            placeholder = dice_example(dice)
        move_input = self.query_one("#move-input", Input)
        move_input.placeholder = placeholder
        if dice is not None and dice is not self.asked:
            self.asked = dice
            move_input.focus()
        elif dice is None:
            self.asked = None
        if seat != self.log_viewer:  # hot seat: the log as the person now at the keyboard may read it
            self.log_viewer = seat
            self.rewrite_log()
        self.query_one(SidePanes).show_moves(self.records, per_line=per_line(len(r.game.seats), r.history))
        self.query_one("#status", Static).update(self.status_text())
        if due is not None and self.handing_over is None and self.is_current:
            self.hand_over(due)

    def status_text(self) -> Text:
        """The status line as plain text with bold names: every part may come from a record or a user's
        data file, so it is made visible and never read as markup. The last step gives way first
        when the line is too long for the screen (who decides and the pace stay)."""
        r = self.runner
        records = self.records
        result = r.result
        pace = (" · skipping ahead (n)" if self.skipping else f" · speed {SPEEDS[self.speed]:g}s (+/-)") \
            if self.paced else ""
        point = r.point
        if result is not None and self.frame is None:
            tail = Text.assemble((winners_text(result, r.game.seats), "bold"), ": ",
                                 visible(f"{result.reason} [{result.rule}]"))
        elif self.frame is not None:
            tail = Text.assemble("following the play, unit by unit (n skips)", pace)
        elif isinstance(point, Chance):
            label = point.label or point.kind
            doing = f"type the dice: {label}" if r.waiting is not None else f"chance: {label}"
            tail = Text.assemble(visible(doing), pace)
        else:
            assert isinstance(point, Decision)
            kind = r.seat_kind(point.seat)
            doing = "your move" if kind == "human" else "thinking…"
            if point.kind != "action":
                doing += f" ({point.kind})"
            tail = Text.assemble((visible(r.game.seats[point.seat]), "bold"), f" ({kind}) {doing}{pace}")
        head = visible(f"{r.header.game} {r.header.variant} · step {len(records) + 1}")
        room = (self.size.width or 120) - 2 - len(head) - len(tail.plain) - len(" · last:  · ")
        if not records:
            last = " · nothing played yet"
        elif room >= 8:
            last = f" · last: {shorten(records[-1], min(STATUS_LAST, room))}"
        else:
            last = ""
        return Text.assemble(head, last, " · ", tail)

    def on_resize(self) -> None:
        if self.is_mounted:
            self.query_one("#status", Static).update(self.status_text())

    def show_error(self, text: str) -> None:
        self.query_one("#error", Static).update(Text(visible(text), style="red") if text else "")

    def write(self, events: list[Event]) -> None:
        """Events to the log, as the seat it is written for may read them."""
        log = self.query_one("#events", RichLog)
        for e in events_seen(events, self.log_viewer):
            log.write(shown(e))

    def record(self, step: Step, told: Told, point: Decision | Chance) -> None:
        """A step just played (``told`` and ``point`` from before it): its words to the move list, its
        events to the log; when it played several units and there is a pace to follow, they are
        kept to be played out (frames)."""
        self.entries.append(played_step(told, point, step, self.runner.game.seats))
        frames = getattr(self.runner.game, "frames", None)
        before, cut = units(frames() if callable(frames) and self.delay() else (), step.events)
        self.write(before)
        self.frames_due = cut

    # -- going on by itself ------------------------------------------------------

    def delay(self) -> float:
        return 0.0 if self.skipping else SPEEDS[self.speed]

    def later(self, delay: float, then: Callable[[], None]) -> None:
        """``then`` after ``delay`` (at once at 0, after a frame), unless a takeback, a skip or
        another timer comes first: only the latest timer goes on."""
        self.beat += 1
        beat, generation = self.beat, self.generation

        def go() -> None:
            if beat == self.beat and generation == self.generation and not self.halted and self.is_attached:
                then()

        if delay:
            self.set_timer(delay, go)
        else:
            self.call_after_refresh(go)

    def advance(self) -> None:
        """Play what nobody here has to answer, up to where a person must (or the end)."""
        r = self.runner
        if self.thinking or self.halted or not self.is_attached or self.frame is not None:
            return
        self.beat += 1  # a timer still running is for this very call
        if self.frames_due:
            self.next_frame()
            return
        if r.result is not None or r.waiting is not None:
            self.skipping = False
            self.refresh_all()
            if r.result is not None:
                self.game_over()
            return
        if isinstance(r.point, Decision):  # an AI or a random seat
            self.thinking = True
            self.refresh_all()
            self.worker = self.think(self.generation)
            return
        # Chance drawn from the seed: one step at a pace, else a slice of them between frames.
        deadline = time.monotonic() + SLICE
        while True:
            point = r.point
            step = r.step()
            if step is None:
                break
            assert isinstance(point, Chance)
            self.record(step, tell(r.game, point, step.value), point)  # a chance step: told by its point
            if self.frames_due or self.delay() or time.monotonic() > deadline or not isinstance(r.point, Chance) \
                    or r.waiting:
                break
        self.go_on()

    def go_on(self) -> None:
        """After a step: its units played out if it has them, else the next automatic step after the
        pace's pause (at once when a person must answer, or at speed 0 after a frame)."""
        if self.frames_due:
            self.next_frame()
            return
        self.refresh_all()
        r = self.runner
        if r.waiting is not None or r.result is not None:
            self.advance()
        else:
            self.later(self.delay(), self.advance)

    def next_frame(self) -> None:
        """The next unit of a step that played several: the table as it began and its events, then
        the pace's pause; after the last, the position after the step."""
        if not self.frames_due:
            self.frame = None
            self.go_on()
            return
        self.frame, events = self.frames_due.pop(0)
        self.write(events)
        self.refresh_all()
        self.later(self.delay(), self.next_frame)

    def skip_frames(self) -> None:
        """Show what is left of a step's units at once (skip, speed 0, takeback)."""
        for _, events in self.frames_due:
            self.write(events)
        self.frames_due = []
        self.frame = None

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

    # -- people ------------------------------------------------------------------

    def decide(self, code: Code) -> bool:
        """Apply the deciding seat's choice; False (and the error shown) when the rules refuse it."""
        r = self.runner
        try:
            point = r.point
            if not isinstance(point, Decision):
                raise RulesError("nobody is to decide now")
            told = tell(r.game, point, code)
            step = r.decide(code)
        except RulesError as err:
            self.show_error(str(err))
            return False
        self.show_error("")
        self.record(step, told, point)
        return True

    # Input goes where it was meant. Keys wait in a queue while the app is busy (the bots' steps),
    # and each is read by whatever has the focus when its turn comes; a person's key or typed move
    # is applied only to the question that was on the screen when it was made.

    def mark_question(self, decision: Decision | None) -> None:
        """Note the question shown now (None: none) and, when it is a new one, the time it appeared."""
        key = (self.generation, len(self.runner.history)) if decision is not None else None
        if key != self.question:
            self.question = key
            self.question_at = now() if key is not None else float("inf")

    def on_key(self, event: Key) -> None:
        """A key made before the question on the screen was shown is dropped, never applied to it
        (it reaches the screen on its way to the bindings, after the board or pane had it). The
        move box keeps its keys: a typed move is checked when it is sent."""
        if self.question is not None and event.time < self.question_at and not isinstance(self.focused, Input):
            event.prevent_default()
            event.stop()
            self.show_error(EARLY)

    def may_choose(self, held: str = "") -> bool:
        """Whether a person here may choose now; if not, says why (and ``held``)."""
        if self.frame is not None or self.frames_due:
            self.show_error(f"wait: the table is still being played out (n skips){held}")
            return False
        if not isinstance(self.runner.waiting, Decision) or self.thinking or self.hand_over_due() is not None:
            self.show_error(f"wait: nobody here is to choose now{held}")
            return False
        return True

    def human_decides(self, code: Code, then: Callable[[], None] | None = None) -> None:
        """A person's choice, played (then ``then``) or refused with the reason shown. A choice the
        game warns about (one that cannot be taken back) asks once first: yes plays it, no nothing."""
        waiting = self.runner.waiting
        if not self.may_choose():
            return
        assert isinstance(waiting, Decision)
        question = warning_for(self.runner.game, code) if tuple(code) in waiting.options else None
        if not question:
            self.play_choice(code, then)
            return
        asked = self.question

        def answered(yes: bool | None) -> None:
            if not yes:
                self.show_error("nothing played")
            elif self.question != asked or not self.may_choose():
                self.show_error("the question changed meanwhile: nothing played")
            else:
                self.play_choice(code, then)

        self.app.push_screen(ConfirmDialog(visible(question)), answered)

    def play_choice(self, code: Code, then: Callable[[], None] | None) -> None:
        if self.decide(code):
            self.go_on()
            if then is not None:
                then()

    @on(OptionChosen)
    def option_chosen(self, message: OptionChosen) -> None:
        self.human_decides(message.code)

    @on(ChoiceRefused)
    def choice_refused(self, message: ChoiceRefused) -> None:
        self.show_error(message.why)

    @on(Input.Submitted, "#move-input")
    def typed_move(self, message: Input.Submitted) -> None:
        """A move typed in words: checked by the game's ``parse`` against the question that was
        shown when typing began (never the highlighted option). Typed before that question, or
        while nobody here may choose, it plays nothing and stays in the box, and the error says so."""
        text = message.value.strip()
        box = message.input
        r = self.runner
        waiting = r.waiting
        if isinstance(waiting, Chance) and self.frame is None and not self.frames_due:  # dice from a table
            self.take_sent(message)
            self.typed_dice(waiting, text)
            return
        if not text:
            return
        if not self.may_choose(held=": your move stays in the box"):
            return
        if isinstance(box, MoveInput) and box.began_at < self.question_at:
            box.hold()  # said once: Enter again plays it for this question
            self.show_error(f"{text}: typed before this question was shown, so nothing was played; "
                            "Enter plays it now")
            return
        self.take_sent(message)
        try:
            code = r.game.parse(text)
        except RulesError as err:
            self.show_error(str(err))
            return
        self.human_decides(code, then=self.typed_move_played)

    @staticmethod
    def take_sent(message: Input.Submitted) -> None:
        """The box emptied of the text sent; keys typed after the Enter stay for the next move."""
        box = message.input
        if isinstance(box, MoveInput):
            box.take(message.value, message.time)
        else:
            box.value = ""

    def typed_move_played(self) -> None:
        """A typed move went in: the move box keeps the keys, on every board, so the next word typed
        is a move, never shortcut keys (a Tafl board's ``hjkl``) nor an Enter on the highlighted
        option. Escape or a click leaves it."""

    def typed_dice(self, chance: Chance, text: str) -> None:
        """Dice thrown on a real table, as typed: checked (how many, what range) before they count."""
        r = self.runner
        try:
            if not text:
                raise RulesError(dice_prompt(chance))
            step = r.type_outcome(parse_outcome(chance, text))  # type: ignore[arg-type]
        except RulesError as err:
            self.show_error(str(err))
            return
        self.show_error("")
        self.record(step, tell(r.game, chance, step.value), chance)
        self.go_on()

    # -- actions -----------------------------------------------------------------

    def action_focus_input(self) -> None:
        """`t`: the move box, at once, so the keys typed right after go there. In a text box
        (this one, the map's finder) `t` is a letter."""
        if isinstance(self.focused, Input):
            raise SkipAction()
        self.set_focus(self.query_one("#move-input", Input))

    def action_focus_options(self) -> None:
        """`o`: the options, at once (a letter in a text box)."""
        if isinstance(self.focused, Input):
            raise SkipAction()
        self.set_focus(self.query_one("#options", OptionsPane))

    def focus_start(self) -> None:
        """Where the keys go first: a board that takes them whole (a grid's cursor), else the options."""
        board = self.board
        if board is not None and board.can_focus:
            board.focus()
        else:
            self.query_one("#options", OptionsPane).focus()

    def action_focus_board(self) -> None:
        """Escape: the board, or the first part of it that takes keys (a map's cursor, and so the
        board's own keys), else the options."""
        board = self.board
        inside = None if board is None else next((w for w in self.focus_chain if board in w.ancestors), None)
        if board is not None and not board.can_focus and inside is not None:
            inside.focus()
        else:
            self.focus_start()

    async def action_takeback(self) -> None:
        r = self.runner
        if not r.people:
            self.show_error("takeback is for games with a human player")
            return
        await self.halt()
        self.generation += 1
        self.skip_frames()
        several = len(r.people) > 1
        try:
            undone = r.takeback(self.view_seat() if several else None)
        except (RecordError, RulesError, OSError) as err:
            undone, problem = 0, f"cannot take back: {err}"
        else:
            problem = ("nothing of yours to take back: another person has decided, or dice or a card "
                       "have been seen since" if several else "nothing to take back")
        self.halted = False
        self.skipping = False
        if not undone:
            self.show_error(problem)
            self.advance()
            return
        del self.entries[len(r.history):]
        self.worded.clear()  # worded again from the steps kept
        self.over_shown = False
        self.note(f"[i]took back {undone} move(s)[/i]")
        self.show_error("")
        self.refresh_all()
        self.advance()

    def action_skip(self) -> None:
        """Run at speed 0 up to the next decision a person here must make (or typed dice), then
        back to the pace set."""
        r = self.runner
        if r.waiting is not None and self.frame is None and not self.frames_due:
            self.show_error("it is for a person here to answer now")
            return
        if r.result is not None and self.frame is None:
            return
        self.skipping = True
        self.skip_frames()
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
        # ...and let go of the record (its writer's lock), as the process's end would: an app torn down
        # and made again in one process (a test, an embedding program) then finds the game to continue.
        # Nothing writes after this: a search still running has its answer dropped (halted).
        self.runner.close()

    def game_over(self) -> None:
        if self.over_shown:
            return
        self.over_shown = True
        r = self.runner
        assert r.result is not None and r.path is not None
        if not r.gi.perfect_information:  # kept until now: it deals every card again
            self.note(Text(visible(f"the game is over: it was seed {r.header.seed}"), style="dim"))
        self.app.push_screen(GameOverDialog(r.result, tuple(r.game.seats), r.path, self.score_word),
                             self._after_game_over)

    def _after_game_over(self, choice: Path | str | None) -> None:
        if isinstance(choice, Path):
            self.note(escape(visible(f"record saved: {choice}")))
        elif choice == REMATCH:
            self.runner.close()
            self.app.rematch(self.runner.header, self.runner.games)  # type: ignore[attr-defined]
        elif choice == REVIEW:
            path = self.runner.path
            self.runner.close()
            self.app.pop_screen()
            if path is not None:
                self.app.open_record(path)  # type: ignore[attr-defined]

    # -- the command palette's commands ------------------------------------------------

    def commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """This game's commands for the command palette (name, help, callback): resign, takeback,
        a seat handed to the AI or taken back, save as, play from here, and the board's own."""
        r = self.runner
        out: list[tuple[str, str, Callable[[], Any]]] = []
        going = r.result is None
        if going and self.resigner() is not None:
            out.append(("Resign", "Give up this game: every other seat wins", self.action_resign))
        if r.people:
            out.append(("Takeback", "Take back your last move (u)", self.action_takeback))
        if going:
            specs = r.gi.seat_specs(r.header.variant)
            for seat, name in enumerate(r.game.seats):
                kinds = specs[seat].kinds if seat < len(specs) else ()
                if "ai" in kinds and "human" in kinds:
                    if r.seat_kind(seat) == "human":
                        out.append((f"Hand {name} to the AI", f"The AI plays {name} from now on",
                                    lambda seat=seat: self.reseat(seat, "ai")))  # type: ignore[misc]
                    elif r.seat_kind(seat) == "ai":
                        out.append((f"Take {name} back from the AI", f"You play {name} from now on",
                                    lambda seat=seat: self.reseat(seat, "human")))  # type: ignore[misc]
        out.append(("Save as", "Save a copy of this game's record under a name", self.action_save_as))
        if going:
            out.append(("Play from here", "A new game from this position, set up first", self.action_play_from_here))
        board_commands = getattr(self.board, "commands", None)
        if callable(board_commands):
            out += board_commands()
        return out

    def resigner(self) -> int | None:
        """The seat that would resign: the one person's, or in hot seat the deciding person's."""
        people = self.runner.people
        point = self.runner.point
        if len(people) == 1:
            return people[0]
        return point.seat if isinstance(point, Decision) and point.seat in people else None

    def action_resign(self) -> None:
        seat = self.resigner()
        if seat is None or self.runner.result is not None:
            self.show_error("nobody here can resign now")
            return
        name = self.runner.game.seats[seat]

        async def done(yes: bool | None) -> None:
            if not yes:
                return
            await self.halt()
            self.generation += 1
            self.skip_frames()
            try:
                self.runner.resign(seat)
            except (RulesError, OSError) as err:
                self.show_error(f"cannot resign: {err}")
            self.halted = False
            self.advance()  # the game is over: the dialog

        self.app.push_screen(ConfirmDialog(f"Resign for {name}? The other side wins."), done)

    async def reseat(self, seat: int, kind: str) -> None:
        """Hand ``seat`` to the AI or take it back, mid-game (the record says so from then on)."""
        await self.halt()
        self.generation += 1
        self.skip_frames()
        try:
            self.runner.reseat(seat, SeatPlan(kind))
        except (RecordError, RulesError, OSError) as err:
            self.show_error(f"cannot hand over {self.runner.game.seats[seat]}: {err}")
        else:
            name = self.runner.game.seats[seat]
            self.note(
                Text(visible(f"{'the AI' if kind == 'ai' else 'a person'} plays {name} from here"), style="italic"))
            self.show_error("")
        self.paced = self.runner.gi.has_chance or len(self.runner.people) < len(self.runner.plans)
        self.refresh_bindings()  # skip and speed come and go with the AI
        self.halted = False
        self.skipping = False
        self.refresh_all()
        self.advance()

    def action_save_as(self) -> None:
        path = self.runner.path
        if path is None:
            return

        def saved(where: Path | None) -> None:
            if where is not None:
                self.note(escape(visible(f"record saved: {where}")))

        self.app.push_screen(SaveDialog(path), saved)

    def action_play_from_here(self) -> None:
        """A new game from this position: the setup form, prefilled, comes first (this game stays)."""
        self.app.setup_from(self.runner.header, list(self.runner.history), self.runner.games)  # type: ignore[attr-defined]
