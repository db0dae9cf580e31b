"""`fiefdom taifa play`: Taifa at a plain terminal prompt, any mix of seats.

Human seats type their choices (a number from the list, or the words, like
``attack Toledo``); bot seats are played by the rules (section 9) and AI
seats by the Taifa AI. Every step goes to a .fief journal as it happens.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from core import games as core_games
from core.engine import Decision, RulesError
from core.match import HumanController, Step
from core.taifa.game import TaifaGame
from core.taifa.table import agree
from core.taifa.state import INDEPENDENT

SEAT_KINDS = ("human", "bot", "ai")
HELP = ("Type the number of an option or its words (attack Toledo, event C35, add Champion, done, pass).\n"
        "  map   your areas and the areas you can attack      hand   your cards with their text\n"
        "  all   every kingdom's castles, bonus and cards     quit   stop (the record keeps every step)")


class Quit(Exception):
    """The player typed quit or the input ended."""


def parse_seats(text: str, kingdoms: tuple[str, ...]) -> list[str]:
    kinds = [k.strip().lower() for k in text.split(",")]
    if len(kinds) != len(kingdoms) or any(k not in SEAT_KINDS for k in kinds):
        raise RulesError(f"--seats takes {len(kingdoms)} of human/bot/ai separated by commas, "
                         f"in play order ({', '.join(kingdoms)}); got {text!r}")
    return kinds


class Console:
    """Reads a human seat's choices and prints what that seat may see."""

    def __init__(self, read: Callable[[str], str], write: Callable[[str], None]) -> None:
        self.read, self.write = read, write

    def ask(self, game: Any, decision: Decision) -> str:
        g: TaifaGame = game
        seat = decision.seat
        self.write("")
        self.write(self.status(g, seat))
        fight = self.fight(g, seat)
        if fight:
            self.write(fight)
        self.write(f"{g.seats[seat]}: {decision.prompt}")
        for i, code in enumerate(decision.options, 1):
            self.write(f"  {i:>2}. {g.describe(code)}{self.about(g, code)}")
        while True:
            line = self.read(f"{g.seats[seat]}> ").strip()
            word = line.lower()
            if word in ("quit", "exit"):
                raise Quit
            if word in ("help", "?", ""):
                self.write(HELP)
            elif word == "map":
                self.write(self.map(g, seat))
            elif word == "hand":
                self.write(self.hand(g, seat))
            elif word == "all":
                self.write(self.table(g))
            elif word.isdigit():
                n = int(word)
                if 1 <= n <= len(decision.options):
                    return " ".join(map(str, decision.options[n - 1]))  # the typed form; parse() reads it back
                self.write(f"{n}: choose 1..{len(decision.options)}")
            else:
                return line

    # -- what is printed ---------------------------------------------------------

    def about(self, g: TaifaGame, code: tuple) -> str:
        """What a player weighs before choosing: an area's defence and owner."""
        if code[0] in ("attack", "area") and len(code) == 2:
            a = int(code[1])
            owner = g.s.owner[a]
            return f"  - defence {g.defence(a)}, {g.name(owner)}"
        return ""

    def status(self, g: TaifaGame, seat: int) -> str:
        v = g.view(seat)
        me = v["kingdoms"][seat]
        hand = ", ".join(g.label(c) for c in me["hand"] or ()) or "no cards"
        return (f"Turn {v['turn']}/3 | {me['name']}: {me['castles']} castles, bonus {me['bonus']:+d} | hand: {hand}"
                + (f" | army: {', '.join(g.label(c) for c in me['army'])}" if me["army"] else ""))

    def fight(self, g: TaifaGame, seat: int) -> str:
        f = g.view(seat)["fight"]
        if f is None:
            return ""
        where = g.area_name(f["area"]) if f["area"] else g.name(f["defender"])
        cards = "; ".join(f"{g.name(k)} on the {side}: {g.label(c) if c else 'a face-down card'}" for side, k, c in f["cards"])
        return f"[{f['kind']} on {where}] " + (cards or "no cards yet")

    def hand(self, g: TaifaGame, seat: int) -> str:
        me = g.view(seat)["kingdoms"][seat]
        lines = [f"  {g.label(c)} [{g.card(c).kind}]: {g.card(c).text}" for c in me["hand"] or ()]
        return "\n".join(lines) or "  no cards in hand"

    def map(self, g: TaifaGame, seat: int) -> str:
        v = g.view(seat)
        own = [a for a, o in enumerate(v["owner"]) if o == seat and a]
        lines = [f"  {g.area_name(a)} ({a}) defence {g.m.areas[a - 1].defence}{' +garrison' if v['garrison'][a] else ''}"
                 for a in own]
        targets = g.attackable(seat)
        lines.append("  can attack: " + ", ".join(
            f"{g.area_name(a)} ({a}, {g.defence(a)}, {g.name(v['owner'][a]) if v['owner'][a] != INDEPENDENT else 'independent'})"
            for a in targets))
        return "\n".join(lines)

    def table(self, g: TaifaGame) -> str:
        v = g.view(None)
        return "\n".join(f"  {k['name']:<18} {k['castles']:>2} castles  bonus {k['bonus']:+d}  "
                         f"{k['hand_count']} cards{'  (bot)' if k['bot'] else ''}" for k in v["kingdoms"])


def play(
    scenario: str,
    seats: list[str],
    seed: int,
    out: Path | None,
    options: dict[str, Any],
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    data: dict[str, Any] | None = None,
) -> str:
    """Play one game at the prompt; returns the closing line."""
    from core.taifa.data import resolve, setup_fields
    from tui.simulate import SeatSpec, play_one

    fields = setup_fields(data or {})
    taifa_map, decks = resolve(fields, data or {})
    probe = TaifaGame(scenario, options, None, taifa_map, decks)
    kinds = parse_seats(",".join(seats), probe.s.kingdoms)
    bots = [k for k, kind in zip(probe.s.kingdoms, kinds) if kind == "bot"]
    game = TaifaGame(scenario, options, bots, taifa_map, decks)
    console = Console(read, write)
    people = {i: HumanController(console.ask, lambda msg: write(f"  {msg}")) for i, kind in enumerate(kinds)
              if kind == "human"}

    def show(step: Step, g: Any) -> None:
        for e in step.events:
            if e.kind != "shuffle":
                write(f"  {e.text}  [{e.rule}]")

    write(f"Taifa, {scenario}, seed {seed}: " + ", ".join(f"{n} ({k})" for n, k in zip(game.seats, kinds)))
    write("Type help for the commands.")
    try:
        result, steps = play_one(game, [SeatSpec(k) for k in kinds], seed, out, dict(game.opts),
                                 {"bots": bots, **fields}, answered=people, sinks=[show],
                                 games=core_games.lookup({"taifa": data or {}}))
    except (Quit, EOFError):
        return "stopped" + (f"; the record so far is {out}" if out else "")
    names = ", ".join(game.seats[w] for w in result.winners)
    scores = ", ".join(f"{n} {s}" for n, s in zip(game.seats, result.scores))
    verb = agree(names, "wins") if len(result.winners) == 1 else "win"
    return (f"{names} {verb}: {result.reason} [{result.rule}]\n"
            f"castles: {scores} ({steps} steps)" + (f"\nrecord: {out}" if out else ""))
