"""An evaluation graph across a game, for the replay viewer (issue 31): one or more named lines of
(step, value) points over the game's steps, the current step marked, the decisions that erred
marked on the line of the seat that made them; a click or a key jumps to a step.

Drawn with textual-plotext (Textualize's widget around plotext), chosen over textual-plot:

- at the sizes the viewer gives it (6-8 rows) plotext draws a readable braille plot, where
  textual-plot (0.10.1) lays out its axes in a grid of margins and squeezed its plot to nothing
  at 7 rows;
- textual-plot needs numpy: importing it costs about twice as much (numpy alone about 70 ms,
  textual-plotext about 35 ms beyond Textual) and adds a dependency of 20 MB;
- textual-plot is a compound widget with its own bindings (arrows pan, +/- zoom) that would
  fight the viewer's; plotext only draws text, so this widget keeps the keys and the mouse.

The library is imported when the graph is first drawn, never with this module (the app starts
without it: tests/tui/test_tui_generic.py). Only its drawing is used: the plot is built once per
data, size and theme, kept as strips, and the current step is laid over it when a line is drawn,
so stepping through a replay repaints without building the plot again.

Colours come from the component classes below (theme variables, and for the six lines a
colour-blind-safe palette with a dark and a light variant), so a theme or the app's CSS can
change them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

if TYPE_CHECKING:
    from textual_plotext import Plot

Points = Sequence[tuple[int, float | None]]
Series = Sequence[tuple[str, Points]]

MARKS: dict[str, str] = {"inaccuracy": "○", "mistake": "●", "blunder": "✖"}  # drawn on the seat's line
SERIES_COLOURS = 6  # eval-graph--series-1 .. -6; a seventh line takes the first colour again
EMPTY_TEXT = "not analysed: press a to analyse"


def nice_ticks(last: int, width: int) -> list[int]:
    """Steps to label along an x axis ``width`` cells wide: 0, a round interval, up to ``last``,
    about one label per 10 cells."""
    if last <= 0:
        return [0]
    room = max(1, width // 10)
    raw = last / room
    base = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    interval = next((k * base for k in (1, 2, 5, 10) if k * base >= raw), 10 * base)
    interval = max(1, int(interval))
    ticks = list(range(0, last + 1, interval))
    if last - ticks[-1] > interval / 2:
        ticks.append(last)  # the last step labelled too, when there is room for it
    return ticks


def rgb(style: Style) -> tuple[int, int, int] | None:
    """A Rich style's foreground as plotext wants a colour."""
    if style.color is None:
        return None
    triplet = style.color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


