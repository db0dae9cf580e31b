"""Take the Kingdom's own commands: ``fiefdom kingdom cards|play`` and ``fiefdom simulate
kingdom``, and ``--cards`` for a record's own cards file on the generic commands (replay, resume).

This module is imported whenever the command line is built, so it imports nothing of the
game: each command does, when it runs.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import typer

from notation.wording import visible
from tui.cli_choices import canonical, canonical_list, rule_options
from tui.cli_support import (DATA_FLAGS, PLAY_SEED_HELP, add_data_flag, fail, load_data, load_file, play_seed,
                             visible_lines)

GAME = "kingdom"
CARDS_HELP = "Your own cards file (TOML, see docs/kingdom-cards.md) instead of the reconstruction."
MODE_HELP = "multi (2 to 4 kingdoms) or solo (you against two enemy kingdoms)."
PLAYERS_HELP = "How many kingdoms in multi: 2, 3 or 4 (default 3)."
DIFFICULTY_HELP = "Solo: easy, medium, difficult or expert (the setup table; default easy)."
OPTION_HELP = ("A rule option as name=value: nobles=deal|choose, survival=true, damage_adds_up=false, "
               "always_ask=false (multi); "
               "penalty_to_player=true, damage_adds_up=false (solo).")
MODES = ("multi", "solo")
SEAT_WORDS = ("human", "ai", "greedy", "random")  # greedy: the AI's greedy baseline (Limit level "greedy")
ORDINALS = ("1st", "2nd", "3rd", "4th")


# -- fiefdom kingdom cards ----------------------------------------------------------------


def kingdom_cards(
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    solo: bool = typer.Option(False, "--solo", help="Only the cards with the solo mark (the solo game's three decks)."),
    flavour: bool = typer.Option(False, "--flavour", help="Each card's flavour text too, on a line under it."),
) -> None:
    """List the cards: id, name, type, value, icons, the solo mark (S) and exact effect."""
    from core.kingdom.cards import load_cards, packaged_cards
    from tui.games.kingdom.text import value_text

    deck = load_file(cards_file, load_cards) if cards_file else packaged_cards()
    cards = [c for c in deck.cards if c.solo or not solo]
    typer.echo(f"{'id':<16} {'name':<30} {'type':<11} {'value':<5} {'icons':<16} S  effect")
    for c in cards:
        icons = ",".join(c.icons) or "-"
        # A user's own cards are anyone's text: each line made visible.
        typer.echo(visible(f"{c.id:<16} {c.name:<30} {c.type:<11} {value_text(c) or '-':<5} {icons:<16} "
                           f"{'S' if c.solo else '-'}  {c.effect or c.text}"))
        if flavour and c.effect and c.text:
            typer.echo(visible(f"{'':<16} \"{c.text}\""))
    marked = sum(c.solo for c in deck.cards)
    typer.echo(f"{len(cards)} cards" + ("" if solo else f", {marked} with the solo mark S")
               + ". " + ("This deck is a reconstruction (docs/kingdom-cards.md)." if cards_file is None
                         else "Your own cards file."))


# -- what play and simulate share -----------------------------------------------------------


def _data(cards_file: Optional[Path]) -> dict[str, Any]:
    """The user's own cards, loaded (one line, exit 2, when unusable)."""
    return load_data(GAME, [("cards", cards_file)] if cards_file else [])


def variant_of(mode: str, players: Optional[int]) -> str:
    """``multi-3`` or ``solo`` from --mode and --players; one line when they do not fit."""
    from core.kingdom import PLAYERS

    mode = canonical(mode, MODES)
    if mode not in MODES:
        fail(f"--mode is multi or solo, not {mode[:40]!r}")
    if mode == "solo":
        if players not in (None, 1):
            fail(f"--players does not apply to --mode solo (you against two enemy kingdoms), got {players}")
        return "solo"
    players = 3 if players is None else players
    if players not in PLAYERS:
        shown = players if abs(players) < 10**6 else "that"
        fail(f"--players is {', '.join(map(str, PLAYERS[:-1]))} or {PLAYERS[-1]} for --mode multi, not {shown}")
    return f"multi-{players}"


