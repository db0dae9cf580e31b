"""The evaluation graph (tui/widgets/eval_graph.py) on its own, in a small app: what it draws,
the current step laid over the plot, the steps a click or a key asks for, the empty text,
a resize, a change of theme, and the plotting library imported only when a graph is drawn."""

from __future__ import annotations

import importlib
import math
import sys
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from tui.widgets.eval_graph import EMPTY_TEXT, MARKS, EvalGraph, nice_ticks
from tui_support import wait_until

ATTACKERS = [(step, 8 * math.sin(step / 6)) for step in range(36)]  # Tafl-like: a score around 0


class GraphApp(App[None]):
    CSS = "EvalGraph { height: 7; width: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.jumps: list[int] = []

    def compose(self) -> ComposeResult:
        yield EvalGraph(id="graph")

    def on_eval_graph_jump(self, message: EvalGraph.Jump) -> None:
        self.jumps.append(message.step)


def lines(graph: EvalGraph) -> list[str]:
    """What the graph draws, line by line, as the screen gets it."""
    return [graph.render_line(y).text for y in range(graph.size.height)]


def cell_background(graph: EvalGraph, x: int, y: int) -> object:
    segments = list(graph.render_line(y).divide([x, x + 1])[1])
    return segments[0].style.bgcolor if segments and segments[0].style else None


def drawn(graph: EvalGraph) -> bool:
    return graph.has_data and bool(graph.data_columns) and any("0" in line for line in lines(graph)[1:])


def column(graph: EvalGraph, step: int) -> int:
    """The column the graph draws ``step`` in (once drawn)."""
    x = graph.column_of(step)
    assert x is not None
    return x


async def graph_with(pilot: Pilot[None], *args: Any, **kwargs: Any) -> EvalGraph:
    graph = pilot.app.query_one(EvalGraph)
    graph.set_data(*args, **kwargs)
    await wait_until(pilot, lambda: drawn(graph), "the plot to be drawn")
    return graph


def test_x_ticks_are_round_steps_ending_at_the_last() -> None:
    assert nice_ticks(0, 40) == [0]
    assert nice_ticks(300, 110) == [0, 50, 100, 150, 200, 250, 300]
    assert nice_ticks(35, 40) == [0, 10, 20, 30]
    assert nice_ticks(7, 40) == [0, 2, 4, 6]


async def test_a_tafl_like_score_is_drawn_with_its_axes_legend_marks_and_current_step() -> None:
    app = GraphApp()
    async with app.run_test(size=(40, 10)) as pilot:
        graph = await graph_with(pilot, [("attackers", ATTACKERS)], (-8, 8), [(10, 0, "blunder"), (20, 0, "mistake")],
                                 "score", middle=0, value_format="{:+.0f}")
        graph.current = 12
        await wait_until(pilot, lambda: "step 12" in lines(graph)[0], "the legend to show step 12")
        shown = lines(graph)
        assert shown[0].startswith("score step 12  ━ attackers +7")  # 8 sin 2 = 7.27
        assert shown[1].startswith("+8") and shown[-2].startswith("-8")  # the y range, top and bottom
        assert any(line.startswith("+0") and "─" in line for line in shown)  # the zero line
        assert shown[-1].split() == ["0", "10", "20", "30"]  # the x axis's steps
        for step, kind in ((10, "blunder"), (20, "mistake")):  # each mark in the column of its step
            assert [line[column(graph, step)] for line in shown if MARKS[kind] in line] == [MARKS[kind]]
        # The current step: its column tinted, in every row of the plot and nowhere else.
        at = column(graph, 12)
        tint = graph.get_component_rich_style("eval-graph--current").bgcolor
        assert [y for y in range(graph.size.height) if cell_background(graph, at, y) == tint] == list(graph.data_rows)
        assert cell_background(graph, at + 1, graph.data_rows[0]) != tint
        # Stepping repaints over the plot as built: it is not built again.
        built = graph._strips
        graph.current = 30
        await wait_until(pilot, lambda: "step 30" in lines(graph)[0], "the legend to show step 30")
        assert cell_background(graph, column(graph, 30), graph.data_rows[0]) == tint
        assert cell_background(graph, at, graph.data_rows[0]) != tint
        assert graph._strips is built


async def test_chances_of_six_kingdoms_with_a_gap_in_six_colours() -> None:
    app = GraphApp()
    async with app.run_test(size=(110, 8)) as pilot:
        series = [(f"K{k}", [(s, None if s == 5 else 100 / 6 + k) for s in range(11)]) for k in range(6)]
        graph = await graph_with(pilot, series, (0, 100), [(3, 2, "inaccuracy")], "win", middle=50,
                                 value_format="{:.0f}%")
        legend = lines(graph)[0]
        assert legend.startswith("win step 0  ━ K0 17%  ━ K1 18%")
        graph.current = 5  # not analysed: no value shown
        await wait_until(pilot, lambda: "━ K0 –" in lines(graph)[0], "the gap in the legend")
        colours = {graph.series_style(k).color for k in range(6)}
        assert len(colours) == 6 and graph.series_style(6).color == graph.series_style(0).color
        row = next(y for y, line in enumerate(lines(graph)) if MARKS["inaccuracy"] in line)
        segments = [seg for seg in graph.render_line(row) if MARKS["inaccuracy"] in seg.text]
        assert segments[0].style is not None and segments[0].style.color == graph.get_component_rich_style("eval-graph--inaccuracy").color
        # The lines break at step 5: the columns between steps 4 and 6 hold no line at all.
        gap = range(column(graph, 4) + 1, column(graph, 6))
        assert gap and all(lines(graph)[y][x] in " ─" for y in graph.data_rows for x in gap)


