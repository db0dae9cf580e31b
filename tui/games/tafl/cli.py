"""Tafl's own commands: ``fiefdom tafl analyse|bench|play`` and ``fiefdom simulate tafl``.

This module is imported whenever the command line is built, so it imports
nothing of the game: each command does, when it runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from tui.cli_choices import canonical, canonical_list, rule_options
from tui.cli_choices import variant as canonical_variant
from tui.cli_support import PLAY_SEED_HELP, check_depth, check_seconds, fail, play_seed

if TYPE_CHECKING:
    from notation.runner import SeatPlan

SIDES = {"attackers": 0, "defenders": 1}
OPTION_HELP = "A rule option as name=value (see docs/rulings/tafl.md), repeatable."
# The rulesets come from the registry: listing them here would import the game at start-up.
VARIANT_HELP = "The ruleset (`fiefdom tafl variants` lists them)."


def analyse(
    moves: list[str] = typer.Argument(None, help="Moves to apply in order, e.g. e1-e4 or e1e4."),
    variant: str = typer.Option("traditional", "--variant", "-v", help=VARIANT_HELP),
    position: Optional[str] = typer.Option(None, "--position", "-p", help="OpenTafl position string (rows from rank 1 up)."),
    to_move: str = typer.Option("attackers", "--to-move", help="attackers or defenders."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
    best: int = typer.Option(0, "--best", min=0, max=20,
                             help="Also ask the AI for this many best moves from the final position, each with its line."),
    seconds: float = typer.Option(1.0, "--seconds", min=0.01, help="How long the AI thinks for --best."),
) -> None:
    """Apply moves to a position and show every capture, the result and the legal moves.

    The tool for settling "was that a capture?": each move is printed as its
    full OpenTafl record (d7-d3xKc3) with the rule behind every capture. With
    --best N, the AI's N best moves from there follow, each with the play it
    expects and its score for the side to move (1.00 = one attacker).
    """
    from core.engine import RulesError
    from core.tafl import TaflGame
    from tui.games.tafl.otep import ai_analyse

    variant, to_move = canonical_variant("tafl", variant), canonical(to_move, SIDES)
    if to_move not in SIDES:
        fail(f"--to-move is attackers or defenders, not {to_move!r}")
    try:
        game = TaflGame(variant, rule_options("tafl", variant, option), position, SIDES[to_move])
    except RulesError as err:
        fail(str(err))
    records: list[dict[str, Any]] = []
    for number, text in enumerate(moves or [], start=1):
        try:
            events = game.apply(game.parse(text))
        except RulesError as err:
            fail(f"move {number}: {err}")
        records.append({
            "record": next(e.data[0] for e in events if e.kind == "move"),
            "events": [{"kind": e.kind, "text": e.text, "rule": e.rule} for e in events],
        })
    result = None
    if game.result is not None:
        r = game.result
        result = {"winner": game.seats[r.winners[0]] if r.winners else None, "reason": r.reason, "rule": r.rule}
    legal = [game.describe(code) for code in getattr(game.point(), "options", ())]
    lines = ai_analyse(game, check_seconds(seconds, "--seconds"), 0, best) if best else []
    if as_json:
        typer.echo(json.dumps({
            "records": [r["record"] for r in records],
            "position": game.position(),
            "to_move": game.seats[game.to_move],
            "result": result,
            "legal": legal,
            **({"best": [{"moves": [f"{a}-{b}" for a, b in line.moves], "score": line.score / 100}
                         for line in lines]} if best else {}),
        }))
        return
    for number, rec in enumerate(records, start=1):
        typer.echo(f"{number}. {rec['record']}")
        for e in rec["events"]:
            if e["kind"] != "move":
                typer.echo(f"     {e['text']}  [{e['rule']}]")
    typer.echo(f"position: {game.position()}")
    typer.echo(f"to move: {game.seats[game.to_move]}")
    if result:
        who = f"{result['winner']} win" if result["winner"] else "draw"
        typer.echo(f"result: {who}: {result['reason']} [{result['rule']}]")
    else:
        typer.echo("result: none (game in progress)")
    typer.echo(f"legal ({len(legal)}): {' '.join(legal)}")
    if best:
        typer.echo(f"best ({len(lines)}):" if lines else "best: none (the game is over)")
        for number, line in enumerate(lines, start=1):
            typer.echo(f"{number}. {' '.join(f'{a}-{b}' for a, b in line.moves)}  {line.score / 100:+.2f}")


def bench(
    variant: str = typer.Option("traditional", "--variant", "-v", help=VARIANT_HELP),
    seconds: float = typer.Option(1.0, "--seconds", min=0.01, help="How long to search each position."),
) -> None:
    """Measure the AI: nodes per second and depth reached on the start and a fixed middle-game position."""
    from core.engine import RulesError
    from core.tafl.ai import benchmark

    check_seconds(seconds, "--seconds")
    variant = canonical_variant("tafl", variant)
    for position in ("start", "middle"):
        try:
            b = benchmark(variant, seconds, position)
        except RulesError as err:
            fail(str(err))
        typer.echo(f"tafl {b['variant']} {position}: depth {b['depth']} in {b['seconds']:.2f}s, "
                   f"{b['nodes']} nodes, {b['nodes_per_second']:.0f} nodes/s")


LEVEL_HELP = "or an AI level: beginner, casual, strong, full"


def _seats(players: str, allowed: tuple[str, ...], ai_time: float, ai_depth: int | None) -> tuple[SeatPlan, ...]:
    """Two seat plans (attackers, defenders) from ``--players``; one line, exit 2, when it is not that.

    Besides ``allowed``, a seat may name an AI level (core.tafl.LEVELS): the AI at that strength,
    like Take the Kingdom's ``greedy`` seat.
    """
    from core.match import Limit
    from core.tafl import LEVELS
    from notation.runner import SeatPlan

    words = (*allowed, *LEVELS)
    kinds = canonical_list(players, words)
    if len(kinds) != 2 or any(k not in words for k in kinds):
        fail(f"--players takes two of {'/'.join(words)} separated by a comma (attackers,defenders), got {players!r}")
    check_seconds(ai_time, "--ai-time")
    check_depth(ai_depth, "--ai-depth")
    return tuple(SeatPlan("ai", Limit(seconds=ai_time, depth=ai_depth, level=k if k in LEVELS else None))
                 if k == "ai" or k in LEVELS else SeatPlan(k) for k in kinds)


def _shown(seats: tuple[SeatPlan, ...]) -> str:
    """The seats as typed: a level for an AI seat that names one (``beginner,ai``)."""
    return ",".join(p.limit.level if p.kind == "ai" and p.limit and p.limit.level else p.kind for p in seats)


def _options(variant: str, option: list[str]) -> dict[str, Any]:
    """The variant's rule options with ``--option`` applied, checked by the rules (one line when bad)."""
    from core.engine import RulesError
    from core.tafl import TaflGame

    try:
        return dict(TaflGame(variant, rule_options("tafl", variant, option)).opts)
    except RulesError as err:
        fail(str(err))