def options_of(variant: str, option: list[str], difficulty: Optional[str]) -> dict[str, Any]:
    """The rule options from --option and --difficulty, checked by the game (one line when wrong)."""
    from core import games as core_games
    from core.engine import RulesError
    from core.kingdom import DIFFICULTIES

    given = rule_options(GAME, variant, option)
    if difficulty is not None:
        if variant != "solo":
            fail("--difficulty is for --mode solo")
        difficulty = canonical(difficulty, DIFFICULTIES)
        if difficulty not in DIFFICULTIES:
            fail(f"--difficulty is {', '.join(DIFFICULTIES[:-1])} or {DIFFICULTIES[-1]}, not {difficulty[:40]!r}")
        if "difficulty" in given and given["difficulty"] != difficulty:
            fail("--difficulty and --option difficulty= disagree")
        given["difficulty"] = difficulty
    try:
        return core_games.info(GAME).options_of(variant, given)
    except RulesError as err:
        fail(str(err))


@dataclass(frozen=True)
class Seats:
    """Who plays each seat, as typed (``greedy``) and as the runner's plans."""

    words: tuple[str, ...]
    plans: tuple[Any, ...] = field(default=())

    @property
    def text(self) -> str:
        return ",".join(self.words)


def seats_of(variant: str, seats: Optional[str], allowed: tuple[str, ...], default: str | None) -> Seats:
    """The seats from --seats: one word per kingdom in multi; in solo your seat, and the enemies
    (rules, never players) left out or given as bot. Default: the game's (a person, then the AI),
    or ``default`` for every seat a person does not play."""
    from core import games as core_games
    from core.match import Limit
    from notation.runner import SeatPlan

    specs = core_games.info(GAME).seat_specs(variant)
    players = [s for s in specs if "bot" not in s.kinds]
    if seats is None:
        words = [default or s.default for s in players]
    else:
        words = canonical_list(seats, (*allowed, "bot"))  # bot: the solo enemies, which may be named
        if variant == "solo" and len(words) == len(specs) and all(w == "bot" for w in words[len(players):]):
            words = words[:len(players)]
    if len(words) != len(players) or any(w not in allowed for w in words):
        who = ", ".join(s.name for s in players)
        if variant == "solo":
            fail(f"--seats takes one of {'/'.join(allowed)} for You (the enemies are bots: leave them out "
                 f"or give bot,bot); got {str(seats)[:60]!r}")
        fail(f"--seats takes {len(players)} of {'/'.join(allowed)} separated by commas, in seat order ({who}); "
             f"got {str(seats)[:60]!r}")
    plans = [SeatPlan("ai", Limit(level="greedy")) if w == "greedy" else SeatPlan(w) for w in words]
    plans += [SeatPlan("bot")] * (len(specs) - len(players))
    if any(p.kind == "ai" for p in plans) and importlib.util.find_spec("core.kingdom.ai") is None:
        others = "/".join(w for w in allowed if w not in ("ai", "greedy"))
        fail(f"the Take the Kingdom AI is not in this fiefdom yet (core/kingdom/ai.py): give --seats of {others}")
    return Seats(tuple(words), tuple(plans))


# -- fiefdom kingdom play -------------------------------------------------------------------


def play(
    mode: str = typer.Option("multi", "--mode", "-m", help=MODE_HELP),
    players: Optional[int] = typer.Option(None, "--players", "-p", help=PLAYERS_HELP),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="human, ai, greedy or random per kingdom in seat order, comma-separated (default: "
        "you play Player 1, the AI the rest); in solo only your seat (the enemies are bots)."),
    difficulty: Optional[str] = typer.Option(None, "--difficulty", "-d", help=DIFFICULTY_HELP),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed for the shuffles " + PLAY_SEED_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the record (default: your data folder)."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists (never --cards)."),
    data_dir_opt: Optional[Path] = typer.Option(None, "--data-dir", help="Where records are saved by default."),
) -> None:
    """Play Take the Kingdom at the prompt: any mix of human, AI and random seats, every step recorded."""
    from core import games as core_games
    from notation.runner import GameSetup
    from tui.cli_support import play_at_prompt, start_runner

    variant = variant_of(mode, players)
    data = _data(cards_file)
    options = options_of(variant, option, difficulty)
    chosen = seats_of(variant, seats, SEAT_WORDS, None)
    setup = GameSetup(GAME, variant, chosen.plans, play_seed(seed), options)
    games = core_games.lookup({GAME: data})
    play_at_prompt(start_runner(setup, out, force, games, data_dir=data_dir_opt, inputs=(cards_file,)))


