"""Taifa's own commands: ``fiefdom taifa map|cards|play`` and ``fiefdom simulate taifa``, and the
``--map``/``--cards`` flags for its data files on the generic commands (replay, resume).

This module is imported whenever the command line is built, so it imports
nothing of the game: each command does, when it runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

import typer

from notation.wording import visible
from tui.cli_choices import canonical_list, rule_options
from tui.cli_choices import variant as canonical_variant
from tui.cli_support import PLAY_SEED_HELP, add_data_flag, fail, load_data, load_file, play_seed, visible_lines

MAP_HELP = "Your own map file (TOML, see docs/taifa-map.md) instead of the reconstruction."
CARDS_HELP = "Your own decks file (TOML, see docs/taifa-cards.md) instead of the reconstruction."
SCENARIO_HELP = "standard (six kingdoms) or el-cid (four)."
OPTION_HELP = "A rule option as name=value: almoravid_hand=12..16 (el-cid)."
SEAT_WORDS = ("human", "bot", "ai", "random")  # a person, the rulebook's bot (section 9), the AI, random moves


def taifa_map(
    map_file: Optional[Path] = typer.Option(None, "--map", help="Your own map file (TOML, see docs/taifa-map.md)."),
    scenario: str = typer.Option("standard", "--scenario", help="standard or el-cid: whose areas at the start."),
) -> None:
    """Print the areas: id, name, owner at the start, defence, garrison, flags and borders."""
    from core.taifa.map import load_map

    scenario = canonical_variant("taifa", scenario)
    if scenario not in ("standard", "el-cid"):
        fail(f"--scenario is standard or el-cid, not {scenario!r}")
    m = load_file(map_file, load_map) if map_file else load_map()
    deployment = m.standard if scenario == "standard" else m.el_cid
    typer.echo(f"{'id':>3}  {'area':<16} {'owner':<12} def  flags  borders")
    for a in m:
        if a.id not in deployment.areas:
            continue
        flags = "".join((
            "C" if deployment.capitals.get(deployment.owner(a.id)) == a.id else "-",
            "G" if a.id in deployment.garrisons else "-",
            "I" if a.invasion else "-",
            "E" if a.east else "-",
        ))
        borders = ", ".join(f"{b.id} {b.name}" for b in m.neighbours(a.id) if b.id in deployment.areas)
        # A user's own map is anyone's text: each line made visible.
        typer.echo(visible(f"{a.id:>3}  {a.name:<16} {deployment.owner(a.id):<12} {a.defence:>3}  {flags}   {borders}"))
    typer.echo("flags: C capital, G garrison, I invasion route, E east of the El Cid line. "
               "This map is a reconstruction (docs/taifa-map.md).")


def taifa_cards(
    cards_file: Optional[Path] = typer.Option(None, "--cards", help="Your own decks file (TOML, see docs/taifa-cards.md)."),
) -> None:
    """List both decks: id, name, kind, strength or timing, markers and text."""
    from core.taifa.cards import load_cards

    decks = load_file(cards_file, load_cards) if cards_file else load_cards()
    for deck in decks:
        typer.echo(visible(f"== {deck.name} deck: {len(deck)} cards"))
        for c in deck:
            if c.kind == "troop":
                what = f"troop {c.strength}"
            elif c.kind == "response":
                what = f"response ({'/'.join(c.when)}; {c.who})"
            else:
                what = "event"
            marks = "".join(m[0].upper() if m != "offensive" else "O" for m in sorted(c.markers))
            typer.echo(visible(f"{c.id:<4} {c.name:<24} {what:<36} {marks:<3} {c.text}"))  # a user's own decks too
    typer.echo("markers: P permanent for the turn, D removed once played, O Offensive (bots). "
               "These decks are a reconstruction (docs/taifa-cards.md).")


def _data(map_file: Optional[Path], cards_file: Optional[Path]) -> dict[str, Any]:
    """The user's own map and decks, loaded (one line, exit 2, when one is unusable)."""
    return load_data("taifa", [(key, path) for key, path in (("map", map_file), ("cards", cards_file)) if path])


def _template(scenario: str, option: list[str]) -> Any:
    """A game at the scenario's start: checks the scenario and the options in the rules' own words."""
    from core.engine import RulesError
    from core.taifa.game import TaifaGame

    try:
        return TaifaGame(scenario, rule_options("taifa", scenario, option))
    except RulesError as err:
        fail(str(err))