class EvalGraph(Widget, can_focus=True):
    """The graph. ``set_data`` gives it lines, ``current`` the step to mark; ``clear`` (or no
    points) shows the empty text instead. It posts ``EvalGraph.Jump`` for a click or a key: the
    viewer goes to that step and sets ``current`` (the graph does not move by itself)."""

    DEFAULT_CSS = """
    EvalGraph {
        height: 8;
        width: 1fr;
        & > .eval-graph--axes { color: $foreground-muted; }
        & > .eval-graph--middle { color: $foreground-muted 60%; }
        & > .eval-graph--current { background: $primary 35%; }
        & > .eval-graph--empty { color: $text-muted; text-style: italic; }
        & > .eval-graph--inaccuracy { color: $warning; }
        & > .eval-graph--mistake { color: $accent; }
        & > .eval-graph--blunder { color: $error; }
        &:focus > .eval-graph--current { background: $primary 60%; }
        &:dark > .eval-graph--series-1 { color: #56b4e9; }
        &:dark > .eval-graph--series-2 { color: #e69f00; }
        &:dark > .eval-graph--series-3 { color: #2fcf9f; }
        &:dark > .eval-graph--series-4 { color: #e089bd; }
        &:dark > .eval-graph--series-5 { color: #f0e442; }
        &:dark > .eval-graph--series-6 { color: #ff7a3d; }
        &:light > .eval-graph--series-1 { color: #0072b2; }
        &:light > .eval-graph--series-2 { color: #b97a00; }
        &:light > .eval-graph--series-3 { color: #007a5a; }
        &:light > .eval-graph--series-4 { color: #a8457f; }
        &:light > .eval-graph--series-5 { color: #6b6b00; }
        &:light > .eval-graph--series-6 { color: #c24a00; }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "eval-graph--axes", "eval-graph--middle", "eval-graph--current", "eval-graph--empty",
        "eval-graph--inaccuracy", "eval-graph--mistake", "eval-graph--blunder",
        *(f"eval-graph--series-{i}" for i in range(1, SERIES_COLOURS + 1)),
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "jump_by(-1)", "Back", show=False, id="eval_graph.back"),
        Binding("right", "jump_by(1)", "Forward", show=False, id="eval_graph.forward"),
        Binding("home", "jump_to(0)", "Start", show=False, id="eval_graph.start"),
        Binding("end", "jump_to(-1)", "End", show=False, id="eval_graph.end"),
    ]

    current: reactive[int] = reactive(0)
    """The step marked: set by the viewer as it steps (a repaint, the plot is not built again)."""

    class Jump(Message):
        """The person asked for a step: clicked on the graph (the step nearest the click) or
        pressed left, right, home or end while it had the focus."""

        def __init__(self, graph: EvalGraph, step: int) -> None:
            super().__init__()
            self.graph = graph
            self.step = step

        @property
        def control(self) -> EvalGraph:
            return self.graph

    def __init__(self, empty_text: str = EMPTY_TEXT, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.empty_text = empty_text
        self.series: list[tuple[str, dict[int, float]]] = []  # each line's values by step
        self._runs: list[list[list[tuple[int, float]]]] = []  # and its points in runs, drawn joined
        self.y_range: tuple[float, float] = (0.0, 100.0)
        self.marks: list[tuple[int, int, str]] = []
        self.y_label = ""
        self.middle: float | None = None
        self.value_format = "{:.0f}"
        self.last_step = 0
        self._colours: tuple[Style, ...] = ()
        self._colours_stale = True
        self._strips: list[Strip] | None = None  # the plot as drawn for the size and styles below
        self._drawn_for: tuple[object, ...] = ()
        self._columns = range(0)  # the plot's data columns (step 0 .. last_step)
        self._rows = range(0)  # and its data rows, as lines of this widget

    # The data

    def set_data(self, series: Series, y_range: tuple[float, float], marks: Sequence[tuple[int, int, str]] = (),
                 y_label: str = "", *, middle: float | None = None, last_step: int | None = None,
                 value_format: str = "{:.0f}") -> None:
        """Lines to draw: ``series`` is (name, points) per line, a point (step, value); a line joins
        its points in order of step, and breaks at a value None (or NaN): a decision not analysed.
        ``y_range`` (low, high): values beyond are clipped. ``marks``: (step, series index, kind)
        with kind a key of MARKS, drawn on that line at that step. ``y_label`` heads the legend
        line; ``middle``, a value drawn as a horizontal line (0, 50); ``last_step``, the x axis's
        end (the series' last step otherwise); ``value_format`` formats a value in the legend and
        on the y axis ("{:+.1f}" for a score, "{:.0f}%" for a chance)."""
        low, high = y_range
        if not high > low:
            raise ValueError(f"y_range must rise: {y_range}")
        unknown = {kind for _, _, kind in marks} - MARKS.keys()
        if unknown:
            raise ValueError(f"unknown marks: {sorted(unknown)}")
        self._runs = [runs(points, low, high) for _, points in series]
        self.series = [(name, {step: value for run in line for step, value in run})
                       for (name, _), line in zip(series, self._runs)]
        self.y_range = (float(low), float(high))
        self.marks = [(int(step), int(index), kind) for step, index, kind in marks if 0 <= index < len(self.series)]
        self.y_label = y_label
        self.middle = middle
        self.value_format = value_format
        steps = [step for _, points in self.series for step in points]
        self.last_step = max(0, last_step if last_step is not None else max(steps, default=0))
        self._forget()

    def clear(self) -> None:
        """Nothing to draw: the empty text is shown."""
        self.series, self._runs, self.marks = [], [], []
        self.last_step = 0
        self._forget()

    @property
    def has_data(self) -> bool:
        return any(points for _, points in self.series)

    def _forget(self) -> None:
        self._strips = None
        self.refresh()

    @property
    def data_columns(self) -> range:
        """The columns of the content the steps are drawn across (empty before the plot is drawn)."""
        return self._columns

    @property
    def data_rows(self) -> range:
        """The lines of the content the values are drawn in (below the legend, above the x axis)."""
        return self._rows

    # Jumping

    def step_at(self, x: int) -> int | None:
        """The step drawn nearest column ``x`` of the content (None before the plot is drawn)."""
        if not self.has_data or not self._columns:
            return None
        first, width = self._columns.start, len(self._columns)
        if width <= 1 or self.last_step == 0:
            return 0
        fraction = (min(max(x, first), first + width - 1) - first) / (width - 1)
        return round(fraction * self.last_step)

    def column_of(self, step: int) -> int | None:
        """The content column step ``step`` is drawn in (as plotext places a point)."""
        if not self._columns:
            return None
        width = len(self._columns)
        if self.last_step == 0:
            return self._columns.start
        step = min(max(step, 0), self.last_step)
        return self._columns.start + math.floor(round(0.5 + (width - 1) * step / self.last_step, 8))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self._ensure_drawn()
        step = self.step_at(offset.x)
        if step is not None:
            self.post_message(self.Jump(self, step))

    def action_jump_by(self, delta: int) -> None:
        if self.has_data:
            self.post_message(self.Jump(self, min(max(self.current + delta, 0), self.last_step)))

    def action_jump_to(self, step: int) -> None:
        if self.has_data:
            self.post_message(self.Jump(self, self.last_step if step < 0 else min(step, self.last_step)))

    # Drawing

    def on_resize(self, event: events.Resize) -> None:
        self._forget()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._colours_stale = True  # the theme, or a pseudo-class (focus): the colours are read again

    def colours(self) -> tuple[Style, ...]:
        """The styles the plot is built with (built again when one changes)."""
        if self._colours_stale or not self._colours:
            names = ["axes", "middle", *MARKS, *(f"series-{i}" for i in range(1, SERIES_COLOURS + 1))]
            self._colours = tuple(self._style(f"eval-graph--{name}") for name in names)
            self._colours_stale = False
        return self._colours

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name)  # colours given with an alpha blended over the background

    def series_style(self, index: int) -> Style:
        """The colour line ``index`` is drawn in (for a legend elsewhere, too)."""
        return self._style(f"eval-graph--series-{index % SERIES_COLOURS + 1}")

    def legend(self) -> Text:
        """The first line: the label, the current step and each line's name and value there."""
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.y_label:
            text.append(f"{self.y_label} ", self._style("eval-graph--axes"))
        text.append(f"step {self.current}", self._style("eval-graph--axes"))
        for index, (name, points) in enumerate(self.series):
            value = points.get(self.current)
            shown = "–" if value is None else self.value_format.format(value)
            text.append("  ")
            text.append(f"━ {name} {shown}", self.series_style(index))
        return text

    def _ensure_drawn(self) -> None:
        width, height = self.size.width, self.size.height
        key = (width, height, self.colours())
        if self._strips is not None and self._drawn_for == key:
            return
        self._drawn_for = key
        if not self.has_data or width <= 0 or height <= 1:
            self._strips, self._columns, self._rows = [], range(0), range(0)
            return
        plot_height = height - 1  # below the legend line
        plt = self._build(width, plot_height)
        lines = Text.from_ansi(plt.build(), no_wrap=True).split("\n", allow_blank=True)
        console = self.app.console
        self._strips = [Strip(list(line.render(console))).crop_extend(0, width, None)
                        for line in lines[:plot_height]]
        matrix = getattr(getattr(plt, "monitor"), "matrix")  # where plotext put its data (no public API)
        self._columns = matrix.Cols_canvas
        rows = matrix.Rows_canvas  # counted from the plot's bottom line
        self._rows = range(1 + plot_height - rows.stop, 1 + plot_height - rows.start)

    def _build(self, width: int, height: int) -> Plot:
        from textual_plotext import Plot  # the library is imported when a graph is first drawn

        plt = Plot()
        plt.plotsize(width, height)
        plt._set_size(width, height)  # as textual-plotext's own widget does (its issue 5)
        plt.theme("clear")  # no colours of its own: the widget's background shows through
        plt.frame(False)
        axes = rgb(self._style("eval-graph--axes"))
        plt.ticks_color(axes)  # the labels and the axes (plotext's axes_color is their background)
        low, high = self.y_range
        last = max(1, self.last_step)
        plt.xlim(0, last)
        plt.ylim(low, high)
        ticks = nice_ticks(self.last_step, width)
        plt.xticks([float(t) for t in ticks], [str(t) for t in ticks])
        middle = self.middle if self.middle is not None and low < self.middle < high else None
        yticks = [low, high] if height < 5 or middle is None else [low, middle, high]
        plt.yticks(yticks, [self.value_format.format(v) for v in yticks])
        if middle is not None:
            plt.hline(middle, rgb(self._style("eval-graph--middle")))
        for index, line in enumerate(self._runs):
            colour = rgb(self.series_style(index))
            for run in line:
                xs = [float(step) for step, _ in run]
                ys = [value for _, value in run]
                if len(run) == 1:
                    plt.scatter(xs, ys, marker="braille", color=colour)
                else:
                    plt.plot(xs, ys, marker="braille", color=colour)
        for kind in MARKS:  # blunders last, so drawn over the rest
            at = [(step, self._mark_value(step, index)) for step, index, k in self.marks if k == kind]
            if at:
                plt.scatter([float(s) for s, _ in at], [v for _, v in at], marker=MARKS[kind],
                            color=rgb(self._style(f"eval-graph--{kind}")))
        return plt

    def _mark_value(self, step: int, index: int) -> float:
        """Where a mark goes: on its line at that step, or the nearest step before it with a value,
        or the middle of the range."""
        points = self.series[index][1]
        before = [s for s in points if s <= step]
        if before:
            return points[max(before)]
        low, high = self.y_range
        return self.middle if self.middle is not None else (low + high) / 2

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if not self.has_data:
            if y != (self.size.height - 1) // 2:
                return Strip.blank(width, base)
            text = Text(self.empty_text, style=self._style("eval-graph--empty"), no_wrap=True)
            text.truncate(width, overflow="ellipsis")
            text.align("center", width)
            return self._line(text, width, base)
        self._ensure_drawn()
        if y == 0:
            return self._line(self.legend(), width, base)
        strips = self._strips or []
        if y - 1 >= len(strips):
            return Strip.blank(width, base)
        strip = strips[y - 1]
        column = self.column_of(self.current)
        if column is not None and y in self._rows and 0 <= column < width:
            marked = Style(bgcolor=self._style("eval-graph--current").bgcolor)
            before, cell, after = strip.divide([column, column + 1, width])
            cell = Strip([Segment(s.text, (s.style or Style()) + marked, s.control) for s in cell], 1)
            strip = Strip.join([before, cell, after])
        return strip.apply_style(base)

    def _line(self, text: Text, width: int, base: Style) -> Strip:
        text.truncate(width, overflow="ellipsis")
        return Strip(list(text.render(self.app.console)), text.cell_len).crop_extend(0, width, None).apply_style(base)


def runs(points: Points, low: float, high: float) -> list[list[tuple[int, float]]]:
    """A line's points by step, clipped to [low, high], in runs: broken at a value None or NaN."""
    out: list[list[tuple[int, float]]] = [[]]
    for step, value in sorted(points, key=lambda point: point[0]):
        if value is None or math.isnan(value):
            out.append([])
        else:
            out[-1].append((int(step), min(high, max(low, float(value)))))
    return [run for run in out if run]
