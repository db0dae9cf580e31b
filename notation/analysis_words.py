"""An analysis in words: each judged decision as a person reads it, the seats' summaries, and the
JSON ``fiefdom replay analyse --json`` prints. The words come from the game (``describe`` at the
position before the decision); every text passes through notation.wording.visible where it is shown.

An analysis is the full table's: its better choices name the decider's own cards, as the full
table's export does (a seat's own view would tell that seat no more than the record shows it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from core.engine import Code, Game, RulesError
from core.review import FORCED, WON
from notation.annex import Analysis, Judged
from notation.replay import Replay

MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "": ""}


@dataclass(frozen=True)
class Worded:
    """One judged decision in words."""

    judged: Judged
    seat_name: str
    played: str
    best: str
    line: tuple[str, ...]  # the expected play after the best option (a search's)


def said(game: Game, code: Code) -> str:
    try:
        return game.describe(code)
    except (RulesError, KeyError, IndexError, ValueError, TypeError):  # an option this position does not know
        return " ".join(map(str, code))


def line_words(game: Game, line: Sequence[Code]) -> tuple[str, ...]:
    """``line`` played out on a copy of ``game``, each move worded where it is played; it stops at a
    move the rules refuse (an analysis from elsewhere)."""
    g, out = game.clone(), []
    for code in line:
        out.append(said(g, code))
        try:
            g.apply(code)
        except RulesError:
            break
    return tuple(out)


def worded(replay: Replay, analysis: Analysis) -> Iterator[Worded]:
    names = replay.header.seats
    for j in analysis.decisions:
        if j.step > replay.steps or j.seat >= len(names):
            continue
        game = replay.state_at(j.step - 1)
        yield Worded(j, names[j.seat].name, said(game, j.played), said(game, j.best), line_words(game, j.line))


def percent(per_mille: int) -> str:
    return f"{per_mille / 10:.0f}%"


def score_words(score: int) -> str:
    """A Tafl score for the attackers: ``+1.25`` (attackers' worth), ``#+3`` a forced win in 3 plies."""
    if abs(score) > FORCED:
        plies = WON - abs(score)
        return f"#{'+' if score > 0 else '-'}{plies}"
    return f"{score / 100:+.2f}"


def decision_line(w: Worded, score_word: str) -> str:
    """``12. Castile: attack Toledo ? mistake (41% -> 27%); better: pass (+0.60 castles)``."""
    j = w.judged
    sign = MARK_SIGNS.get(j.mark, "")
    head = f"{j.step}. {w.seat_name}: {w.played}{' ' + sign if sign else ''}"
    if j.mark:
        head += f" {j.mark}"
    if tuple(j.best) == tuple(j.played):
        tail = f" ({percent(j.played_chance)}; the AI's choice too)"
    else:
        tail = f" ({percent(j.best_chance)} -> {percent(j.played_chance)}); better: {w.best}"
        if j.gain is not None:
            tail += f" ({j.gain / 100:+.2f} {score_word})"
    if j.score is not None:
        tail += f"; score {score_words(j.score)}"
    if w.line and tuple(j.best) != tuple(j.played):
        tail += f"; line: {' '.join(w.line[:8])}"
    return head + tail


@dataclass
class SeatSummary:
    name: str
    decisions: int = 0
    inaccuracy: int = 0
    mistake: int = 0
    blunder: int = 0
    lost: int = 0  # per mille, summed over decisions

    @property
    def average_loss(self) -> float:
        """The decider's chance lost per decision, in percentage points (lichess's "average loss")."""
        return self.lost / self.decisions / 10 if self.decisions else 0.0

    def words(self) -> str:
        return (f"{self.name}: {self.decisions} decisions, {self.inaccuracy} inaccuracies, {self.mistake} mistakes, "
                f"{self.blunder} blunders, {self.average_loss:.1f} points of chance lost a decision")


def summaries(replay: Replay, analysis: Analysis) -> list[SeatSummary]:
    out = [SeatSummary(seat.name) for seat in replay.header.seats]
    for j in analysis.decisions:
        if j.seat < len(out):
            s = out[j.seat]
            s.decisions += 1
            s.lost += j.loss
            if j.mark in ("inaccuracy", "mistake", "blunder"):
                setattr(s, j.mark, getattr(s, j.mark) + 1)
    return [s for s in out if s.decisions]


def text_report(replay: Replay, analysis: Analysis, score_word: str, whole: bool) -> Iterator[str]:
    h = replay.header
    yield f"{h.game} {h.variant}: {len(analysis.decisions)} decisions judged by {analysis.by}, {analysis.work} " \
          f"{analysis.unit} each, seed {analysis.seed}" + ("" if whole else " (stopped: the rest not judged)")
    for w in worded(replay, analysis):
        yield decision_line(w, score_word)
    for s in summaries(replay, analysis):
        yield s.words()


def json_report(replay: Replay, analysis: Analysis, whole: bool) -> dict[str, Any]:
    h = replay.header
    names = [seat.name for seat in h.seats]
    return {
        "game": h.game, "variant": h.variant, "by": analysis.by, "unit": analysis.unit, "work": analysis.work,
        "seed": analysis.seed, "whole": whole,
        "decisions": [{
            "step": w.judged.step, "seat": w.seat_name, "played": w.played, "played_code": list(w.judged.played),
            "best": w.best, "best_code": list(w.judged.best),
            "chances": {names[k]: c / 1000 for k, c in enumerate(w.judged.chances) if k < len(names)},
            "best_chance": w.judged.best_chance / 1000, "played_chance": w.judged.played_chance / 1000,
            "loss": w.judged.loss / 1000, "mark": w.judged.mark or None, "line": list(w.line),
            "score": w.judged.score, "gain": None if w.judged.gain is None else w.judged.gain / 100,
        } for w in worded(replay, analysis)],
        "summary": {s.name: {"decisions": s.decisions, "inaccuracies": s.inaccuracy, "mistakes": s.mistake,
                             "blunders": s.blunder, "average_loss": round(s.average_loss, 2)}
                    for s in summaries(replay, analysis)},
    }
