"""The replay viewer for any game: the game's board (its plugin's, not interactive) or its
text view, a timeline, and the moves and events of the step shown. "Play from here" starts
a new game in the autosave folder with the record's steps up to the one shown.

Opening and stepping cost the same whatever the record's length: a long record
(``tui.session.LongRecord``) shows its start position at once and is read, replayed and
verified in a worker thread; the move list of a long record is a window of lines around
the current step, its texts derived when drawn.

An event cursor walks a step's events (and on into the next step's); a game's landmarks
(its plugin's ``landmarks``) are keys that jump to the next or previous event of some kinds,
found through the replay's per-block index of event kinds, so a jump replays at most a
block or two whatever the record's length."""

from __future__ import annotations

import time
from pathlib import Path
from typing import cast

from rich.markup import escape
from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from core.engine import TABLE, Chance, Decision, Event, Game, Over, Viewer
from notation.catalog import build_game
from notation.format import Header
from notation.replay import Replay
from notation.play_from import from_here
from notation.verify import VerifyReport
from notation.visitor import viewer_name
from notation.wording import visible
from notation.analysis import Progress, analyse, default_seats, keep_analysis
from notation.analysis_words import line_words, said
from notation.annex import AnnexLimits, Analysis, Judged, Note, add_note
from notation.format import RecordError
from tui.screens.replay_review import by_step, graph_data, judged_lines, mark_markup, note_lines
from tui.widgets.eval_graph import EvalGraph
from tui.widgets.keys_footer import KeysFooter, board_keys, with_bindings
from tui.app import FiefdomApp
from tui.games import plugin, position_text
from tui.screens.dialogs import NoteDialog, PickDialog, StepDialog, ViewDialog
from tui.screens.play import SPEEDS
from tui.session import LongRecord
from tui.widgets.options import BoardWidget
from tui.widgets.side_panes import SidePanes, TableKeys, event_line, record_text

WHOLE_LIST = 500  # a move list of up to this many lines is drawn whole
WINDOW = 60  # else this many lines around the current step
MARGIN = 10  # the window moves when the current step comes this near its edge
TEXTS_KEPT = 4096  # move texts remembered (a window's worth many times over)
SLICE = 0.02  # seconds of reading a long record between frames
GRAPH_TALL_FROM = 30  # terminal rows from which the evaluation graph takes its full height
NOTE_SIGN = " [dim]✎[/]"  # after a move the record has a note on

Landmark = tuple[str, str, tuple[str, ...]]  # (key, title, event kinds): a plugin's landmarks


