"""Taifa as plain text, written once: the position for ``replay show``, and the pieces the
prompt shows (a seat's status, the fight, its hand, its areas, the kingdoms' table).

Everything is drawn from ``game.view(seat)``, so a seat sees its own hand and
only counts of the others (None: a spectator, who sees no hand; TABLE: the full
table, every hand, every face-down card and the draw piles' order). A card is
named by what its face shows (``Mesnada (3)``), its id only where two cards
shown together read the same.

The app's panes (panes.py) show the same facts in colour: the functions that return
``Line``s (runs of text, each with a tag saying what it is) are the one place each fact
is worded; ``plain`` joins them for the prompt and ``replay show``, the panes colour
them by tag.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.engine import TABLE, Code, Decision, Over
from core.taifa import prospects
from core.taifa.prospects import attack_dice, defence_dice, event_dice
from core.taifa.state import CASTLES, INDEPENDENT, TURNS
from core.taifa.table import dice_word, hits, possessive

# A run of text and its tag: "" plain, "head", "dim", "hit", "miss", "current", "hidden"
# (a face-down card), "k:<key>" (a kingdom's name on its colours).
Seg = tuple[str, str]
Line = list[Seg]

WHEN_WORDS = {"incursion_defence": "incursion defence", "campaign_defence": "campaign defence"}
WHO_WORDS = {"any": "either side, any kingdom", "attacker": "the attacker", "defender": "the defender"}
MARKER_WORDS = {"P": "P: stays in force this turn", "D": "D: then leaves the game", "offensive": "offensive"}


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
        for what, word in (("army", "army"), ("ready", "responses"), ("permanent", "permanent")):
            if kd[what]:
                lines.append(f"  {word}: {_cards(game, kd[what])}")
        if kd["hand"]:
            lines.append(f"  {'face-down pile, top first' if kd['bot'] else 'hand'}: {_cards(game, kd['hand'])}")
    lines.append(f"independent: {areas(INDEPENDENT)}")
    for deck in sorted(v["draw"]):
        lines.append(f"{deck} deck: {v['draw'][deck]} to draw, {len(v['discard'][deck])} discarded")
    for deck, order in sorted((v.get("draw_order") or {}).items()):
        lines.append(f"  {deck} draw pile, top first: {_cards(game, order)}")
    if v["removed"]:
        lines.append(f"out of the game: {_cards(game, v['removed'])}")
    lines += [plain_line(line) for line in combat_lines(game, seat)]
    lines.append(_point(game))
    return "\n".join(lines)


def status(game: Any, seat: int) -> str:
    """One line for the seat about to decide: the turn, its castles, Card Bonus, hand and army."""
    v = game.view(seat)
    me = v["kingdoms"][seat]
    hand = ", ".join(game.label(c, me["hand"]) for c in me["hand"] or ()) or "no cards"
    return (f"Turn {v['turn']}/3 | {me['name']}: {me['castles']} castles, bonus {me['bonus']:+d} | hand: {hand}"
            + (f" | army: {_cards(game, me['army'])}" if me["army"] else ""))


def fight(game: Any, seat: int | None) -> str:
    """The fight in progress as ``seat`` sees it (its own face-down cards too); empty when none."""
    f = game.view(seat)["fight"]
    return plain(fight_lines(game, f)) if f is not None else ""


def hand(game: Any, seat: int) -> str:
    """The seat's cards with their text."""
    return plain((hand_lines(game, seat) or [[]])[1:]) or "  no cards in hand"


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


# -- the facts, as tagged lines ------------------------------------------------------------


def plain_line(line: Line) -> str:
    return "".join(text for text, _ in line)


def plain(lines: Iterable[Line]) -> str:
    return "\n".join(plain_line(line) for line in lines)


def short_name(name: str) -> str:
    """A kingdom's name where room is short: Valencia for Taifa of Valencia."""
    return name.removeprefix("Taifa of ")


