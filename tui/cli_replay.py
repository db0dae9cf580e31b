"""``fiefdom replay``: verify, show and export .fief records.

Exit codes: 0 good; 1 the record replays differently from what it says
(``verify``, and ``export``, which still writes text and JSON saying where but
refuses OpenTafl); 2 the file cannot be read, or a bad argument. Every failure
is one line on stderr, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn, Optional

import typer

from core import games as core_games
from core.engine import Decision, Game, Over
from notation.catalog import GameLookup
from notation.export import ExportError, export, export_formats
from notation.format import RecordError
from notation.reader import Recording, read_record_file
from notation.replay import Replay
from notation.verify import UNFINISHED, verify
from notation.wording import count
from tui.text_board import position_text

replay_app = typer.Typer(
    name="replay",
    help="Verify, show and export recorded games (.fief files).",
    no_args_is_help=True,
    add_completion=False,
)

MAP_HELP = "Your own map file (TOML, see docs/taifa-map.md) instead of the reconstruction."
CARDS_HELP = "Your own decks file (TOML, see docs/taifa-cards.md) instead of the reconstruction."


# The user's own data files for this command (game -> key -> loaded data): a command
# line is one process and one command, so the replay commands read it from here.
_DATA: dict[str, dict[str, Any]] = {}


def games() -> GameLookup:
    """The registry, with the data files this command was given."""
    return core_games.lookup(_DATA)


def use_taifa_data(map_file: Optional[Path], cards_file: Optional[Path]) -> dict[str, Any]:
    """Play or replay Taifa on a user's own map and decks; a bad file is one line, exit 2."""
    from core.engine import RulesError

    gi = core_games.info("taifa")
    loaders = {f.key: f.load for f in gi.data_files}
    try:
        data = {key: loaders[key](str(path)) for key, path in (("map", map_file), ("cards", cards_file)) if path}
    except RulesError as err:
        _fail(str(err))
    _DATA["taifa"] = data
    return data


@replay_app.callback()
def replay_options(
    map_file: Optional[Path] = typer.Option(None, "--map", help="For Taifa records played on your own map: " + MAP_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help="For Taifa records played on your own decks."),
) -> None:
    """Verify, show and export recorded games (.fief files)."""
    use_taifa_data(map_file, cards_file)


FILE = typer.Argument(..., help="A .fief record.", metavar="FILE", show_default=False)


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _read(file: Path) -> Recording:
    try:
        return read_record_file(file, games=games())
    except RecordError as err:
        _fail(f"{file}: {err}")
    except OSError as err:
        _fail(f"{file}: {err.strerror or err}")


def _replay(file: Path) -> Replay:
    try:
        return Replay(_read(file), games=games())
    except RecordError as err:
        _fail(f"{file}: {err}")


@replay_app.command("verify")
def verify_command(file: Path = FILE) -> None:
    """Replay FILE and check every checkpoint, the result and (seeded) every chance outcome.

    Exit 0 when it replays as recorded, 1 at the first step that differs, 2 when unreadable.
    """
    report = verify(_read(file), games=games())
    if report.ok:
        outcome = UNFINISHED if report.message == UNFINISHED else f"result {report.message}"
        typer.echo(f"ok: {count(report.records, 'record')}, {outcome}")
        return
    typer.echo(report.verdict)
    raise typer.Exit(1)


@replay_app.command("show")
def show_command(
    file: Path = FILE,
    step: Optional[int] = typer.Option(None, "--step", "-s", help="Step to show (0 = the start). Default: the last."),
) -> None:
    """Show the position at a step of FILE and the events of that step, with their rules."""
    replay = _replay(file)
    n = len(replay) if step is None else step
    try:
        game = replay.state_at(n)
        events = replay.events_at(n)
        comments = replay.comments_at(n)
    except IndexError as err:
        _fail(str(err))
    title = f"step {n} of {len(replay)}"
    if n:
        info = replay.step_record(n)
        title += f": {info.seat_name} {info.text}"
    lines = [title, _position(game)]
    lines += [f"  {e.text}  [{e.rule}]" if e.rule else f"  {e.text}" for e in events]
    lines += [f"  comment: {c}" for c in comments]
    if replay.failure is not None:
        lines.append(f"note: the replay stops at {replay.failure}")
    typer.echo("\n".join(lines))


def _position(game: Game) -> str:
    if game.game == "taifa":
        return taifa_text(game)
    return position_text(game)


