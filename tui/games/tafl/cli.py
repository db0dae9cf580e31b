"""Tafl's own commands: ``fiefdom tafl analyse|bench|variants|rules-string|export-otg|import-otg|puzzles|puzzle``
and ``fiefdom engine``. Playing and simulating are the generic ``fiefdom play tafl`` and
``fiefdom simulate tafl``; this module only names what a step is called in their summary (a move).

This module is imported whenever the command line is built, so it imports
nothing of the game: each command does, when it runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from tui.cli_choices import canonical, rule_options
from tui.cli_choices import variant as canonical_variant
from tui.cli_support import SimulateWords, add_simulate_words, check_seconds, fail

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


def _options(variant: str, option: list[str]) -> dict[str, Any]:
    """The variant's rule options with ``--option`` applied, checked by the rules (one line when bad)."""
    from core.engine import RulesError
    from core.tafl import TaflGame

    try:
        return dict(TaflGame(variant, rule_options("tafl", variant, option)).opts)
    except RulesError as err:
        fail(str(err))


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
    _write_text(out, text, force)


def _write_text(out: Optional[Path], text: str, force: bool) -> None:
    """``text`` to stdout (``out`` None) or written whole to ``out``; one line, exit 2, when it cannot be."""
    from notation.files import write_whole

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


def puzzles(
    folder: Path = typer.Option(..., "--from", help="A folder of Tafl .fief records (e.g. from `fiefdom simulate tafl --out`).",
                                show_default=False),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the puzzle file here instead of to stdout."),
    max_moves: int = typer.Option(3, "--max", min=1, max=5, help="The longest win a puzzle asks for, in the winner's moves."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
    saves: bool = typer.Option(False, "--saves", help="Also the positions where only one move does not lose by force."),
) -> None:
    """Find puzzles in a folder of records: positions where exactly one move wins by force.

    Every position of every record, both sides, each position once: the AI at a fixed depth picks
    the ones worth proving, then an exact proof on the rules decides (docs/tafl-puzzles.md). The
    puzzles are written as JSON lines; `fiefdom tafl puzzle FILE` plays them.
    """
    import sys
    import time

    from core.tafl.puzzles import dump_puzzle
    from notation.wording import visible
    from tui.cli_support import output_path
    from tui.games.tafl.puzzle_files import find_puzzles, records_in

    if out is not None:
        output_path(out, force)
    try:
        files = records_in(folder)
    except OSError as err:
        fail(f"{folder}: {err.strerror or err}")
    if not files:
        fail(f"{folder}: no .fief records in it")
    tty = sys.stderr is not None and sys.stderr.isatty()

    def progress(line: str) -> None:
        typer.echo(f"\r\x1b[K{visible(line)}", err=True, nl=False)

    start = time.perf_counter()
    found = find_puzzles(files, max_moves, progress=progress if tty else None, saves=saves)
    if tty:
        typer.echo("\r\x1b[K", err=True, nl=False)
    for line in found.unreadable:
        typer.echo(visible(f"skipped {line}"), err=True)
    text = "".join(dump_puzzle(p) + "\n" for p in found.puzzles)
    if out is None or found.puzzles:
        _write_text(out, text, force)
    wins = [p for p in found.puzzles if p.kind == "win"]
    by_length = ", ".join(f"{sum(p.moves == k for p in wins)} in {k}" for k in range(1, max_moves + 1))
    if saves:
        by_length += f", {len(found.puzzles) - len(wins)} saves"
    where = f" to {out}" if out is not None and found.puzzles else ""
    typer.echo(f"{len(found.puzzles)} puzzles ({by_length}){where} from {found.records} records, "
               f"{found.positions} positions, {found.proved} proved, in {time.perf_counter() - start:.1f}s",
               err=True)


def puzzle(
    file: Path = typer.Argument(..., help="A puzzle file (`fiefdom tafl puzzles` writes them).", metavar="FILE",
                                show_default=False),
    prompt: bool = typer.Option(False, "--prompt", help="Play at the text prompt instead of the app."),
) -> None:
    """Play the puzzles of a puzzle file: in the app, or at the text prompt with --prompt."""
    from core.tafl.puzzles import PuzzleError
    from tui.games.tafl.puzzle_files import read_puzzle_file

    try:
        found = read_puzzle_file(file)
    except PuzzleError as err:
        fail(f"{file}: {err}")
    if prompt:
        from tui.games.tafl.puzzle_prompt import play_puzzles

        try:
            typer.echo(play_puzzles(found))
        except KeyboardInterrupt:
            typer.echo("")
        return
    from tui.games.tafl.puzzle_screen import PuzzleApp

    PuzzleApp(found).run()


def register(app: typer.Typer) -> None:
    """Add ``fiefdom tafl ...`` and ``fiefdom engine`` (Tafl's OTEP engine); simulate's steps are moves."""
    tafl_app = typer.Typer(no_args_is_help=True, add_completion=False,
                           help="Tafl tools: analyse positions and moves, measure the AI, OpenTafl game files, puzzles "
                                "(play with `fiefdom play tafl`).")
    tafl_app.command("analyse")(analyse)
    tafl_app.command("bench")(bench)
    tafl_app.command("variants")(variants)
    tafl_app.command("rules-string")(rules_string)
    tafl_app.command("export-otg")(export_otg)
    tafl_app.command("import-otg")(import_otg)
    tafl_app.command("puzzles")(puzzles)
    tafl_app.command("puzzle")(puzzle)
    app.add_typer(tafl_app, name="tafl")
    app.command("engine")(engine)
    add_simulate_words("tafl", SimulateWords(noun="moves"))
