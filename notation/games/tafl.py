"""Tafl's notation: OpenTafl game records (.otg), ``fiefdom replay export --format otg``,
``fiefdom tafl export-otg`` and, back into .fief records, ``fiefdom tafl import-otg``.

An .otg has tag lines, an OpenTafl rules string and numbered turns.

Layout (opentafl-notation-spec, "Game Records"): ``[tag:value]`` lines, the
``[rules:...]`` tag last, a blank line, then one turn per line,
``1. e1-e4 f4-c4xc5``, each followed by ``[first|second]`` commentary when the
record has comments on that turn. The rules string is core.tafl.otn_rules'
(TF-17, TF-18: the quiet-move draw has no OpenTafl key). A record
that does not verify is refused: an .otg has no place to say what differs.

Import (:func:`read_otg`, :func:`write_fief`) reads that layout. The file is
untrusted: its size, the tag and comment lengths and the move count are bounded, and every fault is
one OtgError naming the line. Every move is checked under fiefdom's rules
before anything is written; a capture the file claims must be the one the
rules make, so an imported game replays exactly as OpenTafl showed it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from core import games as core_games
from core.engine import RulesError
from notation.catalog import GameLookup
from notation.export import ExportError, Source, move_text, replayed, wrong_game
from notation.format import Seat
from notation.games import ExportFormat, NotationPlugin
from notation.replay import Replay, StepInfo
from notation.visitor import StreamingVisitor, date_parts, walk
from notation.wording import visible

if TYPE_CHECKING:
    from core.tafl import TaflGame

# The Tafl engine is imported inside the functions that export, so listing the
# formats when the command line starts imports no game.


def _tag_value(text: str) -> str:
    return " ".join(visible(text).replace("[", "(").replace("]", ")").replace("|", "/").split())


def rules_string(start: "TaflGame") -> str:
    """The OpenTafl rules string of a Tafl game at its start (core.tafl.otn_rules; TF-17, TF-18)."""
    from core.tafl.otn_rules import rules_string as otn_rules_string

    return otn_rules_string(start.variant, start.opts, start.position(), start.to_move)


PLAYED_BY = {"human": "a person", "random": "a random mover", "bot": "a rulebook bot"}


def player(seat: Seat, side: str) -> str:
    """Who played ``side``, for OpenTafl's player tags: the seat's name (an imported game's player),
    and, where the name is only the side's (``attackers``), what played it: ``attackers (the AI:
    tafl-ai 3, 2s)``, ``defenders (a person)``."""
    if seat.name.strip().casefold() != side:
        return seat.name
    who = f"the AI: {seat.detail}" if seat.kind == "ai" and seat.detail else PLAYED_BY.get(seat.kind, seat.kind)
    return f"{seat.name} ({who})"


def _result_code(winners: tuple[int, ...]) -> str:
    if not winners:
        return "0"
    from core.tafl import ATTACKERS, DEFENDERS

    said: dict[tuple[int, ...], str] = {(ATTACKERS,): "1", (DEFENDERS,): "-1"}
    return said.get(winners, "?")


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
        attackers, defenders = player(h.seats[ATTACKERS], "attackers"), player(h.seats[DEFENDERS], "defenders")
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


# -- import ------------------------------------------------------------------------

MAX_BYTES = 4 * 1024 * 1024
MAX_PLIES = 20_000
MAX_TEXT = 2_000  # a tag value or one comment, kept in the record
_TAG = re.compile(r"^\[([A-Za-z0-9_-]{1,40}):(.*)\]$")
_TURN = re.compile(r"^(\d{1,6})\.(?:\s+(.*))?$")
_MOVE = re.compile(
    r"^[tTkKnNcC]?(?P<f>[a-z]\d{1,2})(?P<kind>-|\^=|\^|=)(?P<t>[a-z]\d{1,2})"
    r"(?:x(?P<caps>[tTkKnNcC]?[a-z]\d{1,2}(?:/[tTkKnNcC]?[a-z]\d{1,2})*)?)?(?P<info>[+-]{0,2})$"
)
_SQUARE = re.compile(r"[a-z]\d{1,2}")


class OtgError(ValueError):
    """An .otg fiefdom cannot import, said in one line."""


@dataclass
class OtgGame:
    """An .otg read and checked: what the .fief record will hold."""

    tags: dict[str, str]
    variant: str
    options: dict[str, object]
    setup: dict[str, object]
    moves: list[tuple[str, str]] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)  # by step (1 = the first move)
    resigned: bool = False


def read_otg(data: bytes) -> OtgGame:
    """Parse and check an .otg; OtgError (one line) when it is not one fiefdom can play."""
    from core.tafl.otn_rules import parse_rules

    if len(data) > MAX_BYTES:
        raise OtgError(f"the file is over {MAX_BYTES // (1024 * 1024)} MB; no game record is that long")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise OtgError(f"byte {err.start}: not UTF-8 text; an .otg is a text file") from None
    if "\x00" in text:
        raise OtgError("the file holds NUL bytes; an .otg is a text file")
    lines = text.splitlines()
    tags: dict[str, str] = {}
    number = 0
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line:
            continue
        if _TURN.match(line):
            break
        m = _TAG.match(line)
        if not m:
            raise OtgError(f"line {number}: {_short(line)} is neither a [tag:value] line nor a turn like '1. e1-e4'")
        tags[m[1]] = m[2][:MAX_TEXT]
    else:
        number = len(lines) + 1
    if "rules" not in tags:
        raise OtgError("no [rules:...] tag: the file does not say which tafl it is")
    try:
        rules = parse_rules(tags["rules"])
    except RulesError as err:
        raise OtgError(f"[rules] {err}") from None
    position = tags.get("position", rules.position).strip()
    setup: dict[str, object] = {}
    from core.tafl import variant

    if position != variant(rules.variant).start or rules.to_move:
        setup = {"position": position, "to_move": rules.to_move}
    game = _start(rules.variant, rules.options, setup)
    out = OtgGame(tags, rules.variant, dict(game.opts), setup)
    _read_turns(lines, number, game, out)
    return out


def _start(variant: str, options: dict[str, object], setup: dict[str, object]) -> "TaflGame":
    from core.tafl import TaflGame

    try:
        position, to_move = setup.get("position"), setup.get("to_move", 0)
        return TaflGame(variant, options, position, to_move)  # type: ignore[arg-type]  # TaflGame checks both
    except RulesError as err:
        raise OtgError(f"[position] {err}") from None


def _read_turns(lines: list[str], first: int, game: "TaflGame", out: OtgGame) -> None:
    """Apply every turn's moves to ``game``, gathering them and the commentary into ``out``."""
    expected = 1
    turn_steps: list[int] = []  # the steps of the latest turn, for its commentary
    for number in range(first, len(lines) + 1):
        line = lines[number - 1].strip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]") or not turn_steps:
                raise OtgError(f"line {number}: commentary is [first|second] after a turn")
            for step, note in zip(turn_steps, line[1:-1].split("|")):
                if note.strip():
                    out.comments.setdefault(step, []).append(note.strip()[:MAX_TEXT])
            continue
        m = _TURN.match(line)
        if not m:
            raise OtgError(f"line {number}: {_short(line)} is not a turn like '{expected}. e1-e4 e11-e8'")
        if int(m[1]) != expected:
            raise OtgError(f"line {number}: turn {m[1]} where turn {expected} should be")
        expected += 1
        turn_steps = []
        for word in (m[2] or "").split():
            if out.resigned:
                raise OtgError(f"line {number}: {_short(word)} after a resignation")
            if word == "---":
                out.resigned = True
                continue
            _apply(game, word, number, out)
            turn_steps.append(len(out.moves))


