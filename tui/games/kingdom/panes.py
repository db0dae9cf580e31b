"""Take the Kingdom's panes for the app's table: the turn line, the kingdoms as lines of defence,
the viewing seat's hand, and in solo the round (the revealed cards, the card given to each
kingdom, what each holds to answer with).

All is drawn from ``game.view(seat)`` (core/kingdom/view.py): a seat sees its own hand and
Traps, counts of the other hands and Traps face down; a spectator (None) sees no hand; the
full table (TABLE, -1) sees every hand, every Trap and the deck's order. A card is shown by
its name, with its id only where two cards of one kingdom read the same. The
words of a card (its name, value, text) come from text.py and the cards themselves, so the
prompt, ``replay show`` and the app say the same. Each kingdom has its colour and its seat
number, so the table reads without colour (NO_COLOR) too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.style import Style
from rich.table import Table
from rich.text import Text

from core.engine import TABLE
from core.kingdom import words
from core.kingdom.lines import HIDDEN_TRAP
from tui.games.kingdom import text
from tui.games.kingdom.targets import CURSOR, TARGET, KingdomsScroll
from tui.widgets.view_pane import ViewPane

SLOT_META = "kingdom-slot"  # on a Castle or Land's title: (seat, card), where no id is shown
Marks = Callable[[int, str], str]  # a Castle or Land's mark on the table (targets.py): "", TARGET, CURSOR

# A kingdom's colours by seat (foreground on background), its mark the seat number.
SEAT_COLOURS = (("white", "red3"), ("black", "gold1"), ("black", "sky_blue2"), ("black", "pale_green3"),
                ("white", "medium_purple3"), ("black", "orange3"))
COLUMN = 36  # a kingdom's column is at least this wide; narrower, the kingdoms stack
BANNED = text.BANNED
FLAVOUR_WIDTH = 70  # a hand pane narrower than this shows each card's effect without its flavour text


def seat_style(k: int) -> str:
    fg, bg = SEAT_COLOURS[k % len(SEAT_COLOURS)]
    return f"bold {fg} on {bg}"


def seat_mark(k: int) -> Text:
    """The kingdom's badge: its seat number in its colours (`` 2 ``)."""
    return Text(f" {k + 1} ", style=seat_style(k))


def card_head(game: Any, cid: str, seat: int | None = None) -> Text:
    """``Walls +4 · defend construction``: a card's name and value, its type and icons."""
    c = game.card(cid)
    out = Text(text.named(game, cid), style="bold")
    kind = " ".join([c.type, *c.icons]) if c.icons else c.type
    out.append(f" · {kind}", style="italic")
    counts = seat is not None and seat >= 0 and c.type in ("attack", "mercenaries")
    if counts and game.attack_value(seat, cid) != c.value:
        out.append(f" · {game.attack_value(seat, cid)} damage for {game.noble_key(seat).title()}")
    return out


def card_block(game: Any, cid: str, seat: int | None = None, flavour: bool = True) -> RenderableType:
    """A card's head and, under it (indented), its exact effect, then its flavour text, dim
    (``flavour``: when there is room for it)."""
    c = game.card(cid)
    body = Text(c.effect or c.text)
    if flavour and c.effect and c.text:
        body.append("\n" + c.text, style="dim italic")
    return Group(card_head(game, cid, seat), Padding(body, (0, 0, 0, 2)))


def effect_line(game: Any, decision: Any, code: Any) -> Text:
    """The details line over the table: what the highlighted option's card does (``Mutiny:
    removes ...``); with no card in the option, the card in play (the one to answer, to aim)."""
    cid = words.option_card(game, tuple(code)) if code else None
    note = ""
    if cid is None:
        cid = words.card_in_play(game, game.view(decision.seat)["in_play"]) if decision is not None else None
        note = " (in play)"
    out = Text()
    for shown, what in ((cid, note), (_hit(game, code), " (hit first there)")):
        if shown is None:
            continue
        name, _, rest = words.effect(game, shown).partition(": ")
        out.append(("\n" if out else "") + name + what, style="bold")
        if rest:
            out.append(": " + rest)
    return out


def _hit(game: Any, code: Any) -> str | None:
    """The card a target option's attack hits first (a Castle, Land or Defence), for the details line."""
    hit = text.hit_first(game, tuple(code)) if code else None
    return hit[0] if hit is not None else None


# -- the turn line -------------------------------------------------------------------------------


def turn_text(game: Any, seat: int | None) -> Text:
    """The turn (or round), whose turn, plays left and what Penalties forbid, the piles, Gold."""
    v = game.view(seat)
    out = Text(text.turn_line(game, seat), style="bold")
    if v["result"] is None and v["turn"] and not v["solo"]:
        out.append("  ")
        out.append_text(seat_mark(v["current"]))
    if v["banned"]:
        out.append(" · penalties forbid " + ", ".join(BANNED.get(b, b) for b in v["banned"]), style="bold")
    if v["extra"]:
        out.append(" · Fortune: another turn after this")
    out.append("\n")
    if v["solo"]:
        decks = ", ".join(f"{name} {n}" for name, n in zip(("Attack", "Defend", "Action"), v["decks"]))
        out.append(f"decks: {decks or '-'} · discard {len(v['discard'])}")
    else:
        out.append(f"deck {v['deck']} · discard {len(v['discard'])} · Gold used {v['gold_uses']} of {text.GOLD_USES}")
    return out