# -- fiefdom simulate kingdom ------------------------------------------------------------------


@dataclass
class Positions:
    """Wins by place in the turn order (the highest Noble plays first) and by Noble, game by game."""

    by_place: Counter[int] = field(default_factory=Counter)
    by_noble: Counter[str] = field(default_factory=Counter)
    games: int = 0

    def observe(self, game: Any, result: Any) -> None:
        if game.variant == "solo":
            return
        self.games += 1
        n = len(game.seats)
        first = max(range(n), key=game.noble_number)
        for w in result.winners:
            self.by_place[(w - first) % n] += 1
            self.by_noble[game.noble_key(w).title()] += 1

    def lines(self, players: int) -> list[str]:
        if not self.games:
            return []
        share = ", ".join(f"{ORDINALS[p]} {100 * self.by_place[p] / self.games:.0f}%" for p in range(players))
        nobles = ", ".join(f"{name} {n}" for name, n in self.by_noble.most_common())
        return [f"win share by place in the turn order: {share}", f"wins by Noble: {nobles}"]


def simulate(
    mode: str = typer.Option("multi", "--mode", "-m", help=MODE_HELP),
    players: Optional[int] = typer.Option(None, "--players", "-p", help=PLAYERS_HELP),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole run; each game gets its own."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder."),
    force: bool = typer.Option(False, "--force", help="Replace records of an earlier run with the same names."),
    seats: Optional[str] = typer.Option(
        None, "--seats", help="ai, greedy or random per kingdom in seat order, comma-separated (default: all ai); "
        "in solo only your seat (the enemies are bots)."),
    difficulty: Optional[str] = typer.Option(None, "--difficulty", "-d", help=DIFFICULTY_HELP),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help=CARDS_HELP),
) -> None:
    """Play headless games of Take the Kingdom; print the wins per seat, the reasons, in multi the
    win share by place in the turn order, and the games per second.

    ai is the Take the Kingdom AI, greedy its greedy baseline, random picks any legal option
    (for fuzzing). In solo the enemy kingdoms are played by the enemy rules (bots).
    """
    from core import games as core_games
    from notation.runner import GameSetup
    from tui.cli_support import run_batch
    from tui.simulate import Batch

    variant = variant_of(mode, players)
    data = _data(cards_file)
    options = options_of(variant, option, difficulty)
    chosen = seats_of(variant, seats, SEAT_WORDS[1:], "ai")
    setup = GameSetup(GAME, variant, chosen.plans, seed, options)
    positions = Positions()
    batch = Batch(setup, games, out, typer.echo, force=force, observe=positions.observe,
                  inputs=tuple(p for p in (cards_file,) if p is not None))
    tally = run_batch(batch, core_games.lookup({GAME: data}))
    names = [s.name for s in core_games.info(GAME).seat_specs(variant)]
    wins = ", ".join(f"{n} {tally.wins[n]}" for n in names)
    shown = ",".join([*chosen.words, *["bot"] * (len(names) - len(chosen.words))])
    lines = [f"{games} games of kingdom {variant}, seed {seed}, seats {shown}",
             f"wins: {wins}" + (f"; no winner {tally.draws}" if tally.draws else ""),
             *positions.lines(len(names)), tally.reasons_line()]
    typer.echo(visible_lines("\n".join(lines + tally.speed_lines("steps", out))))


def register(app: typer.Typer, simulate_app: typer.Typer) -> None:
    """Add ``fiefdom kingdom ...``, ``fiefdom simulate kingdom``, and --cards on replay and resume."""
    kingdom_app = typer.Typer(no_args_is_help=True, add_completion=False,
                              help="Take the Kingdom: play at the prompt, and the reconstructed cards.")
    kingdom_app.command("cards")(kingdom_cards)
    kingdom_app.command("play")(play)
    app.add_typer(kingdom_app, name=GAME)
    simulate_app.command(GAME)(simulate)
    mine = "a Take the Kingdom record's own cards file (docs/kingdom-cards.md)"
    other = DATA_FLAGS.get("--cards")  # another game's cards are a data file "cards" too: one flag serves both
    if other is not None and other[0] == "cards":
        add_data_flag("--cards", "cards", f"{other[1].rstrip('.')}; or {mine}.")
    else:
        add_data_flag("--cards", "cards", f"{mine[0].upper()}{mine[1:]}: --data cards=FILE.")
