"""``fiefdom replay``: verify, show and export .fief records.

Exit codes: 0 good; 1 the record replays differently from what it says
(``verify``, and ``export``, which still writes text and JSON saying where but
refuses OpenTafl); 2 the file cannot be read, or a bad argument. Every failure
is one line on stderr, never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn, Optional

import typer

from core.engine import TABLE, RulesError, Viewer
from notation.annex import notes_on
from notation.catalog import GameLookup
from notation.export import ExportError, export_formats, export_stream
from notation.files import read_regular, write_whole
from notation.format import RecordError
from notation.reader import Recording, read_record_file
from notation.replay import Replay
from notation.seat_log import parse_viewer
from notation.wording import visible
from tui.cli_support import (CLUSTER_HELP, DATA_HELP, JOBS_HELP, data_pairs, fail, games_for, output_path,
                             takes_data_flags, visible_lines)
from tui.games import position_text

replay_app = typer.Typer(
    name="replay",
    help="Verify, show and export recorded games (.fief files).",
    no_args_is_help=True,
    add_completion=False,
)

# The data files this command was given, as (key, path): a command line is one process and
# one command, so the replay commands read them from here (the callback sets them every time).
_DATA: list[tuple[str, Path]] = []


def games(file: Path) -> GameLookup:
    """The registry, with the data files this command was given for the game of ``file``."""
    return games_for(file, _DATA)


@replay_app.callback()
@takes_data_flags
def replay_options(
    data: list[str] = typer.Option([], "--data", help=DATA_HELP, metavar="KEY=FILE"),
    **flags: Any,
) -> None:
    """Verify, show and export recorded games (.fief files)."""
    _DATA[:] = data_pairs(data, flags)


FILE = typer.Argument(..., help="A .fief record.", metavar="FILE", show_default=False)


def _fail(message: str, code: int = 2) -> NoReturn:
    fail(message, code)


def _read(file: Path, lookup: GameLookup | None = None) -> Recording:
    try:  # a FIFO is refused, never waited on
        return read_record_file(read_regular(file), games=lookup or games(file))
    except RecordError as err:
        _fail(f"{file}: {err}")
    except OSError as err:
        _fail(f"{file}: {err.strerror or err}")


def _replay(file: Path) -> Replay:
    try:
        return Replay(_read(file), games=games(file))
    except RecordError as err:
        _fail(f"{file}: {err}")


@replay_app.command("verify")
def verify_command(
    paths: list[str] = typer.Argument(..., help="Records: files, folders (their .fief files, subfolders too) "
                                      "or quoted glob patterns ('games/**/*.fief').", metavar="PATH...",
                                      show_default=False),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP, metavar="ADDRESS"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the records that fail, and the summary."),
) -> None:
    """Replay each record and check every checkpoint, the result and (seeded) every chance outcome.

    Exit 0 when every record replays as recorded, 1 when one differs (at its first step that
    differs), 2 when one cannot be read. Always exactly one line a record, on standard output
    (or on standard error for one that cannot be read), each after the record's name when there
    are several, then a summary line: what a record says is quoted visibly, never obeyed. Outcomes
    not derived from a seed (dice typed at the table, chance recorded) are said to be taken as
    given: ``ok (dice typed at the table: 14 outcomes taken as given): ...``. A record whose seed
    was dealt by commit and reveal (a networked game's) says its deal was checked too:
    ``ok: 7 records, unfinished, the deal checked: 3 parties``. The records are shared out among
    --jobs processes (or a cluster's workers); the lines come in the same order whatever runs them.
    """
    from notation.tasks import ClusterError, chunk_size, run_in_order
    from notation.verify_files import UNREADABLE, Files, check, record_paths, summary
    from tui.cli_support import data_lookup_any, jobs_for
    from tui.progress import Progress

    names = record_paths(paths)
    workers = jobs_for(jobs, cluster)
    lookup = data_lookup_any(_DATA)
    if len(paths) == 1 and names == paths and not os.path.isdir(paths[0]):  # one file: its line alone
        (one,) = check(Files(tuple(names), lookup))
        if one.code == UNREADABLE:
            _fail(f"{visible(one.path)}: {one.line}")
        typer.echo(one.line)
        raise typer.Exit(one.code)
    size = chunk_size(len(names), workers, cluster)
    tasks = (Files(tuple(names[i:i + size]), lookup) for i in range(0, len(names), size))
    codes: list[int] = []
    try:
        with Progress(len(names), "records") as progress:
            for verdicts in run_in_order(check, tasks, jobs=workers, cluster=cluster):
                for one in verdicts:
                    codes.append(one.code)
                    if one.code == UNREADABLE:
                        progress.line(f"error: {visible(one.path)}: {one.line}", err=True)
                    else:
                        progress.line(f"{visible(one.path)}: {one.line}", quiet=quiet and not one.code)
    except ClusterError as err:
        _fail(str(err))
    typer.echo(summary(codes))
    raise typer.Exit(max(codes, default=0))


@replay_app.command("show")
def show_command(
    file: Path = FILE,
    step: Optional[int] = typer.Option(None, "--step", "-s", help="Step to show (0 = the start). Default: the last."),
    seat: Optional[str] = typer.Option(
        None, "--seat", metavar="NAME",
        help="Show it as seat NAME saw it (its name or number), or 'spectator'. Default: the full table."),
) -> None:
    """Show the position at a step of FILE and the events of that step, with their rules.

    The first line names the step; a record whose chance outcomes were not all derived from
    a seed says so on the next (``note: dice typed at the table: 14 outcomes taken as given``)."""
    replay = _replay(file)
    viewer = _viewer(seat, replay)
    n = len(replay) if step is None else step
    try:
        game = replay.state_at(n)
        info = replay.step_record(n).seen_by(viewer) if n else None
        comments = replay.comments_at(n)
    except IndexError as err:
        _fail(str(err))
    events = info.events if info is not None else ()
    title = f"step {n} of {len(replay)}"
    if info is not None:
        title += f": {info.seat_name} {info.text}"
    # Every line made visible: comments are a stranger's text, and nothing else may steer the terminal.
    lines = [visible(title)]
    if replay.chance_note:
        lines.append(visible(f"note: {replay.chance_note}"))
    lines.append(visible_lines(position_text(game, viewer)))
    lines += [visible(f"  {e.text}  [{e.rule}]" if e.rule else f"  {e.text}") for e in events]
    lines += [visible(f"  comment: {c}") for c in comments]
    lines += [visible(f"  note: {t}") for t in notes_on(replay.recording, n)] if viewer == TABLE else []
    if replay.failure is not None:
        lines.append(visible(f"note: the replay stops at {replay.failure}"))
    typer.echo("\n".join(lines))


# The formats come from the notation registry: text, json and every game's own (otg for tafl).
_FORMATS = export_formats()
_FORMAT_NAMES = [f"{name} ({title})" if title else name for name, title in _FORMATS.items()]


def _export_format(value: str) -> str:
    from tui.cli_choices import canonical

    value = canonical(value, _FORMATS)  # --format JSON is json (the one case rule, tui/cli_choices.py)
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
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists (never FILE itself)."),
    seat: Optional[str] = typer.Option(
        None, "--seat", metavar="NAME",
        help="The game as seat NAME saw it (its name or number), or 'spectator': nothing hidden from "
             "them is named. Default: the full table, every card and every deck's order."),
) -> None:
    """Export FILE as PGN-like text, JSON, or an OpenTafl game record (Tafl only).

    The result exported is the one the rules give on replaying FILE. Exit 0 when
    FILE verifies; 1 when it replays differently from what it says (as verify):
    text and json are still written, with what differs (a Verify tag, a verify
    field), otg is refused; 2 when FILE is unreadable, otg is asked for a game
    that is not tafl, or an argument is bad.

    --out never replaces an existing file without --force, nor FILE itself even with it; the
    export is written beside it and renamed into place, so a failed export leaves no half file.
    """
    if out is not None:
        output_path(out, force, [file, *(path for _, path in _DATA)])  # never the record nor its data files
    replay = _replay(file)
    chunks = _export_chunks(replay, format, _viewer(seat, replay))
    try:
        if out is None:
            for chunk in chunks:
                typer.echo(chunk, nl=False)
        else:
            write_whole(out, (chunk.encode("utf-8") for chunk in chunks), replace=force)
    except ExportError as err:
        _fail(f"{file}: {err}", 1 if err.differs else 2)
    except FileExistsError:  # it appeared while the export was written
        _fail(f"{out} exists; give --force to replace it")
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main() ends quietly
    except OSError as err:
        _fail(f"{out}: {err.strerror or err}")
    report = replay.verify()
    if not report.ok:
        typer.echo(visible(f"note: {file}: {report.verdict} (the export says so)"), err=True)
        raise typer.Exit(1)


def _export_chunks(replay: Replay, fmt: str, viewer: Viewer = TABLE) -> Iterator[str]:
    """The export as chunks of text, made as they are written (ExportError when the first is asked
    for): memory does not grow with the record."""
    yield from export_stream(replay, fmt, viewer=viewer)


def _viewer(seat: str | None, replay: Replay) -> Viewer:
    """The point of view ``--seat`` names (the full table when not given); one line when none."""
    if seat is None:
        return TABLE
    try:
        return parse_viewer(seat, replay.seat_names)
    except RulesError as err:
        _fail(f"--seat: {err}")


@replay_app.command("view")
def view_command(
    file: Path = FILE,
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Where saved records and keymap.toml live."),
) -> None:
    """Open a record in the replay viewer (the app), with the data files given (--map, --cards)."""
    lookup = games(file)
    _read(file, lookup)  # a damaged file gets its one line here, before the screen opens
    from tui.app import FiefdomApp

    try:
        app = FiefdomApp(data_dir, open_path=file, games=lookup)
    except OSError as err:
        _fail(f"cannot use the data folder {data_dir}: {err.strerror or err}")
    app.run()


from tui import cli_notes  # noqa: E402,F401  # registers note and variations (it uses this module's helpers)
from tui import cli_analyse  # noqa: E402,F401  # registers analyse