# -- the kingdoms --------------------------------------------------------------------------------


def _damage(slot: Mapping[str, Any], cid: str) -> str:
    points = slot["damage"].get(cid, 0)
    return f" ({points} dmg)" if points else ""


def _trap(game: Any, k: int, trap: str) -> str:
    """A Trap as the view shows it: face down, or (its owner, the full table) what it is."""
    if trap == HIDDEN_TRAP:
        return "Trap ?"
    name, real = game.card(trap).name, "real" if game.trap_real(k, trap) else "decoy"
    return f"Trap ({real})" if name == "Trap" else f"Trap: {name} ({real})"


def no_marks(seat: int, slot: str) -> str:
    return ""


def kingdom_block(game: Any, v: Mapping[str, Any], k: int, seat: int | None, marks: Marks = no_marks) -> Text:
    """One kingdom: its badge and name, Noble, defence points and hand, what hangs over it, then
    its Castle and Lands, each with its Defences (``»`` the topmost, hit first) and Trap; a
    target of the decision now marked (``>``, ``▶`` the cursor's) and clickable."""
    realm = v["realms"][k]
    out = Text()
    current = v["result"] is None and v["turn"] and not v["solo"] and v["current"] == k
    out.append_text(seat_mark(k))
    out.append(" " + game.name(k), style=seat_style(k) if current else "bold")
    if k == seat and not v["solo"]:
        out.append(", you", style="bold")
    if current:
        out.append(" ◀ to play", style="bold reverse")
    n = realm["hand_count"]
    noble = f"{game.card(realm['noble']).name} ({realm['number']})" if realm["noble"] else "no Noble yet"
    out.append(f"\n  {noble}\n  {realm['score']} defence · {n} card{'s' * (n != 1)} "
               f"{'held' if v['solo'] else 'in hand'}")
    for flag in text.flags(game, realm):
        out.append("\n  " + flag.split(":")[0], style="bold")
        if flag.startswith("penalties"):
            out.append(":" + flag.split(":", 1)[1])
    if realm["out"] and not realm["slots"]:
        return out
    ids = text.twins(game, realm)
    for i, slot in enumerate(realm["slots"]):
        c = game.card(slot["card"])
        title = ("Castle" if i == 0 and c.key == "castle" else "Mercy as a Land" if c.key == "mercy" else c.name)
        value = 1 if c.key == "mercy" else c.value
        mark = marks(k, slot["card"])
        click = Style(meta={"@click": f"click({k}, {slot['card']!r})"}) if mark else Style()  # targets only
        out.append("\n" + (mark or " ") + " ", style="bold")
        out.append(f"{title} +{value}", style=Style(bold=True, reverse=mark == CURSOR or None,
                                                    underline=mark == TARGET or None)
                   + click + Style(meta={SLOT_META: (k, slot["card"])}))
        out.append(_damage(slot, slot["card"]), style=click)
        if slot["card"] in ids:
            out.append(f" [{slot['card']}]", style=Style(dim=True) + click)
        if i == 0 and realm["mercy"]:
            out.append(f" · Mercy x{len(realm['mercy'])}", style="italic")
        for j, cid in enumerate(reversed(slot["defences"])):
            out.append("\n    » " if j == 0 else "\n      ")
            out.append(text.named(game, cid) + _damage(slot, cid))
            if cid in ids:
                out.append(f" [{cid}]", style="dim")
        if slot["trap"] is not None:
            out.append("\n    " + _trap(game, k, slot["trap"]), style="italic")
    if not realm["slots"]:
        out.append("\n  no kingdom built yet", style="dim")
    return out


