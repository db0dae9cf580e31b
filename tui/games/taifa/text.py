"""Taifa as plain text, written once: the position for ``replay show``, and the pieces the
prompt shows (a seat's status, the fight, its hand, its areas, the kingdoms' table).

Everything is drawn from ``game.view(seat)``, so a seat sees its own hand and
only counts of the others (None: a spectator, who sees no hand).
"""

from __future__ import annotations

from typing import Any

from core.engine import Code, Decision, Over
from core.taifa.state import INDEPENDENT


def _cards(game: Any, ids: Any) -> str:
    return ", ".join(game.label(c) for c in ids) or "-"


def _point(game: Any) -> str:
    point = game.point()
    if isinstance(point, Over):
        return f"game over: {point.result.reason}"
    if isinstance(point, Decision):
        return f"to decide: {game.seats[point.seat]}: {point.prompt}"
    return f"chance: {point.label or point.kind}"


def position_text(game: Any, seat: int | None = None) -> str:
    """The position as ``seat`` sees it (None: a spectator): the turn, each kingdom's castles,
    Card Bonus, hand size, face-up cards and areas (``*`` garrisoned), the piles, the fight,
    the last dice; a seat's own hand too."""
    v = game.view(seat)
    owner, garrison = v["owner"], v["garrison"]

    def areas(k: int) -> str:
        return ", ".join(f"{game.area_name(a)} ({a}){'*' if garrison[a] else ''}"
                         for a in range(1, len(owner)) if owner[a] == k) or "none"

    current = v["kingdoms"][v["current"]]["name"] if v["turn"] else "-"
    lines = [f"turn {v['turn']} of 3, round of {current}, passes in a row: {v['passes']}"]
    for k, kd in enumerate(v["kingdoms"]):
        who = "bot" if kd["bot"] else "player"
        lines.append(f"{kd['name']} ({who}): {kd['castles']} castles, Card Bonus {kd['bonus']:+d}, "
                     f"{kd['hand_count']} cards in hand, {kd['kept']} kept")
        lines.append(f"  areas: {areas(k)}")
        for what in ("army", "ready", "permanent"):
            if kd[what]:
                lines.append(f"  {what}: {_cards(game, kd[what])}")
        if kd["hand"]:
            lines.append(f"  hand: {_cards(game, kd['hand'])}")
    lines.append(f"independent: {areas(INDEPENDENT)}")
    for deck in sorted(v["draw"]):
        lines.append(f"{deck} deck: {v['draw'][deck]} to draw, {len(v['discard'][deck])} discarded")
    if v["removed"]:
        lines.append(f"out of the game: {_cards(game, v['removed'])}")
    f = v["fight"]
    if f is not None:
        where = game.area_name(f["area"]) if f["area"] else "an incursion"
        placed = ", ".join(game.label(c) if c else "a face-down card" for _, _, c in f["cards"]) or "no cards yet"
        lines.append(f"fight: {f['kind']} on {where}: {placed}")
    if v["last_dice"]:
        label, dice = v["last_dice"]
        lines.append(f"last dice: {label}: {' '.join(map(str, dice))}")
    lines.append(_point(game))
    return "\n".join(lines)


def status(game: Any, seat: int) -> str:
    """One line for the seat about to decide: the turn, its castles, Card Bonus, hand and army."""
    v = game.view(seat)
    me = v["kingdoms"][seat]
    hand = ", ".join(game.label(c) for c in me["hand"] or ()) or "no cards"
    return (f"Turn {v['turn']}/3 | {me['name']}: {me['castles']} castles, bonus {me['bonus']:+d} | hand: {hand}"
            + (f" | army: {_cards(game, me['army'])}" if me["army"] else ""))


def fight(game: Any, seat: int | None) -> str:
    """The fight in progress as ``seat`` sees it (its own face-down cards too); empty when none."""
    f = game.view(seat)["fight"]
    if f is None:
        return ""
    where = game.area_name(f["area"]) if f["area"] else game.name(f["defender"])
    cards = "; ".join(f"{game.name(k)} on the {side}: {game.label(c) if c else 'a face-down card'}"
                      for side, k, c in f["cards"])
    return f"[{f['kind']} on {where}] " + (cards or "no cards yet")


def hand(game: Any, seat: int) -> str:
    """The seat's cards with their text."""
    me = game.view(seat)["kingdoms"][seat]
    lines = [f"  {game.label(c)} [{game.card(c).kind}]: {game.card(c).text}" for c in me["hand"] or ()]
    return "\n".join(lines) or "  no cards in hand"


def areas(game: Any, seat: int) -> str:
    """The seat's areas with their defence, and the areas it may attack with their owners."""
    v = game.view(seat)
    own = [a for a, o in enumerate(v["owner"]) if o == seat and a]
    lines = [f"  {game.area_name(a)} ({a}) defence {game.m.areas[a - 1].defence}"
             f"{' +garrison' if v['garrison'][a] else ''}" for a in own]
    lines.append("  can attack: " + ", ".join(
        f"{game.area_name(a)} ({a}, {game.defence(a)}, "
        f"{game.name(v['owner'][a]) if v['owner'][a] != INDEPENDENT else 'independent'})"
        for a in game.attackable(seat)))
    return "\n".join(lines)


def kingdom_rows(game: Any, seat: int | None = None, width: int = 80) -> list[tuple[str, str, str, str]]:
    """One row per kingdom, ``(key, name, counts, army)``: castles, Card Bonus and cards in hand,
    and, where it fits, a bot's deployed army (else ""); a widget can colour the name by the key."""
    v = game.view(seat)
    rows = []
    for k in v["kingdoms"]:
        army = ""
        if width < 52:
            counts = f" {k['castles']:>2}c {k['bonus']:+d}b {k['hand_count']:>2}h"
        else:
            counts = f" {k['castles']:>2} castles {k['bonus']:+d} bonus {k['hand_count']:>2} cards"
            if k["bot"] and width >= 72:
                strength = sum(game.card(c).strength or 0 for c in k["army"])
                army = f"  bot army {strength}, {len(k['ready'])} ready"
        rows.append((k["key"], k["name"][:17], counts, army))
    return rows


def kingdoms_text(game: Any, seat: int | None = None, width: int = 80) -> str:
    """The kingdoms' table (``>`` marks whose round it is) and the turn and draw piles."""
    v = game.view(seat)
    lines = []
    for i, (_, name, counts, army) in enumerate(kingdom_rows(game, seat, width)):
        mark = ">" if i == v["current"] and v["result"] is None else " "
        lines.append(f"{mark} {name:<17} {counts}{army}")
    draw = ", ".join(f"{d} {n}" for d, n in v["draw"].items())
    lines.append(f"  turn {v['turn']}/3, draw piles: {draw}")
    return "\n".join(lines)


def about(game: Any, code: Code) -> str:
    """What a player weighs before choosing an area: its defence and owner."""
    if code and code[0] in ("attack", "area") and len(code) == 2:
        a = int(code[1])
        return f"  - defence {game.defence(a)}, {game.name(game.s.owner[a])}"
    return ""
