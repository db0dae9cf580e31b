"""Taifa's own commands: ``fiefdom taifa map|cards``, the ``--map``/``--cards`` flags for its data
files on the generic commands (play, simulate, replay, resume), and how ``fiefdom simulate taifa``
tallies its reasons. Playing and simulating are the generic ``fiefdom play|simulate taifa``.

This module is imported whenever the command line is built, so it imports
nothing of the game: each command does, when it runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

import typer

from notation.wording import visible
from tui.cli_choices import variant as canonical_variant
from tui.cli_support import SimulateWords, add_data_flag, add_simulate_words, fail, load_file


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


def _reason(result: Any) -> str:
    """Reasons tallied without their counts: ``most castles after turn 3 (10)`` -> ``(n)``."""
    return re.sub(r"(?<!turn )(?<!all )\b\d+\b", "n", result.reason)


def register(app: typer.Typer) -> None:
    """Add ``fiefdom taifa ...``, --map/--cards on the generic commands, and simulate's reasons."""
    taifa_app = typer.Typer(no_args_is_help=True, add_completion=False,
                            help="Taifa: the reconstructed map and decks (play with `fiefdom play taifa`).")
    taifa_app.command("map")(taifa_map)
    taifa_app.command("cards")(taifa_cards)
    app.add_typer(taifa_app, name="taifa")
    add_simulate_words("taifa", SimulateWords(reason=_reason))
    add_data_flag("--map", "map", "Your own Taifa map file (docs/taifa-map.md): --data map=FILE.")
    add_data_flag("--cards", "cards", "Your own Taifa decks file (docs/taifa-cards.md): --data cards=FILE.")