def card_head(game: Any, cid: str, among: Sequence[str] = ()) -> str:
    """A card's name (its id too when a card of ``among`` has the same face), its kind and what
    the kind adds: a Troop's strength, when and for whom a Response may be placed, whom an Event
    is played against, and its markers (2.1, 5.4)."""
    c = game.card(cid)
    twin = game.label(cid, among) != game.label(cid)  # another card of ``among`` reads the same
    parts = [f"{c.name} ({cid})" if twin else c.name, c.kind + (f" {c.strength}" if c.strength else "")]
    if c.when:
        parts.append(", ".join(WHEN_WORDS.get(w, w) for w in c.when) + f" ({WHO_WORDS.get(c.who, c.who)})")
    if c.target and c.target != "none":
        parts.append(f"against a {c.target}")
    parts += [MARKER_WORDS[m] for m in sorted(c.markers) if m in MARKER_WORDS]
    return " · ".join(parts)


def _count(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def hand_lines(game: Any, seat: int | None) -> list[Line] | None:
    """The seat's hand, each card's head and text; None when its view shows no hand
    (a spectator, a bot's face-down pile, another kingdom's cards: 5.1). The full table
    (TABLE) sees every hand and pile and the draw piles' order, a line a card."""
    if seat is None:
        return None
    v = game.view(seat)
    kingdoms = v["kingdoms"]
    if seat == TABLE:
        return table_lines(game, v)
    if not 0 <= seat < len(kingdoms) or kingdoms[seat]["hand"] is None:
        return None
    me = kingdoms[seat]
    cards = me["hand"]
    lines: list[Line] = [[(f"{possessive(me['name'])} hand: ", "head"), (_count(len(cards)), "")]]
    for c in cards:
        lines.append([("  " + card_head(game, c, cards), "card")])
        lines.append([("    " + game.card(c).text, "dim")])
    return lines


def table_lines(game: Any, v: Mapping[str, Any]) -> list[Line]:
    """The full table's cards (a view of TABLE): each kingdom's hand (a bot's face-down pile top
    first), then each draw pile top first."""
    lines: list[Line] = []
    for k in v["kingdoms"]:
        cards = k["hand"] or ()
        what = "face-down pile, top first" if k["bot"] else "hand"
        lines.append([(f"{possessive(k['name'])} {what}: ", "head"), (_count(len(cards)), "")])
        lines += [[("  " + card_head(game, c, cards), "card")] for c in cards]
    for deck, order in sorted((v.get("draw_order") or {}).items()):
        lines.append([(f"The {deck} draw pile, top first: ", "head"), (_count(len(order)), "")])
        lines.append([("  " + _cards(game, order), "dim")])
    return lines


def turn_line(game: Any, seat: int | None = None) -> str:
    """The turn, the round (C1's ``round`` where the view has it), whose round, the passes in a row."""
    v = game.view(seat)
    if v["result"] is not None:
        return f"Turn {v['turn']}/{TURNS} · the game is over"
    if not v["turn"]:
        return "before the first turn"
    n = len(v["kingdoms"])
    rnd = v.get("round")
    return (f"Turn {v['turn']}/{TURNS} · " + (f"round {rnd}: " if rnd else "round of ")
            + f"{v['kingdoms'][v['current']]['name']} · passes in a row {v['passes']}/{n}")


def kingdom_lines(game: Any, seat: int | None = None, width: int = 80) -> list[Line]:
    """The kingdoms' table: castles x/13, Card Bonus, cards in hand, a bot's deployed army and
    Responses card by card (face up: 9.1), permanent events in force (5.4); ``>`` marks whose round
    it is. Narrower than 60 columns, short names and counts."""
    v = game.view(seat)
    narrow = width < 60
    label = (lambda c: f"{game.card(c).name}{f' {game.card(c).strength}' if game.card(c).strength else ''}") \
        if narrow else game.label
    lines: list[Line] = []
    for i, k in enumerate(v["kingdoms"]):
        mark = "> " if i == v["current"] and v["turn"] and v["result"] is None else "  "
        who = "" if width < 40 else " (you)" if i == seat else " (bot)" if k["bot"] else ""
        if narrow:
            name, counts = f"{short_name(k['name'])[:12]:<12}", f" {k['castles']:>2}/{CASTLES} {k['bonus']:+d}b {k['hand_count']:>2}h"
        else:
            name = f"{k['name']:<17}"
            counts = f" {k['castles']:>2}/{CASTLES} castles  bonus {k['bonus']:+d}  {k['hand_count']:>2} cards"
        lines.append([(mark, "current"), (name, f"k:{k['key']}"), (counts, ""), (who, "dim")])
        if k["army"]:
            strength = sum(game.card(c).strength or 0 for c in k["army"])
            lines.append([(f"    army {strength}: ", "dim"), (", ".join(label(c) for c in k["army"]), "")])
        if k["ready"]:
            lines.append([("    responses: ", "dim"), (", ".join(label(c) for c in k["ready"]), "")])
        if k["permanent"]:
            lines.append([("    in force: ", "dim"), (", ".join(label(c) for c in k["permanent"]), "")])
    draw = ", ".join(f"{d} {n}" for d, n in v["draw"].items())
    lines.append([(f"  draw piles: {draw}", "dim")])
    return lines


def _side(game: Any, k: int) -> str:
    return "the outside force" if k == INDEPENDENT else game.name(k)


def _where(game: Any, f: Mapping[str, Any]) -> str:
    if not f["area"]:
        return f"{f['kind']} against {game.name(f['defender'])}"
    a = f["area"]
    return f"{f['kind']} on {game.area_name(a)} ({a}, defence {game.m.areas[a - 1].defence})"


def fight_lines(game: Any, f: Mapping[str, Any]) -> list[Line]:
    """The fight in progress (a view's ``fight``): who fights where, each card placed (a face-down
    one as such unless the viewer placed it: 5.1 step 2), the garrisons spent."""
    head = f"{_where(game, f)}: {_side(game, f['attacker'])} against {game.name(f['defender'])}"
    if f["kind"] == "campaign":
        head += f" (outside force of {f['force']} dice)"
    lines: list[Line] = [[("Fight: ", "head"), (head, "")]]
    down = f.get("down") or (False,) * len(f["cards"])
    for (side, k, c), hidden in zip(f["cards"], down):
        lines.append([(f"  {side}, {game.name(k)}: ", "dim"),
                      (game.label(c), "card") if c else ("a face-down card", "hidden")]
                     + ([(" (face down)", "hidden")] if c and hidden else []))
    if not f["cards"]:
        lines.append([("  no cards placed yet", "dim")])
    if f["garrisons"]:
        lines.append([("  garrisons spent: ", "dim"), (", ".join(game.area_name(a) for a in f["garrisons"]), "")])
    return lines


def dice_sources(parts: Sequence[Sequence[Any]]) -> str:
    """Where a side's dice came from (C1's ``attack_dice``): ``defence 3, Champion +2, garrison of
    Murcia +1 = 6 dice``; a first part that names its number is not signed again."""
    words = [str(why) if str(why).endswith(f" {n}") else f"{why} {n:+d}" for why, n in parts]
    total = max(0, sum(n for _, n in parts))
    return f"{', '.join(words) or 'nothing'} = {total} {'die' if total == 1 else 'dice'}"


def dice_segs(roll: Sequence[int], count: int | None = None) -> Line:
    """Every die, a hit (4-6: 2.3) marked ``*`` and tagged, then the hits."""
    segs: Line = [(" ", "")]
    for d in roll:
        segs += [(f"{d}*", "hit") if hits([d]) else (str(d), "miss"), (" ", "")]
    n = hits(roll) if count is None else count
    return segs + [(f"= {n} hit{'' if n == 1 else 's'}", "head")] if roll else [(" no dice", "dim")]


def last_combat_lines(game: Any, lc: Mapping[str, Any]) -> list[Line]:
    """The last fight resolved (C1's ``last_combat``) as a whole: the cards revealed on each side,
    the garrisons spent, where each side's dice came from, every die, the outcome and its rule."""
    attacker, defender = _side(game, lc["attacker"]), game.name(lc["defender"])
    lines: list[Line] = [[("Last combat: ", "head"), (f"{_where(game, lc)}: {attacker} against {defender}", "")]]
    for side in ("attack", "defence"):
        placed = [game.label(c) + ("" if k in (lc["attacker"], lc["defender"]) else f" from {game.name(k)}")
                  for sd, k, c in lc["cards"] if sd == side]
        lines.append([(f"  {side}: ", "dim"), (", ".join(placed) or "no cards", "card" if placed else "dim")])
    if lc["garrisons"]:
        lines.append([("  garrisons spent: ", "dim"), (", ".join(game.area_name(a) for a in lc["garrisons"]), "")])
    keys = [k["key"] for k in game.view(None)["kingdoms"]]
    for side, k, who in (("attack", lc["attacker"], attacker), ("defence", lc["defender"], defender)):
        lines.append([(f"  {who}: ", f"k:{keys[k]}" if k >= 0 else "head"), (dice_sources(lc[f"{side}_dice"]), "")])
        lines.append([("    rolls", "dim")] + dice_segs(lc[f"{side}_roll"], lc.get(f"{side}_hits")))
    lines.append([("  outcome: ", "dim"), (lc["outcome"], "head"), (f"  [{lc['rule']}]", "dim")])
    if lc.get("text"):
        lines.append([(f"  {lc['text']}", "dim")])
    return lines


def combat_lines(game: Any, seat: int | None = None) -> list[Line]:
    """The combat pane's facts: the fight in progress, else the last one resolved, else (a view
    without C1's ``last_combat``) the last dice rolled."""
    v = game.view(seat)
    if v["fight"] is not None:
        return fight_lines(game, v["fight"])
    if v.get("last_combat"):
        return last_combat_lines(game, v["last_combat"])
    if v["last_dice"]:
        label, dice = v["last_dice"]
        return [[("Last dice: ", "head"), (label, "")], [("  rolls", "dim")] + dice_segs(dice)]
    return []


def kingdoms_text(game: Any, seat: int | None = None, width: int = 80) -> str:
    """The kingdoms' table as plain text."""
    return plain(kingdom_lines(game, seat, width))


def about(game: Any, code: Code) -> str:
    """What a player weighs before choosing an area or a kingdom: an area's defence and holder,
    the dice each side of the fight would throw before any Response (5.2; the attacker's as many
    as the cards it may add, chosen after); an incursion's die and what it costs the target (5.3)."""
    if len(code) != 2:
        return ""
    if code[0] == "incursion":
        o = game.s.kingdoms.index(code[1])
        held = len(game.s.hands[o])
        if not held:
            return f"1 die, but {game.does(o, 'holds')} no cards to discard"
        return f"1 die: a 4-6 makes {game.name(o)} discard 1 of its {_count(held)} at random"
    if code[0] not in ("attack", "area"):
        return ""
    a = int(code[1])
    printed, owner = game.m.areas[a - 1].defence, game.s.owner[a]
    fewest, most = defence_dice(game, a)
    holder = "independent" if owner == INDEPENDENT else game.name(owner)
    if fewest < most:  # a player's choice of garrisons, in and next to the area
        spare = most - fewest
        dice = f"{fewest}-{most} dice ({spare} garrison{'s' if spare > 1 else ''})"
    else:
        dice = dice_word(most) + (" with its garrison" if most > printed else "")
    if code[0] == "attack":
        point = game.point()
        attacker = f"; you up to {attack_dice(game, point.seat)}" if isinstance(point, Decision) else ""
    else:
        force = event_dice(game, "independent_attack")
        attacker = f"; the outside force {force}" if force else ""
    return f"defence {printed}, {holder}: {dice}{attacker}"


def unavailable(game: Any, decision: Decision) -> list[str]:
    """Why a kind of action is missing from a player's round (5): its action decision only."""
    return prospects.unavailable(game, decision.seat) if decision.kind == "action" else []