def _apply(game: "TaflGame", word: str, number: int, out: OtgGame) -> None:
    m = _MOVE.match(word)
    where = f"line {number}: {_short(word)}"
    if not m:
        raise OtgError(f"{where} is not a move record like e1-e4 or Ke5-e1xe2")
    if m["kind"] != "-":
        raise OtgError(f"{where}: jumps and berserk moves are not in fiefdom's tafl")
    if len(out.moves) >= MAX_PLIES:
        raise OtgError(f"{where}: more than {MAX_PLIES} moves; no game is that long")
    try:
        code = game.parse(f"{m['f']}-{m['t']}")
        game.apply(code)
    except RulesError as err:
        raise OtgError(f"{where}: {err}") from None
    if m["caps"] is not None:
        said = sorted(_SQUARE.findall(m["caps"]))
        made = sorted(game.geo.names[sq] for sq in (game.last[2] if game.last else ()))
        if said != made:
            raise OtgError(f"{where}: under fiefdom's rules that move captures {'/'.join(made) or 'nothing'}")
    out.moves.append((str(code[0]), str(code[1])))  # a Tafl move's code: (from, to)


def write_fief(game: OtgGame, path: str | os.PathLike[str], *, replace_file: bool = False,
               games: GameLookup = core_games.info) -> None:
    """The checked game as a .fief record at ``path``: two human seats named from the tags, each move
    a decision, the commentary and OpenTafl's tags as comments."""
    from notation.runner import GameSetup, Runner, SeatPlan
    from notation.writer import Journal

    setup = GameSetup("tafl", game.variant, (SeatPlan("human"), SeatPlan("human")), 1, game.options, game.setup)
    gi = games("tafl")
    header, start = setup.start(gi, games)
    names = [_name(game.tags.get(side, "")) or seat.name for side, seat in zip(("attackers", "defenders"), header.seats)]
    header = replace(header, seats=tuple(replace(seat, name=name) for seat, name in zip(header.seats, names)))
    journal = Journal.create(path, header, games=games, replace=replace_file)
    runner = Runner(header, games, journal, game=start)
    try:
        about = "; ".join(f"{k}: {v}" for k, v in game.tags.items() if k not in ("rules", "position") and v.strip())
        if about:
            journal.comment(f"OpenTafl game record: {about}"[:MAX_TEXT], 0)
        for step, code in enumerate(game.moves, start=1):
            runner.decide(code)
            for note in game.comments.get(step, []):
                journal.comment(note)
        if game.resigned:
            journal.comment("resigned (OpenTafl '---'); fiefdom records no resignation, so the game stays open")
    finally:
        runner.close()


def _name(text: str) -> str:
    return " ".join(visible(text).split())[:60]


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")
