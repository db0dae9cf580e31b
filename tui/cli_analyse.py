"""``fiefdom replay analyse``: each decision of a record judged by the game's AI (notation/analysis.py),
printed as text or JSON and kept in the record's annex (a finished record's) for the viewer.

Exit codes as the other replay commands: 0 done (stopped with Ctrl-C too: what was judged is kept);
2 the file cannot be read, the game has no reviewer, or a bad argument. One line on stderr each.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Optional

import typer

from core.engine import RulesError
from notation.analysis import Progress, analyse, default_seats, keep_analysis, seats_named
from notation.analysis_words import json_report, text_report
from notation.files import write_whole
from notation.replay import Replay
from notation.tasks import ClusterError
from notation.wording import visible
from tui.cli_replay import _DATA, FILE, _fail, _read, games, replay_app
from tui.cli_support import CLUSTER_HELP, JOBS_HELP, jobs_for, output_path


def _progress_to_terminal() -> Callable[[Progress], None]:
    """A bar on stderr when it is a terminal, nothing otherwise."""
    if not sys.stderr.isatty():
        return lambda p: None

    def show(p: Progress) -> None:
        width = 30
        filled = width * p.done // p.total if p.total else width
        sys.stderr.write(f"\r[{'#' * filled}{'-' * (width - filled)}] {p.done}/{p.total} decisions")
        sys.stderr.flush()
    return show


@replay_app.command("analyse")
def analyse_command(
    file: Path = FILE,
    seconds: Optional[float] = typer.Option(
        None, "--seconds", "-t", min=0.01, max=600.0, metavar="S",
        help="Work per decision, in seconds at the reference speed (counted as nodes or rollouts, so the "
             "figures do not depend on the machine). Default: the game's (Tafl 1, Taifa and Take the Kingdom 4)."),
    seat: list[str] = typer.Option(
        [], "--seat", metavar="NAME", help="A seat to analyse (name or number); again for more. "
                                           "Default: the seats people played, else every seat."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the report here instead of to stdout."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists (never FILE itself)."),
    as_json: bool = typer.Option(False, "--json", help="The report as JSON."),
    seed: int = typer.Option(0, "--seed", min=0, max=2**63 - 1, help="The seed of the rollouts."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP, metavar="ADDRESS"),
    keep: bool = typer.Option(True, "--keep/--no-keep",
                              help="Keep the analysis in FILE (a finished record) for the viewer; it never "
                                   "changes the game, and FILE still verifies."),
) -> None:
    """Judge each decision of FILE with the game's AI: the chances before and after, the better
    choice and its line or gain, and a mark (inaccuracy, mistake, blunder; docs/review.md).

    Ctrl-C stops it and keeps what was judged; run it again to judge the rest."""
    processes = jobs_for(jobs, cluster)
    if out is not None:
        output_path(out, force, [file, *(path for _, path in _DATA)])
    recording = _read(file)
    lookup = games(file)
    header = recording.header
    try:
        chosen = seats_named(header, seat) if seat else default_seats(header)
    except RulesError as err:
        _fail(f"--seat: {err}")
    previous = recording.annex.analysis if recording.annex is not None else None
    progress = _progress_to_terminal()
    try:
        analysis, whole = analyse(recording, games=lookup, seconds=seconds, seats=chosen, seed=seed,
                                  processes=processes, previous=previous, progress=progress, cluster=cluster)
    except RulesError as err:
        _fail(f"{file}: {err}")
    except ClusterError as err:
        _fail(str(err))
    finally:
        if sys.stderr.isatty():
            sys.stderr.write("\n")
    replay = Replay(recording, games=lookup)
    kept = ""
    if keep and analysis.decisions:
        why = keep_analysis(file, recording, analysis, lookup)
        kept = f"kept in {file}" if why is None else f"not kept in the file: {why}"
    if as_json:
        text = json.dumps(json_report(replay, analysis, whole), indent=1) + "\n"
    else:
        score_word = lookup(header.game).score_word
        text = "\n".join(visible(line) for line in text_report(replay, analysis, score_word, whole)) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        try:
            write_whole(out, [text.encode("utf-8")], replace=force)
        except OSError as err:
            _fail(f"{out}: {err.strerror or err}")
    if kept:
        typer.echo(visible(f"analysis {kept}" + ("" if whole else " (stopped: run it again for the rest)")), err=True)