def play(
    variant: str = typer.Option("traditional", "--variant", "-v", help=VARIANT_HELP),
    players: str = typer.Option("human,ai", "--players", help=f"attackers,defenders: each human, ai or random, {LEVEL_HELP}."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s",
                                       help="Seed for the AI's and random movers' choices " + PLAY_SEED_HELP),
    ai_time: float = typer.Option(1.0, "--ai-time", min=0.001, help="The AI's time per move, in seconds."),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help="Cap the AI's search depth."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the record (default: your data folder)."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Where records are saved by default."),
) -> None:
    """Play Tafl at the text prompt: type moves (e1-e4) or their numbers; every move is recorded."""
    from core import games as core_games
    from notation.runner import GameSetup
    from tui.cli_support import play_at_prompt, start_runner

    variant = canonical_variant("tafl", variant)
    setup = GameSetup("tafl", variant, _seats(players, ("human", "ai", "random"), ai_time, ai_depth), play_seed(seed),
                      _options(variant, option))
    play_at_prompt(start_runner(setup, out, force, core_games.info, data_dir=data_dir))


def simulate(
    variant: str = typer.Option("traditional", "--variant", "-v", help=VARIANT_HELP),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole run; each game gets its own."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder."),
    force: bool = typer.Option(False, "--force", help="Replace records of an earlier run with the same names."),
    players: str = typer.Option("ai,ai", "--players", help=f"attackers,defenders: each ai or random, {LEVEL_HELP}."),
    ai_time: float = typer.Option(0.2, "--ai-time", min=0.001, help="The AI's time per move, in seconds."),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help="Cap the AI's search depth."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
) -> None:
    """Play headless Tafl games, print the results and the games per second."""
    from notation.runner import GameSetup
    from tui.cli_support import run_batch
    from tui.simulate import Batch

    variant = canonical_variant("tafl", variant)
    seats = _seats(players, ("ai", "random"), ai_time, ai_depth)  # tafl has no rulebook bot
    setup = GameSetup("tafl", variant, seats, seed, _options(variant, option))
    batch = Batch(setup, games, out, typer.echo, noun="moves", force=force)
    tally = run_batch(batch)
    lines = [
        f"{games} games of tafl {variant}, seed {seed}, players {_shown(seats)}",
        "results: " + ", ".join(f"{k} {tally.wins[k] if k != 'draw' else tally.draws}"
                                for k in ("attackers", "defenders", "draw")),
        tally.reasons_line(),
    ]
    typer.echo("\n".join(lines + tally.speed_lines("moves", out)))