def kingdoms_renderable(game: Any, seat: int | None, width: int, marks: Marks = no_marks,
                        note: str = "") -> RenderableType:
    """Every kingdom, in columns when each has ``COLUMN`` columns, else one under another; above
    them the draft pool and the cards of the play in progress, when there are any, and with
    targets to choose how to choose them (``note``: why the last key did nothing)."""
    v = game.view(seat)
    blocks = [kingdom_block(game, v, k, seat, marks) for k in range(len(v["realms"]))]
    head = Text("» the topmost Defence, hit first by an attack", style="dim")
    if any(marks(k, slot["card"]) for k, realm in enumerate(v["realms"]) for slot in realm["slots"]):
        head.append(f"\n{TARGET} a target: Esc, arrows, Enter (a Spread's share: a digit), or a click",
                    style="bold")
    if note:
        head.append("\n" + note, style="bold reverse")
    if v["pool"]:
        pool = Counter(text.named(game, c) for c in v["pool"])
        head.append("\ndraft pool: " + ", ".join(f"{n} x{pool[n]}" for n in sorted(pool)))
    if v["survival"]:
        head.append("\nsurvival set aside: " + ", ".join(text.named(game, c) for c in v["survival"]))
    if v["in_play"]:
        head.append("\nin play: " + ", ".join(text.named(game, c) for c in v["in_play"]), style="bold")
    for line in text.deck_order_lines(game, v):  # the full table only
        head.append("\n" + line, style="dim")
    columns = max(1, min(len(blocks), (width + 1) // (COLUMN + 1))) if width else 1
    grid = Table.grid(padding=(0, 1), expand=True)
    for _ in range(columns):
        grid.add_column(ratio=1)
    for i in range(0, len(blocks), columns):
        row = blocks[i:i + columns]
        grid.add_row(*row, *([""] * (columns - len(row))))
        if i + columns < len(blocks):
            grid.add_row(*([""] * columns))
    return Group(head, grid)


# -- the hand and the round -----------------------------------------------------------------------


def hand_renderable(game: Any, seat: int | None, flavour: bool = True) -> RenderableType:
    """The viewing seat's hand, each card with its effect (and its flavour text, ``flavour``),
    and the plays left; nothing of another's (the full table: every kingdom's hand)."""
    v = game.view(seat)
    if seat == TABLE:
        parts: list[RenderableType] = []
        for k, realm in enumerate(v["realms"]):
            line = seat_mark(k)
            line.append(f" {game.name(k)}'s hand: {len(realm['hand'])} card{'s' * (len(realm['hand']) != 1)}",
                        style="bold")
            parts += [line, *(card_block(game, cid, k, flavour) for cid in realm["hand"])]
        return Group(*parts)
    if seat is None or not 0 <= seat < len(v["realms"]) or v["realms"][seat]["hand"] is None:
        return Text("No hand to show: a spectator sees no hand.", style="dim")
    cards = list(v["realms"][seat]["hand"])
    head = Text(f"{'You hold' if v['solo'] else 'Your hand'}: {len(cards)} card{'s' * (len(cards) != 1)}",
                style="bold")
    if not v["solo"] and v["turn"] and v["current"] == seat and v["result"] is None:
        head.append(f" · {v['plays']} play{'s' * (v['plays'] != 1)} left this turn")
    return Group(head, *(card_block(game, cid, seat, flavour) for cid in cards))


def round_renderable(game: Any, seat: int | None) -> RenderableType:
    """Solo: the round's revealed cards, the card given to each kingdom, what each holds."""
    v = game.view(seat)
    parts: list[RenderableType] = [Text(f"Round {v['turn']} of 18" if v["turn"] else "Setting up", style="bold")]
    if v["revealed"]:
        parts.append(Text("Revealed, to allocate one to each kingdom:", style="bold"))
        parts += [card_block(game, cid, seat) for cid in v["revealed"]]
    given = [(k, c) for k, c in enumerate(v["given"]) if c]
    if given:
        parts.append(Text("Given this round:", style="bold"))
        for k, cid in given:
            line = seat_mark(k)
            line.append(f" {game.name(k)}: ")
            line.append_text(card_head(game, cid, k))
            parts.append(line)
    if not v["revealed"] and not given:
        parts.append(Text("No cards revealed now.", style="dim"))
    parts.append(Text("Held to answer with:", style="bold"))
    for k, realm in enumerate(v["realms"]):
        line = seat_mark(k)
        line.append(f" {game.name(k)}: ")
        held = realm["hand"] or ()
        line.append(", ".join(text.named(game, c) for c in held) or "nothing", style="" if held else "dim")
        parts.append(line)
    return Group(*parts)


# -- the widgets --------------------------------------------------------------------------------


class KingdomPane(ViewPane):
    """A Take the Kingdom pane drawn from a seat's view."""

    def draw(self, width: int) -> RenderableType:
        raise NotImplementedError


class TurnLine(KingdomPane):
    DEFAULT_CSS = "TurnLine { height: 2; width: 100%; text-wrap: nowrap; text-overflow: ellipsis; }"

    def draw(self, width: int) -> RenderableType:
        out = turn_text(self.game, self.seat)
        out.no_wrap, out.overflow = True, "ellipsis"
        return out


class KingdomsPane(KingdomPane):
    """The kingdoms; in a KingdomsScroll, with its targets marked and its note."""

    def draw(self, width: int) -> RenderableType:
        scroll = self.parent
        if isinstance(scroll, KingdomsScroll):
            return kingdoms_renderable(self.game, self.seat, width, scroll.mark, scroll.note)
        return kingdoms_renderable(self.game, self.seat, width)

    def action_click(self, seat: int, slot: str) -> None:
        """A click on a Castle or Land (its line's ``@click``)."""
        if isinstance(self.parent, KingdomsScroll):
            self.parent.action_click(seat, slot)


class HandPane(KingdomPane):
    def draw(self, width: int) -> RenderableType:
        return hand_renderable(self.game, self.seat, flavour=width >= FLAVOUR_WIDTH)


class RoundPane(KingdomPane):
    def draw(self, width: int) -> RenderableType:
        return round_renderable(self.game, self.seat)
