"""fiefdom's command line (typer). Every failure a user can cause is one line
on stderr and exit status 2; nothing here prints a traceback for bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NoReturn, Optional

import typer

from core.engine import RulesError
from tui.cli_replay import CARDS_HELP, MAP_HELP, replay_app, use_taifa_data

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click errors: "Error: ..." on a line of its own
    help="Play, record and review medieval tabletop games: Tafl and Taifa (Take the Kingdom to come).",
)
tafl_app = typer.Typer(no_args_is_help=True, add_completion=False, help="Tafl tools: analyse positions and moves.")
taifa_app = typer.Typer(no_args_is_help=True, add_completion=False,
                        help="Taifa tools (the game itself is in progress): the reconstructed map.")
simulate_app = typer.Typer(no_args_is_help=True, add_completion=False, help="Play headless games and write records.")
app.add_typer(tafl_app, name="tafl")
app.add_typer(taifa_app, name="taifa")
app.add_typer(simulate_app, name="simulate")


def fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``--option name=value`` pairs; values are checked by the game itself."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            fail(f"--option takes name=value, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


SIDES = {"attackers": 0, "defenders": 1}
OPTION_HELP = "A rule option as name=value (see docs/rulings/tafl.md), repeatable."


@app.command("play")
def play(
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Where autosaves, saved records and keymap.toml live."),
) -> None:
    """Start the app: new game, continue an unfinished one, open a record."""
    from tui.app import FiefdomApp

    try:
        app_ = FiefdomApp(data_dir)
    except OSError as err:
        fail(f"cannot use the data folder {data_dir}: {err.strerror or err}")
    app_.run()


@tafl_app.command("analyse")
def tafl_analyse(
    moves: list[str] = typer.Argument(None, help="Moves to apply in order, e.g. e1-e4 or e1e4."),
    variant: str = typer.Option("traditional", "--variant", "-v", help="traditional, gild-9 or gild-11."),
    position: Optional[str] = typer.Option(None, "--position", "-p", help="OpenTafl position string (rows from rank 1 up)."),
    to_move: str = typer.Option("attackers", "--to-move", help="attackers or defenders."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
) -> None:
    """Apply moves to a position and show every capture, the result and the legal moves.

    The tool for settling "was that a capture?": each move is printed as its
    full OpenTafl record (d7-d3xKc3) with the rule behind every capture.
    """
    from core.tafl import TaflGame

    if to_move not in SIDES:
        fail(f"--to-move is attackers or defenders, not {to_move!r}")
    try:
        game = TaflGame(variant, parse_options(option), position, SIDES[to_move])
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
    if as_json:
        typer.echo(json.dumps({
            "records": [r["record"] for r in records],
            "position": game.position(),
            "to_move": game.seats[game.to_move],
            "result": result,
            "legal": legal,
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


@tafl_app.command("bench")
def tafl_bench(
    variant: str = typer.Option("traditional", "--variant", "-v", help="traditional, gild-9 or gild-11."),
    seconds: float = typer.Option(1.0, "--seconds", min=0.01, help="How long to search the start position."),
) -> None:
    """Measure the AI: nodes per second and depth reached on the start position."""
    from core.tafl.ai import benchmark

    try:
        b = benchmark(variant, seconds)
    except RulesError as err:
        fail(str(err))
    typer.echo(f"tafl {b['variant']}: depth {b['depth']} in {b['seconds']:.2f}s, "
               f"{b['nodes']} nodes, {b['nodes_per_second']:.0f} nodes/s")


@taifa_app.command("map")
def taifa_map(
    map_file: Optional[Path] = typer.Option(None, "--map", help="Your own map file (TOML, see docs/taifa-map.md)."),
    scenario: str = typer.Option("standard", "--scenario", help="standard or el-cid: whose areas at the start."),
) -> None:
    """Print the areas: id, name, owner at the start, defence, garrison, flags and borders."""
    from core.taifa.map import load_map

    if scenario not in ("standard", "el-cid"):
        fail(f"--scenario is standard or el-cid, not {scenario!r}")
    try:
        m = load_map(str(map_file) if map_file else None)
    except RulesError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{map_file}: {err.strerror or err}")
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
        typer.echo(f"{a.id:>3}  {a.name:<16} {deployment.owner(a.id):<12} {a.defence:>3}  {flags}   {borders}")
    typer.echo("flags: C capital, G garrison, I invasion route, E east of the El Cid line. "
               "This map is a reconstruction (docs/taifa-map.md).")


@taifa_app.command("cards")
def taifa_cards(
    cards_file: Optional[Path] = typer.Option(None, "--cards", help="Your own decks file (TOML, see docs/taifa-cards.md)."),
) -> None:
    """List both decks: id, name, kind, strength or timing, markers and text."""
    from core.taifa.cards import load_cards

    try:
        decks = load_cards(str(cards_file) if cards_file else None)
    except RulesError as err:
        fail(str(err))
    for deck in decks:
        typer.echo(f"== {deck.name} deck: {len(deck)} cards")
        for c in deck:
            if c.kind == "troop":
                what = f"troop {c.strength}"
            elif c.kind == "response":
                what = f"response ({'/'.join(c.when)}; {c.who})"
            else:
                what = "event"
            marks = "".join(m[0].upper() if m != "offensive" else "O" for m in sorted(c.markers))
            typer.echo(f"{c.id:<4} {c.name:<24} {what:<36} {marks:<3} {c.text}")
    typer.echo("markers: P permanent for the turn, D removed once played, O Offensive (bots). "
               "These decks are a reconstruction (docs/taifa-cards.md).")


@taifa_app.command("play")
def taifa_play(
    scenario: str = typer.Option("standard", "--scenario", help="standard (six kingdoms) or el-cid (four)."),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="human, bot or ai per kingdom in play order, comma-separated "
        "(default: you play Castile, or El Cid in el-cid; the rest are bots)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the dice and shuffles."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the record (default: your data folder)."),
    option: list[str] = typer.Option([], "--option", "-o", help="A rule option as name=value: almoravid_hand=12..16 (el-cid)."),
    map_file: Optional[Path] = typer.Option(None, "--map", help=MAP_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    data_dir_opt: Optional[Path] = typer.Option(None, "--data-dir", help="Where records are saved by default."),
) -> None:
    """Play Taifa at the prompt: any mix of human, rulebook bot and AI seats, every step recorded."""
    import time as _time

    from core.taifa.game import TaifaGame
    from tui.session import autosave_dir, data_dir
    from tui.taifa_console import play as play_console

    data = use_taifa_data(map_file, cards_file)
    try:
        kingdoms = TaifaGame(scenario, parse_options(option)).s.kingdoms
        you = "castile" if scenario == "standard" else "el_cid"
        kinds = seats.split(",") if seats else ["human" if k == you else "bot" for k in kingdoms]
        if out is None:
            stamp = _time.strftime("%Y%m%d-%H%M%S")
            out = autosave_dir(data_dir(data_dir_opt)) / f"taifa-{scenario}-{stamp}.fief"
        typer.echo(play_console(scenario, kinds, seed, out, parse_options(option), data=data))
    except RulesError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write the record: {err}")


@simulate_app.command("tafl")
def simulate_tafl(
    variant: str = typer.Option("traditional", "--variant", "-v", help="traditional, gild-9 or gild-11."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole run; each game gets its own."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder."),
    players: str = typer.Option("ai,ai", "--players", help="attackers,defenders: each ai or random."),
    ai_time: float = typer.Option(0.2, "--ai-time", min=0.001, help="The AI's time per move, in seconds."),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help="Cap the AI's search depth."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
) -> None:
    """Play headless Tafl games, print the results and the games per second."""
    from tui.simulate import Batch, SeatSpec, run_tafl

    kinds = [p.strip() for p in players.split(",")]
    if len(kinds) != 2 or any(k not in ("ai", "random") for k in kinds):  # tafl has no rulebook bot
        fail(f"--players takes two of ai/random separated by a comma (attackers,defenders), got {players!r}")
    seats = [SeatSpec(kind, ai_time, ai_depth) for kind in kinds]
    try:
        summary = run_tafl(variant, parse_options(option), Batch(games, seed, seats, out, typer.echo))
    except RulesError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write records: {err}")
    typer.echo(summary)


@simulate_app.command("taifa")
def simulate_taifa(
    scenario: str = typer.Option("standard", "--scenario", help="standard (six kingdoms) or el-cid (four)."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole run; each game gets its own."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder."),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="One of bot/ai/random per kingdom, in play order, comma-separated (default: all bot)."),
    option: list[str] = typer.Option([], "--option", "-o", help="A rule option as name=value: almoravid_hand=12..16 (el-cid)."),
    map_file: Optional[Path] = typer.Option(None, "--map", help=MAP_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
) -> None:
    """Play headless Taifa games, print the wins per kingdom, the reasons and the games per second.

    A bot seat is played by the rulebook's bot (section 9: rules, not a player);
    ai is the Taifa AI; random picks any legal option (for fuzzing).
    """
    from tui.simulate import SEAT_KINDS, Batch, SeatSpec, run_taifa

    data = use_taifa_data(map_file, cards_file)
    kinds = [] if seats is None else [k.strip() for k in seats.split(",")]
    if any(k not in SEAT_KINDS for k in kinds):
        fail(f"--seats takes bot, ai or random for each kingdom, separated by commas, got {seats!r}")
    try:
        batch = Batch(games, seed, [SeatSpec(k) for k in kinds], out, typer.echo)
        summary = run_taifa(scenario, parse_options(option), batch, data)
    except RulesError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write records: {err}")
    typer.echo(summary)


app.add_typer(replay_app, name="replay")


def main() -> None:
    """Entry point: a bug still ends in one line, with the traceback behind FIEFDOM_DEBUG=1."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise SystemExit(130) from None
    except Exception as err:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("FIEFDOM_DEBUG"):
            raise
        typer.echo(f"fiefdom: internal error: {type(err).__name__}: {err} "
                   "(run with FIEFDOM_DEBUG=1 for details, and please report it)", err=True)
        raise SystemExit(3) from None
