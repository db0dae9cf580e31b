"""Take the Kingdom's own commands: ``fiefdom kingdom cards``, ``--cards`` for its own cards file on
the generic commands (play, simulate, replay, resume), and what ``fiefdom simulate kingdom`` adds to
its summary (the wins by place in the turn order and by Noble). Playing and simulating are the
generic ``fiefdom play|simulate kingdom``.

This module is imported whenever the command line is built, so it imports nothing of the
game: each command does, when it runs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import typer

from notation.wording import visible
from tui.cli_support import SimulateWords, add_data_flag, add_simulate_words, load_file

GAME = "kingdom"
CARDS_HELP = "Your own cards file (TOML, see docs/kingdom-cards.md) instead of the reconstruction."
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


# -- fiefdom simulate kingdom ------------------------------------------------------------------


def positions(game: Any, result: Any) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
    """What a game of a batch tells :class:`Positions`, worked out where it was played: each winner's
    place in the turn order and Noble (None for a solo game)."""
    if game.variant == "solo":
        return None
    n = len(game.seats)
    first = max(range(n), key=game.noble_number)
    return (tuple((w - first) % n for w in result.winners),
            tuple(game.noble_key(w).title() for w in result.winners))


@dataclass
class Positions:
    """Wins by place in the turn order (the highest Noble plays first) and by Noble, game by game."""

    by_place: Counter[int] = field(default_factory=Counter)
    by_noble: Counter[str] = field(default_factory=Counter)
    games: int = 0

    def add(self, facts: tuple[tuple[int, ...], tuple[str, ...]] | None) -> None:
        if facts is None:
            return
        self.games += 1
        places, nobles = facts
        self.by_place.update(places)
        self.by_noble.update(nobles)

    def lines(self, seat_names: list[str]) -> list[str]:
        if not self.games:
            return []
        players = len(seat_names)
        share = ", ".join(f"{ORDINALS[p]} {100 * self.by_place[p] / self.games:.0f}%" for p in range(players))
        nobles = ", ".join(f"{name} {n}" for name, n in self.by_noble.most_common())
        return [f"win share by place in the turn order: {share}", f"wins by Noble: {nobles}"]


def register(app: typer.Typer) -> None:
    """Add ``fiefdom kingdom cards``, --cards on the generic commands, and simulate's own tally."""
    kingdom_app = typer.Typer(no_args_is_help=True, add_completion=False,
                              help="Take the Kingdom: the reconstructed cards (play with `fiefdom play kingdom`).")
    kingdom_app.command("cards")(kingdom_cards)
    app.add_typer(kingdom_app, name=GAME)
    add_simulate_words(GAME, SimulateWords(observe=positions, tally=Positions))
    add_data_flag("--cards", "cards", "Your own Take the Kingdom cards file (docs/kingdom-cards.md): "
                  "--data cards=FILE.")