def play(
    scenario: str = typer.Option("standard", "--scenario", help=SCENARIO_HELP),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="human, bot, ai or random per kingdom in play order, comma-separated "
        "(default: you play Castile, or El Cid in el-cid; the rest are bots)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed for the dice and shuffles " + PLAY_SEED_HELP),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the record (default: your data folder)."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists (never --map or --cards)."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    map_file: Optional[Path] = typer.Option(None, "--map", help=MAP_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    data_dir_opt: Optional[Path] = typer.Option(None, "--data-dir", help="Where records are saved by default."),
    table_dice: bool = typer.Option(False, "--table-dice",
                                    help="Type the dice thrown on a real table (shuffles and picks stay seeded)."),
) -> None:
    """Play Taifa at the prompt: any mix of human, rulebook bot and AI seats, every step recorded."""
    from core import games as core_games
    from notation.runner import GameSetup, SeatPlan
    from tui.cli_support import play_at_prompt, start_runner

    data = _data(map_file, cards_file)
    scenario = canonical_variant("taifa", scenario)
    template = _template(scenario, option)
    games = core_games.lookup({"taifa": data})
    specs = games("taifa").seat_specs(scenario)
    kinds = [s.default for s in specs] if seats is None else canonical_list(seats, SEAT_WORDS)
    if len(kinds) != len(specs) or any(k not in SEAT_WORDS for k in kinds):
        fail(f"--seats takes {len(specs)} of human/bot/ai/random separated by commas, in play order "
             f"({', '.join(s.name for s in specs)}); got {seats!r}")
    setup = GameSetup("taifa", scenario, tuple(SeatPlan(k) for k in kinds), play_seed(seed), dict(template.opts),
                      chance="manual" if table_dice else "seeded")
    play_at_prompt(start_runner(setup, out, force, games, data_dir=data_dir_opt, inputs=(map_file, cards_file)))


def _reason(result: Any) -> str:
    """Reasons tallied without their counts: ``most castles after turn 3 (10)`` -> ``(n)``."""
    return re.sub(r"(?<!turn )(?<!all )\b\d+\b", "n", result.reason)


def simulate(
    scenario: str = typer.Option("standard", "--scenario", help=SCENARIO_HELP),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole run; each game gets its own."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder."),
    force: bool = typer.Option(False, "--force", help="Replace records of an earlier run with the same names."),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="One of bot/ai/random per kingdom, in play order, comma-separated (default: all bot)."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    map_file: Optional[Path] = typer.Option(None, "--map", help=MAP_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
) -> None:
    """Play headless Taifa games, print the wins per kingdom, the reasons and the games per second.

    A bot seat is played by the rulebook's bot (section 9: rules, not a player);
    ai is the Taifa AI; random picks any legal option (for fuzzing).
    """
    from core import games as core_games
    from notation.runner import GameSetup, SeatPlan
    from tui.cli_support import run_batch
    from tui.simulate import Batch

    data = _data(map_file, cards_file)
    kinds = [] if seats is None else canonical_list(seats, SEAT_WORDS[1:])
    if any(k not in SEAT_WORDS[1:] for k in kinds):
        fail(f"--seats takes bot, ai or random for each kingdom, separated by commas, got {seats!r}")
    scenario = canonical_variant("taifa", scenario)
    template = _template(scenario, option)
    names = template.seats
    kinds = kinds or ["bot"] * len(names)
    if len(kinds) != len(names):
        fail(f"--seats lists {len(kinds)} seats; taifa {scenario} has {len(names)} ({', '.join(names)})")
    setup = GameSetup("taifa", scenario, tuple(SeatPlan(k) for k in kinds), seed, dict(template.opts))
    batch = Batch(setup, games, out, typer.echo, reason=_reason, force=force,
                  inputs=tuple(p for p in (map_file, cards_file) if p is not None))
    tally = run_batch(batch, core_games.lookup({"taifa": data}))
    wins = ", ".join(f"{n} {tally.wins[n]}" for n in names)
    lines = [
        f"{games} games of taifa {scenario}, seed {seed}, seats {batch.kinds}",
        f"wins: {wins}" + (f"; no winner {tally.draws}" if tally.draws else ""),
        f"shared wins: {tally.shared} (each winner of a shared win is counted above)",
        tally.reasons_line(),
    ]
    typer.echo(visible_lines("\n".join(lines + tally.speed_lines("steps", out))))


def register(app: typer.Typer, simulate_app: typer.Typer) -> None:
    """Add ``fiefdom taifa ...``, ``fiefdom simulate taifa``, and --map/--cards on replay and resume."""
    taifa_app = typer.Typer(no_args_is_help=True, add_completion=False,
                            help="Taifa: play at the prompt, and the reconstructed map and decks.")
    taifa_app.command("map")(taifa_map)
    taifa_app.command("cards")(taifa_cards)
    taifa_app.command("play")(play)
    app.add_typer(taifa_app, name="taifa")
    simulate_app.command("taifa")(simulate)
    add_data_flag("--map", "map", "A Taifa record's own map file (docs/taifa-map.md): --data map=FILE.")
    add_data_flag("--cards", "cards", "A Taifa record's own decks file (docs/taifa-cards.md): --data cards=FILE.")
