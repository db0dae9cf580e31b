"""The play screen, for any game: a view of its play driver (notation/driver.py), which owns the
game in play: the pace of bots, AI and chance, the units of a bot round, the AI's search (in a
process of its own, notation/ai_process.py), hand-overs, takeback, resignation and reseating.
The screen draws what the driver tells it: a status line, the game's board (its plugin's) or else
its text view, the options pane, typed input, the move list and the event log.

People choose in the options pane, on the board, or by typing; dice thrown on a real table are
typed. A key made before the question on the screen was shown is never applied to it.

Hot seat: with two or more people, the table shows the view of the person at the keyboard; before
another person decides, a hand-over screen covers it and the board is drawn for no seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, cast

from rich.markup import escape
from rich.text import Text
from textual import getters, on
from textual.actions import SkipAction
from textual.events import Key
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, RichLog, Static

from core.engine import Chance, Code, Decision, Event, RulesError
from core.visibility import events_seen
from core.visibility import warning as warning_for
from notation.driver import SPEEDS, Note, PlayDriver
from notation.format import Header
from notation.runner import Runner
from notation.table_dice import dice_example, dice_prompt, parse_outcome
from notation.wording import visible, winners_text
from tui.widgets.keys_footer import KeysFooter, board_keys, renamed, with_bindings
from tui.app import FiefdomApp
from tui.games import plugin, position_text
from tui.screens.dialogs import REMATCH, REVIEW, ConfirmDialog, GameOverDialog, HandOverScreen, SaveDialog
from tui.widgets.options import EARLY, BoardWidget, ChoiceRefused, MoveInput, OptionChosen, OptionsPane, now
from tui.widgets.side_panes import SidePanes, TableKeys, event_line, per_line, record_text, shorten
from tui.widgets.redraw import same, set_content

STATUS_LAST = 24  # the last step in the status line, cut to leave room for who decides


def shown(event: Event) -> str:
    """An event as the log shows it, its text and rule made visible (a resumed record, a user's data)."""
    return event_line(replace(event, text=visible(event.text), rule=visible(event.rule)))


def note_text(note: Note) -> Text:
    return Text(note.text, style=note.style)


class PlayScreen(TableKeys, Screen):
    """A view of a :class:`~notation.driver.PlayDriver`: it draws what the driver tells it and hands
    it what the people here choose."""

    BINDINGS = [
        # Priority: the keys typed right after `t` or `o` go where it sends them, not to the widget
        # that had the focus when they were read (they are routed before a plain binding runs).
        Binding("t", "focus_input", "Type move", id="play.type", priority=True),
        Binding("o", "focus_options", "Options", id="play.options", priority=True),
        # Escape leaves a text box for the board; said in the footer only while a box has the keys.
        Binding("escape", "leave_box", "Leave the box", id="play.leave_box"),
        Binding("escape", "focus_board", "Board", show=False, id="play.board"),
        Binding("e", "logs", "Log", id="play.logs"),
        Binding("u", "takeback", "Takeback", id="play.takeback"),
        Binding("n", "skip", "Skip", id="play.skip"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False, id="play.faster"),
        Binding("minus", "speed(1)", "Slower", show=False, id="play.slower"),
        Binding("question_mark,f1", "app.help", "Help", id="play.help"),
        Binding("q", "leave", "Home", id="play.home"),
    ]
    app = getters.app(FiefdomApp)  # the app a rematch or a review opens in
    # Nothing is focused by Textual after compose: focus_start chooses where the keys go first (the
    # first focusable widget would be a board's pane, which a compact board then hides and passes on).
    AUTO_FOCUS = ""

    def __init__(self, runner: Runner) -> None:
        super().__init__()
        self.driver = PlayDriver(runner, self)
        self.driver.think_apart()  # an AI's search never holds the interpreter this screen needs
        self.board_class = plugin(runner.header.game).load("board")
        # The board's pane keys work wherever the focus is (the footer shows them).
        extra = board_keys(self.board_class, set(self._bindings.key_to_bindings))
        self._bindings = with_bindings(self._bindings, extra, after="play.options")
        self.score_word = runner.gi.score_word
        self.begin_drawing()

    def begin_drawing(self) -> None:
        """What the screen keeps of what it drew (a hosted game's screen sets it up too)."""
        self.worded: dict[int | None, list[str]] = {}  # the move list as each seat shown reads it
        self.log_viewer: int | None = None  # the seat the event log is written for
        self.log_width = 0  # the width the event log's lines were wrapped at
        self.handing_over: int | None = None  # hot seat: the seat the hand-over screen waits for
        self.asked: object = None  # the typed chance last asked for (the input is focused once for it)
        # The question on the screen (the driver's key for it) and when it was first shown, on the
        # clock keys are stamped with: nothing made before is applied to it.
        self.question: tuple[int, int] | None = None
        self.question_at = float("inf")

    @property
    def runner(self) -> Runner:
        return self.driver.runner

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            wide = self.board_class is None or self.board_class.wide
            with Vertical(id="board-pane", classes="wide" if wide else ""):
                if self.board_class is not None:
                    # Drawn for no seat until the screen knows who is at the keyboard (hot seat).
                    yield self.board_class(self.runner.game, self.driver.solo_seat(), True, id="board")
                else:
                    with VerticalScroll(id="position-scroll"):
                        yield Static(id="position")
            with Vertical(id="side"):
                yield Static("Options", id="options-title", classes="pane-title")
                yield OptionsPane(id="options")
                yield MoveInput(placeholder="type a move", id="move-input", compact=True)
                yield Static("", id="error")
                yield SidePanes("Events", id="logs")
        yield KeysFooter()

    @property
    def drawn(self) -> bool:
        """Whether the table is composed (a hosted game's comes with the host's first table)."""
        return True

    def on_mount(self) -> None:
        if self.app.launched is self:  # opened by a command (fiefdom join URL): q goes back to the shell
            self._bindings = renamed(self._bindings, "play.home", "Quit")
        if self.drawn:
            self.log_viewer = self.view_seat()
            self.rewrite_log()
            self.focus_start()
        self.driver.start()  # draws the table (focusing the move box when dice from the table are due)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Skip and speed only where something plays by itself (not two people at a Tafl board);
        the switch of moves and events only when they take turns."""
        if action in ("skip", "speed"):
            return self.driver.paced
        if action == "leave_box":
            return isinstance(self.focused, Input)
        return self.table_check(action, parameters)

    def on_screen_resume(self) -> None:
        """Back from help or a dialog: a hand-over that fell due meanwhile is shown now."""
        if self.handing_over is None and self.drawn:
            self.refresh_all()

    # -- the driver's view (notation.driver.DriverView) -------------------------------------

    def later(self, delay: float, then: Callable[[], None]) -> None:
        if not self.is_attached:
            return
        if delay:
            self.set_timer(delay, lambda: then() if self.is_attached else None)
        else:
            self.call_after_refresh(lambda: then() if self.is_attached else None)

    def changed(self) -> None:
        if self.is_attached:  # from on_mount on (its widgets are composed), until the screen is gone
            self.refresh_all()

    def logged(self, events: Sequence[Event]) -> None:
        """Events to the log, as the seat it is written for may read them."""
        log = self.query_one("#events", RichLog)
        for e in events_seen(list(events), self.log_viewer):
            log.write(shown(e))

    def noted(self, note: Note) -> None:
        self.query_one("#events", RichLog).write(note_text(note))

    def problem(self, text: str) -> None:
        self.show_error(text)

    def over(self) -> None:
        r = self.runner
        assert r.result is not None and r.path is not None
        self.app.push_screen(GameOverDialog(r.result, tuple(r.game.seats), r.path, self.score_word),
                             self._after_game_over)

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
        entries = self.driver.entries
        words = self.worded.setdefault(seat, [])
        if len(words) > len(entries):  # steps taken back
            self.worded.clear()
            words = self.worded.setdefault(seat, [])
        words += [record_text(e.told.to(seat), events_seen(e.events, seat)) for e in entries[len(words):]]
        return words

    def view_seat(self) -> int | None:
        return self.driver.view_seat()

    def hand_over_due(self) -> int | None:
        return self.driver.hand_over_due()

    def seed_line(self) -> Text:
        """The game and its seed, to play it again; a game with hidden information keeps its seed
        until it is over (the seed deals every card again)."""
        h, r = self.runner.header, self.runner
        secret = not r.gi.perfect_information and r.result is None
        return Text(visible(f"{h.game} {h.variant}" + ("" if secret else f", seed {h.seed}")), style="dim")

    def note(self, line: str, style: str = "italic") -> None:
        """A line of our own in the event log (a saved record), kept when it is written again."""
        self.driver.note(line, style)

    def rewrite_log(self) -> None:
        """The event log written again for the seat shown: every step's events as it may read them."""
        log = self.query_one("#events", RichLog)
        log.clear()
        seat = self.log_viewer
        log.write(self.seed_line())
        notes = iter(self.driver.notes)
        pending = next(notes, None)
        for n, info in enumerate(self.driver.entries):
            while pending is not None and pending.after <= n:
                log.write(note_text(pending))
                pending = next(notes, None)
            for e in events_seen(info.events, seat):
                log.write(shown(e))
        while pending is not None:
            log.write(note_text(pending))
            pending = next(notes, None)

    def hand_over(self, seat: int) -> None:
        """Cover the table until ``seat``'s person is at the keyboard: first every private thing
        is drawn for no seat, then the (opaque) hand-over screen goes on top."""
        self.driver.viewer = None
        self.handing_over = seat
        self.show_error("")
        self.app.push_screen(HandOverScreen(self.runner.game.seats[seat]), lambda ready: self.handed_over(seat, ready))

    def handed_over(self, seat: int, ready: bool | None) -> None:
        self.handing_over = None
        if ready is False:
            self.run_worker(self.action_leave(), exclusive=False)
            return
        self.driver.viewer = seat
        self.refresh_all()
        self.focus_start()

    # -- display -----------------------------------------------------------------

    def refresh_all(self) -> None:
        d, r = self.driver, self.runner
        due = d.hand_over_due()
        if due is not None:
            d.viewer = None  # nothing of the last person's view stays under the hand-over screen
        waiting = r.waiting
        decision = waiting if isinstance(waiting, Decision) and d.question() is not None else None
        self.mark_question(decision)
        dice = waiting if isinstance(waiting, Chance) and d.frame is None else None
        seat = self.view_seat()
        game = d.frame if d.frame is not None else r.game
        board = self.board
        if board is not None:
            cast(BoardWidget, board).show(game, seat, decision is not None)  # a plugin's board class is one
        else:
            set_content(self.query_one("#position", Static), escape(position_text(game, seat)))
        options = self.query_one("#options", OptionsPane)
        idle = ("the game is over" if r.result else f"{dice_prompt(dice)} in the box below, then Enter" if dice
                else "nobody here is to choose")
        options.show(r.game, decision, idle=idle, since=self.question_at)
        title = decision.prompt if decision else "Dice from the table" if dice else "Options"
        prompt, words = self.query_one("#options-title", Static), Text(visible(title))
        if not same(prompt.content, words):
            prompt.update(words)
            # The prompt's lines move what is below it: the side column is drawn whole once laid
            # out again (a terminal kept a row of the events' title there, under the move box).
            self.call_after_refresh(self.query_one("#side").refresh)
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
        set_content(self.query_one("#status", Static), self.status_text())
        if due is not None and self.handing_over is None and self.is_current:
            self.hand_over(due)

    def status_text(self) -> Text:
        """The status line as plain text with bold names: every part may come from a record or a user's
        data file, so it is made visible and never read as markup. When the line is too long for the
        screen the last step gives way first, then the pace (who decides stays)."""
        d, r = self.driver, self.runner
        records = self.records
        result = r.result
        pace = (" · skipping ahead (n)" if d.skipping else f" · speed {SPEEDS[d.speed]:g}s (+/-)") \
            if d.paced else ""
        point = r.point
        if result is not None and d.frame is None:
            pace = ""
            tail = Text.assemble((winners_text(result, r.game.seats), "bold"), ": ",
                                 visible(f"{result.reason} [{result.rule}]"))
        elif d.frame is not None:
            tail = Text("following the play, unit by unit (n skips)")
        elif isinstance(point, Chance):
            label = point.label or point.kind
            tail = Text(visible(f"type the dice: {label}" if r.waiting is not None else f"chance: {label}"))
        else:
            assert isinstance(point, Decision)
            kind = r.seat_kind(point.seat)
            doing = self.move_word(point.seat) if kind == "human" else "thinking…"
            if point.kind != "action":
                doing += f" ({point.kind})"
            tail = Text.assemble((visible(r.game.seats[point.seat]), "bold"), f" ({kind}) {doing}")
        head = visible(f"{r.header.game} {r.header.variant} · step {len(records) + 1}")
        width = (self.size.width or 120) - 2
        if result is not None and d.frame is None and len(head) + 3 + len(tail.plain) > width:
            tail.truncate(max(width - len(head) - 3, 8), overflow="ellipsis")  # the whole result is in the log
        if len(head) + len(" · ") + len(tail.plain) + len(pace) > width:
            pace = ""
        room = width - len(head) - len(tail.plain) - len(pace) - len(" · last:  · ")
        if not records:
            last = " · nothing played yet" if room >= len("nothing played yet") - len("last: ") else ""
        elif room >= 8:
            last = f" · last: {shorten(records[-1], min(STATUS_LAST, room))}"
        else:
            last = ""
        return Text.assemble(head, last, " · ", tail, pace)

    def move_word(self, seat: int) -> str:
        """What the status line says of a person's turn (a hosted game's seat says whose)."""
        return "your move"

    def on_resize(self) -> None:
        if self.is_mounted and self.drawn:
            set_content(self.query_one("#status", Static), self.status_text())
            self.call_after_refresh(self.rewrap_log)

    def rewrap_log(self) -> None:
        """The event log written again when its width changed: a RichLog wraps a line as it is written."""
        log = self.query_one("#events", RichLog)
        if self.log_width and log.size.width != self.log_width:
            self.rewrite_log()
        self.log_width = log.size.width

    def show_error(self, text: str) -> None:
        set_content(self.query_one("#error", Static), Text(visible(text), style="red") if text else "")

    # Input goes where it was meant. Keys wait in a queue while the app is busy (the bots' steps),
    # and each is read by whatever has the focus when its turn comes; a person's key or typed move
    # is applied only to the question that was on the screen when it was made.

    def mark_question(self, decision: Decision | None) -> None:
        """Note the question shown now (None: none) and, when it is a new one, the time it appeared."""
        key = self.driver.question() if decision is not None else None
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
        why = self.driver.why_not_choose()
        if why is not None:
            self.show_error(why + held)
        return why is None

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
        if self.driver.play(code) and then is not None:
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
        d, r = self.driver, self.runner
        waiting = r.waiting
        if isinstance(waiting, Chance) and d.frame is None and not d.frames_due:  # dice from a table
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
        try:
            outcome = parse_outcome(chance, text)
        except RulesError as err:
            self.show_error(str(err))
            return
        self.driver.type_dice(outcome)

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

    def action_leave_box(self) -> None:
        self.action_focus_board()

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
        await self.driver.takeback()

    def action_skip(self) -> None:
        self.driver.skip()

    def action_speed(self, delta: int) -> None:
        self.driver.set_speed(delta)

    async def action_leave(self) -> None:
        await self.driver.leave()
        self.app.leave_screen(self)

    def on_unmount(self) -> None:
        # The app is closing: stop any search in progress and let go of the record (its writer's
        # lock), as the process's end would: an app torn down and made again in one process (a
        # test, an embedding program) then finds the game to continue.
        self.driver.close()

    def _after_game_over(self, choice: Path | str | None) -> None:
        if isinstance(choice, Path):
            self.note(f"record saved: {choice}", "")
        elif choice == REMATCH:
            self.driver.close()
            self.app.rematch(self.runner.header, self.runner.games)
        elif choice == REVIEW:
            path = self.runner.path
            self.driver.close()
            self.app.pop_screen()
            if path is not None:
                self.app.open_record(path)

    # -- the command palette's commands ------------------------------------------------

    def commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """This game's commands for the command palette (name, help, callback): resign, takeback,
        a seat handed to the AI or taken back, save as, play from here, and the board's own."""
        r = self.runner
        out: list[tuple[str, str, Callable[[], Any]]] = []
        going = r.result is None
        if going and self.driver.resigner() is not None:
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
                                    partial(self.reseat, seat, "ai")))
                    elif r.seat_kind(seat) == "ai":
                        out.append((f"Take {name} back from the AI", f"You play {name} from now on",
                                    partial(self.reseat, seat, "human")))
        out.append(("Save as", "Save a copy of this game's record under a name", self.action_save_as))
        if going:
            out.append(("Play from here", "A new game from this position, set up first", self.action_play_from_here))
        board_commands = getattr(self.board, "commands", None)
        if callable(board_commands):
            out += board_commands()
        return out

    def action_resign(self) -> None:
        seat = self.driver.resigner()
        if seat is None or self.runner.result is not None:
            self.show_error("nobody here can resign now")
            return
        name = self.runner.game.seats[seat]

        async def done(yes: bool | None) -> None:
            if yes:
                await self.driver.resign(seat)

        self.app.push_screen(ConfirmDialog(f"Resign for {name}? The other side wins."), done)

    async def reseat(self, seat: int, kind: str) -> None:
        """Hand ``seat`` to the AI or take it back, mid-game (the record says so from then on)."""
        await self.driver.reseat(seat, kind)
        self.refresh_bindings()  # skip and speed come and go with the AI

    def action_save_as(self) -> None:
        path = self.runner.path
        if path is None:
            return

        def saved(where: Path | None) -> None:
            if where is not None:
                self.note(f"record saved: {where}", "")

        self.app.push_screen(SaveDialog(path), saved)

    def action_play_from_here(self) -> None:
        """A new game from this position: the setup form, prefilled, comes first (this game stays)."""
        self.app.setup_from(self.runner.header, list(self.runner.history), self.runner.games)
