"""What the replay viewer shows of a record's review (issue 31): the graph's lines, the marks in the
move list, a judged step's words, its notes. Pure functions of the analysis and the notes; the
viewer (tui/screens/replay.py) draws them.

The graph: a search's analysis (one score for the first seat, Tafl's attackers) is one line of that
score in the first seat's units (a hundred hundredths: one attacker's worth), clipped to
``SCORE_LIMIT`` either way, a forced result at the limit; a rollouts analysis is one line per seat of
its chance to win, in percent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.markup import escape

from core.review import FORCED
from notation.analysis_words import MARK_SIGNS, percent, score_words
from notation.annex import Analysis, Judged, Note
from notation.wording import visible

SCORE_LIMIT = 8.0  # a Tafl graph's reach either way, in attackers
MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


@dataclass(frozen=True)
class GraphData:
    series: list[tuple[str, list[tuple[int, float | None]]]]
    y_range: tuple[float, float]
    marks: list[tuple[int, int, str]]  # (step, series index, mark)
    y_label: str
    middle: float | None
    value_format: str


def scored(analysis: Analysis) -> bool:
    """Whether the analysis is a search's (a score on every decision) rather than rollouts'."""
    return bool(analysis.decisions) and all(j.score is not None for j in analysis.decisions)


def graph_data(analysis: Analysis, seats: Sequence[str]) -> GraphData:
    """The graph of ``analysis`` for a record whose seats are ``seats``."""
    js = analysis.decisions
    if scored(analysis):
        points: list[tuple[int, float | None]] = [(j.step, _clipped(j.score or 0)) for j in js]
        marks = [(j.step, 0, j.mark) for j in js if j.mark]
        return GraphData([(seats[0], points)], (-SCORE_LIMIT, SCORE_LIMIT), marks, f"score for the {seats[0]}",
                         0.0, "{:+.1f}")
    series: list[tuple[str, list[tuple[int, float | None]]]] = [
        (name, [(j.step, j.chances[k] / 10) for j in js if k < len(j.chances)]) for k, name in enumerate(seats)]
    marks = [(j.step, j.seat, j.mark) for j in js if j.mark and j.seat < len(seats)]
    return GraphData(series, (0.0, 100.0), marks, "chance to win", None, "{:.0f}%")


def _clipped(score: int) -> float:
    if abs(score) > FORCED:
        return SCORE_LIMIT if score > 0 else -SCORE_LIMIT
    return max(-SCORE_LIMIT, min(SCORE_LIMIT, score / 100))


def by_step(analysis: Analysis | None) -> dict[int, Judged]:
    return {j.step: j for j in analysis.decisions} if analysis is not None else {}


def mark_markup(judged: Judged | None) -> str:
    """`` ??`` in the mark's colour after a move in the list; "" for none."""
    if judged is None or not judged.mark:
        return ""
    return f" [{MARK_STYLES[judged.mark]}]{MARK_SIGNS[judged.mark]}[/]"


def judged_lines(judged: Judged, seats: Sequence[str], played: str, best: str, line: Sequence[str],
                 score_word: str) -> list[str]:
    """The review of the step shown, as markup lines for the events pane: the mark and the chances,
    then the better choice and how it goes on."""
    sign = f" {MARK_SIGNS[judged.mark]} {judged.mark}" if judged.mark else ""
    style = MARK_STYLES.get(judged.mark, "green")
    who = escape(visible(seats[judged.seat]))
    if tuple(judged.best) == tuple(judged.played):
        head = f"[{style}]review: {who} played the AI's choice[/] ({percent(judged.played_chance)} to win)"
        out = [head]
    elif not judged.mark:
        out = [f"[{style}]review: {escape(visible(played))}[/] ({who}: {percent(judged.played_chance)} to win; "
               f"the AI's choice, [b]{escape(visible(best))}[/b]: {percent(judged.best_chance)})"]
    else:
        head = (f"[{style}]review: {escape(visible(played))}{sign}[/] "
                f"({who}: {percent(judged.best_chance)} -> {percent(judged.played_chance)})")
        better = f"better: [b]{escape(visible(best))}[/b]"
        if judged.gain is not None:
            better += f" ({judged.gain / 100:+.2f} {escape(visible(score_word))} expected)"
        out = [head, better]
        if line:
            out.append(f"[dim]line: {escape(visible(' '.join(line[:10])))}[/]")
    if judged.score is not None:
        out.append(f"[dim]score {score_words(judged.score)} for the {escape(visible(seats[0]))}[/]")
    return out


def note_lines(notes: Sequence[Note], step: int) -> list[str]:
    """The notes on ``step``, as markup lines (a person's text: made visible, never markup)."""
    return [f"[b]note:[/b] {escape(visible(n.text))}" for n in notes if n.step == step]
