"""Tafl's notation: OpenTafl game records (.otg), ``fiefdom replay export --format otg``.

An .otg has tag lines, an OpenTafl rules string and numbered turns.

Layout (opentafl-notation-spec, "Game Records"): ``[tag:value]`` lines, the
``[rules:...]`` tag last, a blank line, then one turn per line,
``1. e1-e4 f4-c4xc5``, each followed by ``[first|second]`` commentary when the
record has comments on that turn. Our rulings with no OpenTafl key (the
quiet-move draw, TF-3's throne) are left out of the rules string. A record
that does not verify is refused: an .otg has no place to say what differs.
"""

from __future__ import annotations

from core import games as core_games
from typing import TYPE_CHECKING
from notation.catalog import GameLookup
from notation.export import ExportError, Source, move_text, replayed, wrong_game
from notation.games import ExportFormat, NotationPlugin
from notation.replay import Replay, StepInfo
from notation.visitor import StreamingVisitor, date_parts, walk
from notation.wording import visible

if TYPE_CHECKING:
    from core.tafl import TaflGame

# The Tafl engine is imported inside the functions that export, so listing the
# formats when the command line starts imports no game.

_REPETITION = {"draw": "d", "loss": "l", "off": "i"}


def _tag_value(text: str) -> str:
    return " ".join(visible(text).replace("[", "(").replace("]", ")").replace("|", "/").split())


def rules_string(start: "TaflGame") -> str:
    """The OpenTafl rules string of a Tafl game at its start: ``dim`` first, ``start`` last."""
    from core.tafl import ATTACKERS, variant

    v = variant(start.variant)
    parts = [
        f"dim:{v.size}",
        "name:" + v.title.replace(" ", "_"),
        "esc:c",
        f"atkf:{'y' if start.to_move == ATTACKERS else 'n'}",
        f"tfr:{_REPETITION[start.opts['repetition']]}",
        "ka:y",
        f"ks:{'y' if v.king_capture == 'four-sides' else 'n'}",
    ]
    if v.camps:
        # Base camps: hostile to all when empty (TF-11), crossed by any piece (TF-7),
        # stopped on by attackers only.
        parts += ["afor:" + ",".join(sq for camp in v.camps for sq in camp), "aforh:tcnkTCNK", "afors:t"]
    parts.append(f"start:{start.position()}")
    return " ".join(parts)


def _result_code(winners: tuple[int, ...]) -> str:
    if not winners:
        return "0"
    from core.tafl import ATTACKERS, DEFENDERS

    return {(ATTACKERS,): "1", (DEFENDERS,): "-1"}.get(winners, "?")


class OtgExporter(StreamingVisitor):
    """An OpenTafl game record. A record that does not verify is refused (ExportError,
    ``differs``): an .otg has no way to say what differs. The tags are written at once,
    then each turn when both its moves (and their comments) are in."""

    def begin_game(self, replay: Replay) -> None:
        super().__init__()
        h = replay.header
        if h.game != "tafl":
            raise wrong_game(OTG.title, OTG.name, ("tafl",), h.game)
        report = replay.verify()
        if not report.ok:
            raise ExportError(
                f"the record does not replay as it says ({report.verdict}); an OpenTafl record "
                "cannot say so, so none is written: export it as text or json, which show what differs",
                differs=True,
            )
        self.replay = replay
        self.moves: list[str] = []  # the turn being gathered: at most two moves
        self.notes: list[list[str]] = []  # their comments; those before the first step have no place
        self.turn = 1
        self._tags()

    def _tags(self) -> None:
        from core.tafl import ATTACKERS, DEFENDERS, TaflGame, variant

        replay, h = self.replay, self.replay.header
        start = replay.state_at(0)
        assert isinstance(start, TaflGame)
        day, clock = date_parts(h)
        attackers, defenders = h.seats[ATTACKERS].name, h.seats[DEFENDERS].name
        result = replay.result  # the game's own; verified equal to the record's
        tags = [
            ("name", f"{attackers} vs {defenders}"),
            ("variant", variant(h.variant).title),
            ("date", day),
            ("time", clock),
            ("attackers", attackers),
            ("defenders", defenders),
            ("result", "?" if result is None else _result_code(result.winners)),
        ]
        if result is not None:
            tags.append(("termination", result.reason))
        tags.append(("compiler", "fiefdom"))
        for key, value in tags:
            self.emit(f"[{key}:{_tag_value(value)}]\n")
        self.emit(f"[rules:{rules_string(start)}]\n\n")

    def visit_step(self, info: StepInfo) -> None:
        if len(self.moves) == 2:
            self._turn()
        self.moves.append(move_text(info))
        self.notes.append([])

    def visit_comment(self, step: int, text: str) -> None:
        if step:
            self.notes[-1].append(text)

    def end_game(self) -> None:
        if self.moves:
            self._turn()

    def _turn(self) -> None:
        self.emit(f"{self.turn}. " + " ".join(visible(move) for move in self.moves) + "\n")
        notes = [" ".join(texts) for texts in self.notes]
        if any(notes):
            self.emit("[" + "|".join(_tag_value(note) for note in notes) + "]\n")
        self.moves, self.notes, self.turn = [], [], self.turn + 1


def export_otg(source: Source, *, games: GameLookup = core_games.info) -> str:
    """The record as an OpenTafl game record (see :class:`OtgExporter`)."""
    return walk(replayed(source, games), OtgExporter())


OTG = ExportFormat("otg", "OpenTafl", OtgExporter)
NOTATION = NotationPlugin(formats=(OTG,))