def taifa_text(game: Any) -> str:
    """A Taifa position as a spectator sees it: the turn, each kingdom's castles, Card Bonus,
    hand size, face-up cards and areas (``*`` garrisoned), the piles, the fight, the last dice."""
    v = game.view(None)
    owner, garrison = v["owner"], v["garrison"]

    def areas(k: int) -> str:
        return ", ".join(f"{game.area_name(a)} ({a}){'*' if garrison[a] else ''}"
                         for a in range(1, len(owner)) if owner[a] == k) or "none"

    def cards(ids: Any) -> str:
        return ", ".join(game.label(c) for c in ids) or "-"

    current = v["kingdoms"][v["current"]]["name"] if v["turn"] else "-"
    lines = [f"turn {v['turn']} of 3, round of {current}, passes in a row: {v['passes']}"]
    for k, kd in enumerate(v["kingdoms"]):
        who = "bot" if kd["bot"] else "player"
        lines.append(f"{kd['name']} ({who}): {kd['castles']} castles, Card Bonus {kd['bonus']:+d}, "
                     f"{kd['hand_count']} cards in hand, {kd['kept']} kept")
        lines.append(f"  areas: {areas(k)}")
        for what in ("army", "ready", "permanent"):
            if kd[what]:
                lines.append(f"  {what}: {cards(kd[what])}")
    lines.append(f"independent: {areas(-1)}")
    for deck in sorted(v["draw"]):
        lines.append(f"{deck} deck: {v['draw'][deck]} to draw, {len(v['discard'][deck])} discarded")
    if v["removed"]:
        lines.append(f"out of the game: {cards(v['removed'])}")
    f = v["fight"]
    if f is not None:
        where = game.area_name(f["area"]) if f["area"] else "an incursion"
        placed = ", ".join(game.label(c) if c else "a face-down card" for _, _, c in f["cards"]) or "no cards yet"
        lines.append(f"fight: {f['kind']} on {where}: {placed}")
    if v["last_dice"]:
        label, dice = v["last_dice"]
        lines.append(f"last dice: {label}: {' '.join(map(str, dice))}")
    point = game.point()
    if isinstance(point, Over):
        lines.append(f"game over: {point.result.reason}")
    elif isinstance(point, Decision):
        lines.append(f"to decide: {game.seats[point.seat]}: {point.prompt}")
    else:
        lines.append(f"chance: {point.label or point.kind}")
    return "\n".join(lines)


# The formats come from the notation registry: text, json and every game's own (otg for tafl).
_FORMATS = export_formats()
_FORMAT_NAMES = [f"{name} ({title})" if title else name for name, title in _FORMATS.items()]


def _export_format(value: str) -> str:
    if value not in _FORMATS:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(map(repr, _FORMATS))}.")
    return value


@replay_app.command("export")
def export_command(
    file: Path = FILE,
    format: str = typer.Option(
        "text", "--format", "-f", callback=_export_format, metavar=f"<{'|'.join(_FORMATS)}>",
        help=", ".join(_FORMAT_NAMES[:-1]) + " or " + _FORMAT_NAMES[-1] + ".",
    ),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write here instead of to stdout."),
) -> None:
    """Export FILE as PGN-like text, JSON, or an OpenTafl game record (Tafl only).

    The result exported is the one the rules give on replaying FILE. Exit 0 when
    FILE verifies; 1 when it replays differently from what it says (as verify):
    text and json are still written, with what differs (a Verify tag, a verify
    field), otg is refused; 2 when FILE is unreadable, otg is asked for a game
    that is not tafl, or an argument is bad.
    """
    replay = _replay(file)
    try:
        text = export(replay, format)
    except ExportError as err:
        _fail(f"{file}: {err}", 1 if err.differs else 2)
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as err:
            _fail(f"{out}: {err.strerror or err}")
    report = replay.verify()
    if not report.ok:
        typer.echo(f"note: {file}: {report.verdict} (the export says so)", err=True)
        raise typer.Exit(1)


@replay_app.command("view")
def view_command(
    file: Path = FILE,
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Where saved records and keymap.toml live."),
) -> None:
    """Open a record in the replay viewer (the app)."""
    _read(file)  # a damaged file gets its one line here, before the screen opens
    from tui.app import FiefdomApp

    try:
        app = FiefdomApp(data_dir, open_path=file)
    except OSError as err:
        _fail(f"cannot use the data folder {data_dir}: {err.strerror or err}")
    app.run()
