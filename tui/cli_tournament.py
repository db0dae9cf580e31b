"""``fiefdom tournament GAME --seat-kinds A,B,...``: seat kinds played against each other in every
pairing and seat position; a table of results, the ratings and their chart, or JSON (tui/tournament.py,
docs/tournament.md). Every failure a user can cause is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from core import games as core_games
from core.engine import RulesError
from tui.cli_support import (AI_DEPTH_HELP, AI_TIME_HELP, CLUSTER_HELP, JOBS_HELP, OPTION_HELP, VARIANT_HELP, fail,
                             takes_data_flags)

KINDS_HELP = ("The contenders, separated by commas (two at least, each once): ai (the game's AI), ai:LEVEL or "
              "LEVEL (one of its AI levels, fiefdom games GAME), bot (the rulebook's bot), random.")
GAMES_HELP = ("Games for each arrangement of the kinds on the seats (each pairing in each seat position): "
              "the tournament plays this many times the arrangements.")
INTERRUPTED = 130  # what a shell shows for a program stopped by Ctrl-C (128 + SIGINT)


def register(app: typer.Typer) -> None:
    app.command("tournament", no_args_is_help=True)(takes_data_flags(tournament))


def tournament(
    game: str = typer.Argument(..., help=f"The game: {', '.join(core_games.names())}.", metavar="GAME",
                               show_default=False),
    seat_kinds: str = typer.Option(..., "--seat-kinds", "-k", help=KINDS_HELP, metavar="KIND,KIND,...",
                                   show_default=False),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help=VARIANT_HELP),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE"),
    data: list[str] = typer.Option([], "--data", help="A data file of the game's own, as KEY=FILE, repeatable.",
                                   metavar="KEY=FILE"),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole tournament; each game gets its own."),
    games: int = typer.Option(10, "--games", "-n", min=1, max=10**9, help=GAMES_HELP),
    ai_time: Optional[float] = typer.Option(None, "--ai-time", min=0.001, help=AI_TIME_HELP),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help=AI_DEPTH_HELP),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder, "
                                       "named by arrangement and round."),
    force: bool = typer.Option(False, "--force", help="Replace records of an earlier tournament with the same names."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP, metavar="ADDRESS"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No line for each game: the summary only."),
    as_json: bool = typer.Option(False, "--json", help="Print everything as JSON instead (no line for each game)."),
    **flags: Any,
) -> None:
    """Play seat kinds of GAME against each other: every pairing in every seat position, --games times;
    print the wins, draws and losses, each kind's mean score with its 95% interval, by seat too, the
    openskill ratings and a chart of them (docs/tournament.md).

    The games are shared out among --jobs processes (or a cluster's workers) and taken back in the
    schedule's order: the records, the table, the ratings and the JSON are the same for any --jobs,
    as long as no AI seat plays against the clock (--ai-time; without it, an AI works to a count).
    Ctrl-C stops at once and prints what the games that ended make.
    """
    from tui.cli_support import SIMULATE_WORDS, SimulateWords, batch_errors, jobs_for, new_game, seat_plans
    from tui.progress import Progress
    from tui.simulate import run_stamp
    from tui.tournament import Tournament, as_json as to_json, parse_kinds, run, summary

    chosen = new_game(game, variant, [], option, data, flags, seed, people=False, ai_time=ai_time,
                      ai_depth=ai_depth)
    setup = chosen.setup
    gi = chosen.games(setup.game)
    try:
        kinds, seats = parse_kinds(seat_kinds, gi, setup.variant)
    except RulesError as err:
        fail(str(err))

    def plans(words: Any) -> Any:
        return seat_plans(gi, setup.variant, [f"{n}={w}" for n, w in enumerate(words, start=1)], people=False,
                          ai_time=ai_time, ai_depth=ai_depth)[0]

    tour = Tournament(setup, kinds, seats, games, plans, out=out, force=force, inputs=chosen.inputs,
                      jobs=jobs_for(jobs, cluster), cluster=cluster, stamp=run_stamp())
    words = SIMULATE_WORDS.get(setup.game, SimulateWords())
    with Progress(tour.games, "games", quiet=quiet or as_json) as progress:
        with batch_errors():
            standings = run(tour, chosen.games, reason=words.reason or (lambda result: result.reason),
                            progress=progress.line, noun=words.noun)
    if as_json:
        typer.echo(json.dumps(to_json(standings), indent=2))
    else:
        typer.echo(summary(standings, words.noun))
    if not standings.complete:
        raise typer.Exit(INTERRUPTED)