async def test_a_click_asks_for_the_step_nearest_it() -> None:
    app = GraphApp()
    async with app.run_test(size=(40, 10)) as pilot:
        score = [(step, 8 * math.sin(step / 6)) for step in range(38)]
        graph = await graph_with(pilot, [("attackers", score)], (-8, 8), [(17, 0, "blunder")], middle=0)
        first, last = graph.data_columns[0], graph.data_columns[-1]
        assert first == len("-8") and last == graph.size.width - 1  # after the y axis's labels, to the edge
        assert len(graph.data_columns) == 38  # 38 steps (0..37) in 38 columns: one column a step
        blunder_row = next(y for y, line in enumerate(lines(graph)) if MARKS["blunder"] in line)
        blunder_x = lines(graph)[blunder_row].index(MARKS["blunder"])
        for x, step in ((first, 0), (blunder_x, 17), (last, 37), (0, 0)):
            await pilot.click(EvalGraph, offset=(x, 3))
            await wait_until(pilot, lambda: len(app.jumps) == 1, f"a jump for a click at column {x}")
            assert app.jumps.pop() == step
        await pilot.click(EvalGraph, offset=(blunder_x, 0))  # the legend line too: its x is what counts
        await wait_until(pilot, lambda: app.jumps == [17], "a jump for a click on the legend")


async def test_keys_ask_for_the_next_the_previous_the_first_and_the_last_step() -> None:
    app = GraphApp()
    async with app.run_test(size=(40, 10)) as pilot:
        graph = await graph_with(pilot, [("attackers", ATTACKERS)], (-8, 8))
        graph.focus()
        graph.current = 5
        for key, step in (("left", 4), ("right", 6), ("home", 0), ("end", 35)):
            await pilot.press(key)
            await wait_until(pilot, lambda: len(app.jumps) == 1, f"a jump for {key}")
            assert app.jumps.pop() == step
        graph.current = 35
        await pilot.press("right")  # at the end: asks for the last step again, never beyond
        await wait_until(pilot, lambda: app.jumps == [35], "a jump at the end")


async def test_without_points_the_graph_says_it_is_not_analysed() -> None:
    app = GraphApp()
    async with app.run_test(size=(60, 10)) as pilot:
        graph = app.query_one(EvalGraph)
        await wait_until(pilot, lambda: graph.size.height == 7, "the graph laid out")
        assert [line.strip() for line in lines(graph)] == ["", "", "", EMPTY_TEXT, "", "", ""]
        graph.focus()
        await pilot.press("left")
        await pilot.click(EvalGraph, offset=(10, 3))  # nothing to jump to: neither asks for a step
        graph = await graph_with(pilot, [("attackers", ATTACKERS)], (-8, 8))
        await pilot.press("right")
        await wait_until(pilot, lambda: app.jumps == [1], "the one jump, asked for once there were steps")
        graph.clear()
        await wait_until(pilot, lambda: EMPTY_TEXT in "".join(lines(graph)), "the empty text again")
        graph.set_data([("attackers", [(0, None), (1, None)])], (-8, 8))  # points, none analysed
        assert EMPTY_TEXT in "".join(lines(graph))


async def test_resizing_draws_the_plot_again_for_the_new_width() -> None:
    app = GraphApp()
    async with app.run_test(size=(40, 10)) as pilot:
        graph = await graph_with(pilot, [("attackers", ATTACKERS)], (-8, 8), [(17, 0, "blunder")], middle=0)
        for width in (110, 24, 80):
            await pilot.resize_terminal(width, 10)
            await wait_until(pilot, lambda: bool(graph.data_columns) and graph.data_columns[-1] == width - 1,
                             f"the plot drawn {width} wide")
            shown = lines(graph)
            assert all(len(line) == width for line in shown)
            assert shown[-1].split()[0] == "0" and MARKS["blunder"] in "".join(shown)


async def test_a_change_of_theme_redraws_the_lines_in_its_colours() -> None:
    app = GraphApp()
    async with app.run_test(size=(40, 10)) as pilot:
        app.theme = "textual-dark"
        graph = await graph_with(pilot, [("attackers", ATTACKERS)], (-8, 8))

        def line_colours() -> set[object]:
            return {seg.style.color for y in graph.data_rows for seg in graph.render_line(y)
                    if seg.style and seg.text.strip(" ─")}

        dark = graph.series_style(0).color
        assert dark in line_colours()
        app.theme = "textual-light"
        await wait_until(pilot, lambda: graph.series_style(0).color != dark, "the light theme's colours")
        assert graph.series_style(0).color in line_colours() and dark not in line_colours()


def test_the_plotting_library_is_imported_when_a_graph_is_drawn_not_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module imported afresh (the modules of the other tests put back afterwards)."""
    for name in [m for m in sys.modules if m.startswith(("textual_plotext", "plotext", "tui.widgets.eval_graph"))]:
        monkeypatch.delitem(sys.modules, name)
    fresh = importlib.import_module("tui.widgets.eval_graph")
    assert fresh.EvalGraph is not EvalGraph  # really imported again
    assert not [m for m in sys.modules if m.startswith(("textual_plotext", "plotext"))]