class ReplayScreen(TableKeys, Screen):
    BINDINGS = [
        Binding("left", "step(-1)", "Back", id="replay.back"),
        Binding("right", "step(1)", "Forward", id="replay.forward"),
        Binding("down,full_stop", "event(1)", "Next event", id="replay.next_event"),
        Binding("up,comma", "event(-1)", "Previous event", show=False, id="replay.previous_event"),
        Binding("home", "jump(0)", "Start", show=False, id="replay.start"),
        Binding("end", "jump(-1)", "End", show=False, id="replay.end"),
        Binding("g", "goto", "Go to", id="replay.goto"),
        Binding("space", "autoplay", "Play/pause", id="replay.autoplay"),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False, id="replay.faster"),
        Binding("minus", "speed(1)", "Slower", show=False, id="replay.slower"),
        Binding("p", "play_from_here", "Play from here", id="replay.play_from_here"),
        Binding("a", "analyse", "Analyse", id="replay.analyse"),
        Binding("w", "note", "Note", show=False, id="replay.note"),  # in help and the palette: the footer keeps to two lines at 80 columns
        Binding("b", "variations", "Variations", show=False, id="replay.variations"),
        Binding("right_square_bracket", "marked(1)", "Next mistake", show=False, id="replay.next_mistake"),
        Binding("left_square_bracket", "marked(-1)", "Previous mistake", show=False, id="replay.previous_mistake"),
        Binding("v", "choose_view", "View", id="replay.view"),
        Binding("e", "logs", "Log", id="replay.logs"),
        Binding("question_mark,f1", "app.help", "Help", id="replay.help"),
        Binding("q,escape", "leave", "Close", id="replay.close"),
    ]
    app = getters.app(FiefdomApp)  # the app "play from here" starts a game in

    def __init__(self, source: Replay | LongRecord, path: Path) -> None:
        super().__init__()
        self.path = path
        self.event = 0  # the event cursor: an index in the current step's events
        self.landmarks: tuple[Landmark, ...] = tuple(plugin(source.header.game).load("landmarks") or ())
        self.landmark_bindings = landmark_bindings(self.landmarks, set(self._bindings.key_to_bindings))
        self._bindings = with_bindings(self._bindings, self.landmark_bindings, after="replay.next_event")
        self.board_class = plugin(source.header.game).load("board")
        # The board's pane keys, where the viewer has not taken the key (Taifa's `c` is the next fight).
        self._bindings = with_bindings(self._bindings, board_keys(
            self.board_class, set(self._bindings.key_to_bindings), ("pane",)), after="replay.view")
        self.replay: Replay | None = None  # None while a long record is being read
        self.report: VerifyReport | None = None
        self.opening = source if isinstance(source, LongRecord) else None
        self.header: Header = source.header
        self.step = 0
        self.last = 0
        self.speed = 2
        self.timer: Timer | None = None
        # The point of view (DESIGN.md, "The information wall"): a game where every seat sees all
        # is shown as a spectator sees it; any other opens on the full table once it is known to be
        # over, or asks whose view to show for a game still in play (see _choose_first_view).
        self.hidden = not source.games(source.header.game).perfect_information
        self.viewer: Viewer = None
        self.view_asked = False
        self.per_line = 1
        self._texts: dict[int, str] = {}  # step -> its text in the move list
        self._window = 0  # the first line of the move list's window
        self._progress: tuple[str, float] = ("reading", 0.0)  # how far a long record is read
        # The review (issue 31): the record's analysis and notes (its annex), a background analysis.
        self.reviewable = source.games(source.header.game).reviewer is not None
        self.analysis: Analysis | None = None
        self.judged: dict[int, Judged] = {}
        self.notes: tuple[Note, ...] = ()
        self.analysing: Progress | None = None  # how far the analysis running in the background is
        self.stop_analysis = False
        self.analysis_seconds: float | None = None  # work per decision (None: the game's default)
        if isinstance(source, Replay):
            self._ready(source)

    def _ready(self, replay: Replay) -> None:
        """The record is read: it opens at the first step that differs, if one does."""
        self.replay, self.opening = replay, None
        self.report = replay.verify()
        self.last = replay.steps
        bad = self.report.first_bad_step
        self.step = min(bad, self.last) if bad is not None else 0
        seats = len(replay.seat_names)
        self.per_line = 2 if seats == 2 and all(kind == "decision" for kind, _ in replay.movers()) else 1
        annex = replay.recording.annex
        if annex is not None:
            self.notes = annex.notes
            self.set_analysis(annex.analysis)

    def start_state(self) -> Game:
        """The position shown: the step's, or while a long record is read, its start."""
        if self.replay is not None:
            return self.replay.state_at(self.step)
        assert self.opening is not None
        return build_game(self.header, self.opening.games)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            wide = self.board_class is None or self.board_class.wide
            with Vertical(id="board-pane", classes="wide" if wide else ""):
                # The viewer's arrows step through the record; the board only shows it.
                if self.board_class is not None:
                    yield self.board_class(self.start_state(), None, False, id="board")
                else:
                    with VerticalScroll(id="position-scroll"):
                        yield Static(id="position")
                yield Static(id="timeline")
            yield SidePanes("Events of this step", id="side")
        if self.reviewable:
            # Clicked to jump; the viewer's own keys step (a focused graph would take the arrows).
            graph = EvalGraph(id="graph", classes="empty")
            graph.can_focus = False
            yield graph
        yield KeysFooter()

    def on_mount(self) -> None:
        self.draw_graph()
        if self.opening is not None:
            self._loading = self.opening.loading()
            self.set_timer(SLICE, self._read)  # once the start is drawn
        else:
            self._tell_verdict()
        self.show_step()
        self._choose_first_view()

    # -- the point of view ----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The choice of view only where a view hides anything (not on a Tafl board)."""
        return self.hidden if action == "choose_view" else self.table_check(action, parameters)

    def views(self) -> list[tuple[Viewer, str]]:
        """Every point of view, with its title: each seat, a spectator, the full table."""
        names = self.replay.seat_names if self.replay is not None else tuple(s.name for s in self.header.seats)
        return [*((i, f"{name}'s view") for i, name in enumerate(names)),
                (None, "a spectator's view (public)"), (TABLE, "the full table: every hand, every deck's order")]

    def _choose_first_view(self) -> None:
        """A finished game with hidden information opens on the full table; one still in play asks
        whose view to show (its cards may still matter to someone)."""
        if not self.hidden or self.replay is None or self.view_asked:
            return
        self.view_asked = True
        if self.replay.recording.result is not None or self.replay.result is not None:
            self.set_view(TABLE)
        else:
            # Escape keeps a spectator's view: the one that shows nobody's secrets.
            self.app.push_screen(ViewDialog(self.views(), "This game is still in play: whose view?"), self.chosen)

    def chosen(self, view: tuple[Viewer, str] | None) -> None:
        if view is not None:
            self.set_view(view[0])

    def view_words(self) -> str:
        """`` · view: Leon``: whose view the timeline's step is shown from (``v`` chooses; markup, made
        visible); ``table`` for the full table."""
        if not self.hidden:
            return ""
        seats = self.replay.seat_names if self.replay is not None else tuple(s.name for s in self.header.seats)
        name = "table" if self.viewer == TABLE else viewer_name(self.viewer, seats)
        return escape(visible(f" · view: {name}"))

    def set_view(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self._texts.clear()
        self.show_step()

    def action_choose_view(self) -> None:
        if self.replay is None:
            return
        self.app.push_screen(ViewDialog(self.views()), self.chosen)

    def on_resize(self) -> None:
        """The events wrapped again at the new width, the cursor's kept in view; the graph lower on a
        short terminal (the board keeps the room: 80x24 has 14 rows under the status line)."""
        for graph in self.query(EvalGraph):
            graph.set_class(self.size.height < GRAPH_TALL_FROM, "short")
        if self.replay is not None and self.report is not None and self.is_mounted:
            self._show_events(same_step=True)

    def _read(self) -> None:
        """Read, replay and verify a long record a slice at a time, between frames."""
        from notation.format import RecordError

        if not self.is_attached:
            return
        start = time.perf_counter()
        try:
            while time.perf_counter() - start < SLICE:
                self._progress = next(self._loading)
        except StopIteration as done:
            self._ready(done.value)
            self.draw_graph()
            self._tell_verdict()
            self.show_step()
            self._choose_first_view()
            return
        except (RecordError, OSError) as err:
            self._unreadable(err)
            return
        self.query_one("#timeline", Static).update(self._reading_line())
        self.set_timer(0.001, self._read)

    def _reading_line(self) -> str:
        what, done = self._progress
        return f"step 0/… · {what} the record, {done:.0%} · speed {SPEEDS[self.speed]:g}s"

    def _unreadable(self, err: Exception) -> None:
        self.app.notify(escape(visible(f"{self.path.name}: {err}")), severity="error", timeout=10)
        if self.app.screen is self:
            self.app.pop_screen()

    def _tell_verdict(self) -> None:
        warning = self.replay.recording.annex_warning if self.replay is not None else ""
        if warning:  # the record reads; its notes and analysis do not (docs/replay-format.md, 13)
            self.notify(escape(visible(f"notes and analysis not read: {warning}")), severity="warning", timeout=10)
        if self.report is not None and not self.report.ok:
            self.notify(escape(visible(f"verify failed: {self.report.message}")), severity="error", timeout=10)
        elif self.report is not None and self.report.note:  # chance not derived from a seed: said, not hidden
            self.notify(escape(f"verified; {self.report.note}"), severity="warning", timeout=10)

    @property
    def board(self) -> Widget | None:
        return self.query_one("#board") if self.board_class is not None else None

    def show_step(self) -> None:
        replay = self.replay
        if replay is None or self.report is None:
            self._show(self.start_state())
            self.query_one("#timeline", Static).update(self._reading_line())
            self.query_one(SidePanes).show_moves([], 0, per_line=1)
            self.query_one(SidePanes).show_events(["start position"])
            return
        # The move list's texts up to this step first, then the position, then the rest: walking
        # the window in order, the replay applies each record once.
        per, first, end = self.per_line, *self._move_window()
        texts = [self._text(n) for n in range(first * per + 1, min(self.step, end * per) + 1)]
        self._show(replay.state_at(self.step))
        texts += [self._text(n) for n in range(max(self.step + 1, first * per + 1), min(end * per, self.last) + 1)]
        report = self.report
        verdict = "[green]verified[/]" if report.ok else f"[red]differs at step {report.first_bad_step}[/]"
        if report.ok and report.given:
            verdict = f"[yellow]verified, {report.given} given[/]"  # the note on opening says what was given
        playing = " · playing" if self.timer else ""
        self.query_one("#timeline", Static).update(
            f"step {self.step}/{self.last} · {verdict}{self.view_words()}{playing}{self.analysing_words()}"
            f" · speed {SPEEDS[self.speed]:g}s")
        noted = {n.step for n in self.notes}
        marks = {n: mark_markup(self.judged.get(n)) + (NOTE_SIGN if n in noted else "")
                 for n in range(first * per + 1, min(end * per, self.last) + 1)}
        self.query_one(SidePanes).show_moves(texts, self.step, per_line=per, first_line=first, marks=marks)
        for graph in self.query(EvalGraph):
            graph.current = self.step
        judged = self.judged.get(self.step)
        suggest = getattr(self.board, "suggest", None)  # a board that can mark a move (Tafl's)
        if suggest is not None:
            suggest(judged.best if judged is not None and tuple(judged.best) != tuple(judged.played) else None)
        self._show_events()

    @property
    def events(self) -> list[Event]:
        """The current step's events, as the point of view shown may read them."""
        return self.events_of(self.step)

    def events_of(self, step: int) -> list[Event]:
        """Step ``step``'s events as the point of view shown may read them (none at the start)."""
        if self.replay is None or not step:
            return []
        return list(self.replay.step_record(step).seen_by(self.viewer).events)

    def _show_events(self, same_step: bool = False) -> None:
        """The step's events from the top, the one under the cursor highlighted and in view
        (the cursor kept within the step's events); then the step's comments."""
        assert self.replay is not None
        events = self.events
        self.event = max(0, min(self.event, len(events) - 1))
        lines = [event_line(e) for e in events] if self.step else ["start position"]
        lines += [f"[i]{escape(visible(c))}[/i]" for c in self.replay.comments_at(self.step)]
        lines += self.review_lines() + note_lines(self.notes, self.step)
        side = self.query_one(SidePanes)
        side.show_events(lines, self.event if events else None, same_step=same_step)
        side.set_events_title(f"Events of this step {self.event + 1}/{len(events)}" if len(events) > 1
                               else "Events of this step")

    def _show(self, state: Game) -> None:
        """The position on the board (or as text) and in the status line; the events log cleared."""
        board = self.board
        if board is not None:
            cast(BoardWidget, board).show(state, self.viewer, False)  # a plugin's board class is one
        else:
            self.query_one("#position", Static).update(escape(position_text(state, self.viewer)))
        h = self.header
        stands = where(state)
        resigned = self.report.result if self.report is not None and self.report.ok else None
        if resigned is not None and self.step == self.last and not isinstance(state.point(), Over):
            stands = f"result: {resigned.reason}"  # a seat resigned here (docs/replay-format.md)
        self.query_one("#status", Static).update(
            escape(visible(f"{h.game} {h.variant} · {stands} · replay {self.path.name}")))  # the file cut first

    def _move_window(self) -> tuple[int, int]:
        """The lines of the move list drawn, [first, end): all of them when the list is short,
        else ``WINDOW`` lines around the current step."""
        lines = -(-self.last // self.per_line)
        if lines <= WHOLE_LIST:
            return 0, lines
        line = max(self.step - 1, 0) // self.per_line
        first = self._window
        low = first + MARGIN if first > 0 else 0
        high = first + WINDOW - MARGIN if first + WINDOW < lines else lines
        if not low <= line < high:
            first = self._window = min(max(line - WINDOW // 2, 0), lines - WINDOW)
        return first, first + WINDOW

    def _text(self, n: int) -> str:
        text = self._texts.get(n)
        if text is None:
            assert self.replay is not None
            info = self.replay.step_record(n).seen_by(self.viewer)
            if len(self._texts) >= TEXTS_KEPT:
                self._texts.clear()
            text = self._texts[n] = record_text(info.text, info.events)
        return text

    def go(self, step: int, event: int = 0) -> None:
        """Show ``step`` with the cursor on its event ``event`` (clamped: -1 or more is its last)."""
        self.step, self.event = step, event
        self.show_step()

    def action_step(self, delta: int) -> None:
        if self.replay is None:
            return
        self.go(min(self.last, max(0, self.step + delta)))

    def action_jump(self, to: int) -> None:
        if self.replay is None:
            return
        self.go(self.last if to < 0 else to)

    def action_event(self, delta: int) -> None:
        """The cursor to the next (previous) event: past the step's last (first), on into the
        next step's first (the previous step's last)."""
        if self.replay is None:
            return
        to = self.event + delta
        if 0 <= to < len(self.events):
            self.event = to
            self._show_events(same_step=True)
        elif delta > 0 and self.step < self.last:
            self.go(self.step + 1)
        elif delta < 0 and self.step > 0:
            self.go(self.step - 1, len(self.events_of(self.step - 1)))

    def action_landmark(self, index: int, direction: int) -> None:
        """The cursor to the next (``direction`` 1) or previous (-1) event of the landmark's kinds:
        in this step first, else in the nearest step that has one."""
        replay = self.replay
        if replay is None or not 0 <= index < len(self.landmarks):
            return
        _, title, kinds = self.landmarks[index]
        events = self.events
        here = range(self.event + 1, len(events)) if direction > 0 else range(self.event - 1, -1, -1)
        found = next((i for i in here if events[i].kind in kinds), None)
        if found is not None:
            self.event = found
            self._show_events(same_step=True)
            return
        step = landmark_step(replay, self.step, kinds, direction)
        if step is None:
            self.notify(f"no {escape(title)} {'after' if direction > 0 else 'before'} step {self.step}", timeout=3)
            return
        marks = [i for i, e in enumerate(self.events_of(step)) if e.kind in kinds]
        self.go(step, marks[0] if direction > 0 else marks[-1])

    def extra_keys(self) -> list[tuple[str, list[Binding]]]:
        """The help's table of this game's landmark keys (tui/screens/help.py)."""
        return [(f"Replay ({self.header.game})", self.landmark_bindings)] if self.landmark_bindings else []

    def action_goto(self) -> None:
        if self.replay is None:
            return

        def done(n: int | None) -> None:
            if n is not None:
                self.go(n)

        self.app.push_screen(StepDialog(self.last), done)

    def action_autoplay(self) -> None:
        if self.replay is None:
            return
        if self.timer:
            self.timer.stop()
            self.timer = None
        else:
            if self.step >= self.last:
                self.step, self.event = 0, 0
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
        """A new game with this record's steps up to the one shown, set up first: the seat that decides next
        is yours, the others keep their kinds (a person's seat goes to the AI where it may)."""
        replay = self.replay
        if replay is None:
            return
        if replay.state_at(self.step).result is not None:
            self.notify("the game is over at this step", severity="warning")
            return
        header, steps = from_here(replay, self.step)  # notation/play_from.py
        self.app.setup_from(header, steps, replay.games)

    def action_leave(self) -> None:
        if self.timer:
            self.timer.stop()
        self.stop_analysis = True
        self.app.leave_screen(self)

    # -- the review: analysis, notes, variations (issue 31) --------------------------------------

    def set_analysis(self, analysis: Analysis | None) -> None:
        self.analysis = analysis
        self.judged = by_step(analysis)

    def draw_graph(self) -> None:
        """The analysis on the graph (the empty text when there is none)."""
        for graph in self.query(EvalGraph):
            if self.analysis is None or not self.analysis.decisions or self.replay is None:
                graph.clear()
                graph.add_class("empty")
                continue
            data = graph_data(self.analysis, self.replay.seat_names)
            graph.remove_class("empty")
            graph.set_data(data.series, data.y_range, data.marks, data.y_label, middle=data.middle,
                           last_step=self.last, value_format=data.value_format)
            graph.current = self.step

    def action_marked(self, direction: int) -> None:
        """To the next (``direction`` 1) or previous (-1) step the analysis marked (an inaccuracy, a
        mistake or a blunder), as lichess's review steps from mistake to mistake."""
        if self.replay is None:
            return
        marked = sorted(step for step, j in self.judged.items() if j.mark)
        ahead = [n for n in marked if n > self.step] if direction > 0 else [n for n in marked if n < self.step]
        if not ahead:
            words = "no analysis: a analyses the record" if self.analysis is None else \
                f"no marked move {'after' if direction > 0 else 'before'} step {self.step}"
            self.notify(words, timeout=3)
            return
        self.go(ahead[0] if direction > 0 else ahead[-1])

    def on_eval_graph_jump(self, message: EvalGraph.Jump) -> None:
        if self.replay is not None:
            self.go(max(0, min(self.last, message.step)))

    def review_lines(self) -> list[str]:
        """The review of the step shown: its mark, chances and the better choice (by name)."""
        judged = self.judged.get(self.step)
        if judged is None or self.replay is None or judged.seat >= len(self.replay.seat_names):
            return []
        if self.hidden and self.viewer not in (TABLE, judged.seat):
            return []  # the better choice may name the decider's cards: the full table's, or the decider's own
        before = self.replay.state_at(self.step - 1)
        played, best = said(before, judged.played), said(before, judged.best)
        line = line_words(before, judged.line) if tuple(judged.best) != tuple(judged.played) else ()
        return judged_lines(judged, self.replay.seat_names, played, best, line,
                            self.replay.games(self.header.game).score_word)

    def analysing_words(self) -> str:
        p = self.analysing
        return f" · analysing {p.done}/{p.total}" if p is not None else ""

    def action_analyse(self) -> None:
        """Analyse the record in the background (the seats people played, else all), in a process per
        core; what was judged is kept in the record (a finished one's annex) and drawn on the graph."""
        if self.replay is None or self.analysing is not None:
            return
        if not self.reviewable:
            self.notify(f"{self.header.game} has no reviewer", severity="warning")
            return
        self.stop_analysis = False
        self.analysing = Progress(0, 0)
        self.show_step()
        self.run_worker(self._analyse, thread=True, exclusive=True, group="analyse")

    def _analyse(self) -> None:
        replay = self.replay
        assert replay is not None
        try:  # the analysis reads a Replay of its own: the screen's belongs to the screen's thread
            analysis, whole = analyse(replay.recording, games=replay.games, seats=default_seats(replay.header),
                                      previous=self.analysis,
                                      seconds=self.analysis_seconds,
                                      progress=lambda p: self.app.call_from_thread(self._progressed, p),
                                      stop=lambda: self.stop_analysis)
        except Exception as err:  # noqa: BLE001 - one line on the screen, never a traceback
            self.app.call_from_thread(self._analysed, None, False, f"analysis failed: {err}")
            return
        said_ = ""
        if analysis.decisions:
            why = keep_analysis(self.path, replay.recording, analysis, replay.games)
            said_ = "kept in the record" if why is None else f"not kept in the record: {why}"
        self.app.call_from_thread(self._analysed, analysis, whole, said_)

    def _progressed(self, p: Progress) -> None:
        if self.analysing is not None and self.is_attached:
            self.analysing = Progress(p.done, p.total)
            self.show_step()

    def _analysed(self, analysis: Analysis | None, whole: bool, said_: str) -> None:
        self.analysing = None
        if not self.is_attached:
            return
        if analysis is not None:
            self.set_analysis(analysis)
            self.draw_graph()
            self._texts.clear()
        words = (f"analysed: {len(analysis.decisions)} decisions" if analysis is not None else "") + \
            ("" if whole else " (stopped)")
        self.notify(escape(visible(", ".join(w for w in (words, said_) if w))),
                    severity="information" if analysis is not None else "error")
        self.show_step()

    def action_note(self) -> None:
        """A note on the step shown, kept in the record (a finished one's annex)."""
        replay = self.replay
        if replay is None:
            return
        if replay.recording.result is None:
            self.notify("notes are kept in a finished record: this game is not over", severity="warning")
            return
        step = self.step

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                annex = add_note(self.path, step, text, games=replay.games)
            except (RecordError, OSError, ValueError) as err:
                self.notify(escape(visible(f"the note is not kept: {err}")), severity="error")
                return
            self.notes = annex.notes
            self.notify(f"note kept on step {step}")
            self.show_step()

        self.app.push_screen(NoteDialog(step, AnnexLimits.NOTE_BYTES), done)

    def action_variations(self) -> None:
        """The games played on from this record found beside it (or in the autosave folder, where "play
        from here" plays them), to open one (a study)."""
        from notation.variations import variations_of

        replay = self.replay
        if replay is None:
            return
        try:
            found = variations_of(self.path, games=replay.games, recording=replay.recording,
                                  also=[self.app.data_dir / "autosave"])
        except (RecordError, OSError) as err:
            self.notify(escape(visible(f"variations: {err}")), severity="error")
            return
        if not found:
            self.notify("no variations beside this record (p plays on from a step into one)")
            return

        def picked(i: int | None) -> None:
            if i is not None:
                self.app.open_record(found[i].path)

        self.app.push_screen(PickDialog(f"Variations of {self.path.name}:", [v.label for v in found]), picked)


def landmark_bindings(landmarks: tuple[Landmark, ...], taken: set[str]) -> list[Binding]:
    """The viewer's keys for a game's landmarks: ``key`` to the next, shift+``key`` (an upper-case
    letter) to the previous; a landmark whose key the viewer already uses is left out."""
    out = []
    for i, (key, title, _) in enumerate(landmarks):
        back = key.upper() if len(key) == 1 and key.isalpha() else f"shift+{key}"
        if key in taken or back in taken:
            continue
        name = "_".join(title.split())
        out += [Binding(key, f"landmark({i}, 1)", f"Next {title}", id=f"replay.next_{name}"),
                Binding(back, f"landmark({i}, -1)", f"Previous {title}", show=False, id=f"replay.previous_{name}")]
    return out


def landmark_step(replay: Replay, step: int, kinds: tuple[str, ...], direction: int) -> int | None:
    """The nearest step after (``direction`` 1) or before (-1) ``step`` with an event of one of
    ``kinds``: the replay skips the blocks of steps that have none."""
    if direction > 0:
        found = [n for n in (replay.next_event(step, k) for k in kinds) if n is not None]
        return min(found, default=None)
    found = [n for n in (replay.prev_event(step, k) for k in kinds) if n is not None]
    return max(found, default=None)


def where(state: Game) -> str:
    """Where a replayed game stands, in the status line."""
    point = state.point()
    if isinstance(point, Over):
        return f"result: {point.result.reason}"
    if isinstance(point, Decision):
        return f"{state.seats[point.seat]} to move"
    assert isinstance(point, Chance)
    return f"chance: {point.label or point.kind}"