def variants() -> None:
    """List the Tafl rulesets (variants) with their rule options and defaults."""
    from core import games as core_games

    game = core_games.info("tafl")
    for key, title in game.variants:
        options = ", ".join(f"{o.name}={str(o.default).lower()}" for o in game.option_specs(key))
        typer.echo(f"{key:<12} {title:<18} {options}")


def rules_string(
    variant: str = typer.Option("traditional", "--variant", "-v", help=VARIANT_HELP),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
) -> None:
    """Print the variant's OpenTafl rules string (for OpenTafl's external-rules.conf; docs/otep.md)."""
    from core.engine import RulesError
    from core.tafl.otn_rules import rules_string as otn_rules_string

    variant = canonical_variant("tafl", variant)
    try:
        typer.echo(otn_rules_string(variant, _options(variant, option)))
    except RulesError as err:
        fail(str(err))


def export_otg(
    record: Path = typer.Argument(..., help="A Tafl .fief record.", metavar="RECORD", show_default=False),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the .otg here instead of to stdout."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
) -> None:
    """Write a Tafl record as an OpenTafl game record (.otg); one that does not verify is refused."""
    from notation.export import ExportError
    from notation.files import write_whole
    from notation.format import RecordError
    from notation.games.tafl import export_otg as otg_of
    from notation.reader import read_record_file
    from tui.cli_support import output_path

    if out is not None:
        output_path(out, force, [record])
    try:
        text = otg_of(read_record_file(record))
    except (RecordError, ExportError) as err:
        fail(f"{record}: {err}")
    except OSError as err:
        fail(f"{record}: {err.strerror or err}")
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        write_whole(out, [text.encode("utf-8")], replace=force)
    except FileExistsError:
        fail(f"{out} exists; give --force to replace it")
    except OSError as err:
        fail(f"{out}: {err.strerror or err}")


def import_otg(
    game_file: Path = typer.Argument(..., help="An OpenTafl game record (.otg).", metavar="GAME", show_default=False),
    out: Path = typer.Option(..., "--out", "-o", help="The .fief record to write.", show_default=False),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
) -> None:
    """Read an OpenTafl game record into a .fief record that `fiefdom replay verify` accepts.

    Every move is checked under fiefdom's rules first; a file fiefdom cannot play (other rules,
    an illegal move, a capture the rules do not make, damage) is refused in one line, exit 2.
    """
    from notation.games.tafl import MAX_BYTES, OtgError, read_otg, write_fief
    from tui.cli_support import output_path

    output_path(out, force, [game_file])
    try:
        with game_file.open("rb") as f:
            data = f.read(MAX_BYTES + 1)  # a bigger file is refused without reading it all
        game = read_otg(data)
    except OtgError as err:
        fail(f"{game_file}: {err}")
    except OSError as err:
        fail(f"{game_file}: {err.strerror or err}")
    try:
        write_fief(game, out, replace_file=force)
    except FileExistsError:
        fail(f"{out} exists; give --force to replace it")
    except OSError as err:
        fail(f"{out}: {err.strerror or err}")
    typer.echo(f"{out}: {len(game.moves)} moves of tafl {game.variant}"
               + (" (resigned in the .otg: the record stays unfinished)" if game.resigned else ""))


def engine(
    otep: bool = typer.Option(False, "--otep", help="Speak the OpenTafl Engine Protocol on stdin/stdout."),
    max_seconds: float = typer.Option(5.0, "--max-seconds", min=0.01,
                                      help="The most the AI thinks per move (the host's clock may give less)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the AI's choice between equal moves."),
) -> None:
    """Run fiefdom's Tafl AI as an engine for another program (OpenTafl: --otep; see docs/otep.md)."""
    if not otep:
        fail("say which protocol to speak: --otep (the OpenTafl Engine Protocol) is the one there is")
    check_seconds(max_seconds, "--max-seconds")
    from tui.games.tafl.otep import InputError, main

    try:
        code = main(max_seconds, seed)
    except InputError as err:
        fail(f"cannot read standard input: {err}")
    raise typer.Exit(code)


def register(app: typer.Typer, simulate_app: typer.Typer) -> None:
    """Add ``fiefdom tafl ...``, ``fiefdom simulate tafl`` and ``fiefdom engine`` (Tafl's OTEP engine)."""
    tafl_app = typer.Typer(no_args_is_help=True, add_completion=False,
                           help="Tafl tools: analyse positions and moves, measure the AI, play at the prompt, "
                                "OpenTafl game files.")
    tafl_app.command("analyse")(analyse)
    tafl_app.command("bench")(bench)
    tafl_app.command("play")(play)
    tafl_app.command("variants")(variants)
    tafl_app.command("rules-string")(rules_string)
    tafl_app.command("export-otg")(export_otg)
    tafl_app.command("import-otg")(import_otg)
    app.add_typer(tafl_app, name="tafl")
    app.command("engine")(engine)
    simulate_app.command("tafl")(simulate)
