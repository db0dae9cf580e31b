"""A kingdom's plays on its turn: what it may play, and playing it (take-the-kingdom.txt,
"Gameplay" to "Notes on specific cards"). Multiplayer turns and the solo player's card both
go through :func:`play_options` and :func:`perform`.

Option codes (stable, never the order listed):

* ``("place", card, where)`` a Defend card, Trap or Mercenaries onto a slot (``where`` a
  Castle or Land card id, or ``"new"`` for a Land);
* ``("move", mercenaries, where)`` placed Mercenaries to another slot;
* ``("attack", card)`` an Attack card, or Mercenaries from the hand or from their slot;
* ``("mercy", card, "land" | "fortune")``; ``("fortune", card)``;
* ``("freeze", card, seat)``, ``("penalty", card, seat)`` (Baligant);
* ``("mutiny", card, seat, target card)``, ``("disrepair", card, seat, slot)``,
  ``("earthquake", card, seat, slot)``, ``("sabotage", card, seat, slot)``;
* then, for an attack, ``("morale", card)``, ``("spread", card)``, ``("go",)`` and
  targets ``("at", seat, slot)`` or with Spread ``("at", seat, slot, points)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.engine import Code, Parts, RulesError
from core.kingdom.cards import value_text
from core.kingdom.lines import (attackable, armed_defences, defence_room, is_construction,
                                land_room, places)
from core.kingdom.state import Slot
from core.kingdom.words import played
from core.procedure import Proc

if TYPE_CHECKING:
    from core.kingdom.table import Table

ANSWER_ONLY = frozenset({"deny", "gold", "spread", "morale"})  # never a play on their own (KD-18)
_STARVED = ANSWER_ONLY | {"mercy", "sabotage"}  # not played while Famine holds the kingdom back (KD-17)
_PLACED = frozenset({"defend", "trap", "mercenaries"})  # the types of card played onto a slot
AGAINST = ("freeze", "mutiny", "earthquake", "disrepair", "sabotage", "penalty")  # played against a kingdom


def opponents(g: "Table", k: int) -> list[int]:
    return [o for o, r in enumerate(g.s.realms) if o != k and not r.out and r.slots]  # g.standing_seats(), inlined


def play_options(g: "Table", k: int, solo_card: str | None = None) -> list[Code]:
    """Every play ``k`` may make now (without "done"). ``solo_card``: the solo player's card
    for the round, the only card it may play (KD-20)."""
    s = g.s
    realms, r, banned, by_id = s.realms, s.realms[k], s.banned, g.cards.by_id
    defend_ok, attack_ok = "defend" not in banned, "attack" not in banned
    cards = [solo_card] if solo_card else sorted(r.hand) + sorted(r.mercy)
    opts: list[Code] = []
    foes = opponents(g, k)
    open_ = [(o, attackable(realms[o])) for o in foes]  # each foe's Castle or Lands open to attack
    targets_exist = any(slots for _, slots in open_)
    attacks = attack_ok and targets_exist
    skip = _STARVED if g.starved(k) else ANSWER_ONLY
    wheres: dict[tuple[str, str], list[str]] = {}  # where a card may be placed: the same for its kind
    for cid in cards:
        c = by_id[cid]
        key, kind = c.key, c.type
        if key in skip:
            pass
        elif kind in _PLACED:
            if defend_ok:
                where = wheres.get((key, kind))
                if where is None:
                    where = wheres[key, kind] = places(g.cards, r, cid)
                opts += [("place", cid, w) for w in where]
            if attacks and kind == "mercenaries":
                opts.append(("attack", cid))
        elif kind == "attack":
            if attacks:
                opts.append(("attack", cid))
        elif key == "mercy":
            if defend_ok and land_room(r):
                opts.append(("mercy", cid, "land"))
            if not solo_card:
                opts.append(("mercy", cid, "fortune"))
        elif key == "fortune":
            opts.append(("fortune", cid))
        elif kind == "penalty":
            if g.noble_key(k) == "baligant":
                opts += [("penalty", cid, o) for o in foes]
        elif key == "freeze":
            opts += [("freeze", cid, o) for o in foes if realms[o].frozen is None]
        elif key == "mutiny":
            opts += [("mutiny", cid, o, t) for o in foes for t in armed_defences(g.cards, realms[o])]
        elif key in ("earthquake", "disrepair", "sabotage"):
            opts += [(key, cid, o, slot.card) for o, slots in open_ for slot in slots if action_hits(g, key, slot)]
    if not solo_card:  # Mercenaries already placed: move them, or attack from where they stand
        for slot in r.slots:
            for cid in slot.defences:
                if by_id[cid].type != "mercenaries":
                    continue
                if defend_ok:
                    opts += [("move", cid, to.card) for to in defence_room(r) if to is not slot]
                if attack_ok and targets_exist and not slot.damage.get(cid) and not slot.tucked.get(cid):
                    opts.append(("attack", cid))
    return opts



def action_hits(g: "Table", key: str, slot: Slot) -> bool:
    """Whether Earthquake, Disrepair or Sabotage would do anything to this slot (one open to
    attack: only Mutiny ignores the lines, KD-28; KD-16)."""
    construction_top = bool(slot.defences) and is_construction(g.cards, slot.defences[-1])
    if key == "sabotage":
        return slot.trap is not None
    if key == "disrepair":
        return construction_top
    return slot.trap is not None or construction_top  # earthquake


def perform(g: "Table", k: int, code: Parts) -> Proc:
    """Play ``code`` for ``k``; returns how many plays it used."""
    verb = code[0]
    s, r = g.s, g.s.realms[k]
    if verb == "place":
        _, cid, where = code
        g.take(k, cid)
        c = g.card(cid)
        if where == "new":
            r.slots.append(Slot(cid))
            g.emit("place", f"{g.name(k)} adds a {g.standing_name(k, cid)}", "kingdom defence", k, cid)
        else:
            slot = g.find_slot(k, where)
            if c.type == "trap":
                slot.trap = cid
                g.emit("place", f"{g.name(k)} sets a Trap face down under {g.where(k, slot)}", "kingdom traps", k)
            else:
                slot.defences.append(cid)
                if g.telling:
                    worth = "" if value_text(c) in g.label(cid) else f" (+{c.value})"  # Mercenaries +/-2
                    g.emit("place", f"{g.name(k)} places {g.label(cid)}{worth} on {g.where(k, slot)}",
                           "kingdom mercenaries" if c.type == "mercenaries" else "kingdom defence", k, cid)
        return 1
    if verb == "move":
        _, cid, where = code
        src = next(sl for sl in r.slots if cid in sl.defences)
        src.defences.remove(cid)
        dst = g.find_slot(k, where)
        dst.defences.append(cid)
        if cid in src.tucked:  # its damage goes with it
            dst.tucked[cid] = src.tucked.pop(cid)
        if cid in src.damage:
            dst.damage[cid] = src.damage.pop(cid)
        g.emit("move", f"{g.name(k)} moves {g.standing_name(k, cid)} to {g.where(k, dst)}", "kingdom mercenaries", k, cid)
        return 1
    if verb == "attack":
        used = yield from attack(g, k, code[1])
        return used
    if verb == "mercy":
        _, cid, how = code
        g.take(k, cid)
        if how == "land":
            r.slots.append(Slot(cid))
            g.emit("mercy", f"{g.name(k)} plays Mercy as a Land (defence 1)", "kingdom notes.mercy", k, cid)
        else:
            s.extra = True
            g.to_discard(cid)
            g.emit("mercy", f"{g.name(k)} plays Mercy as Fortune: another turn after this one",
                   "kingdom notes.mercy", k, cid)
        return 1
    if verb == "fortune":
        g.take(k, code[1])
        g.to_discard(code[1])
        s.extra = True
        g.emit("fortune", f"{g.name(k)} plays Fortune: another turn after this one", "kingdom actions", k)
        return 1
    if verb in AGAINST:
        yield from against(g, k, code)
        return 1
    raise RulesError(f"{code!r}: not a play")


def against(g: "Table", k: int, code: Parts) -> Proc:
    """An Action (or Baligant's Penalty) played against another kingdom, which may answer it."""
    verb, cid, o = code[0], code[1], code[2]
    s = g.s
    g.take(k, cid)
    s.in_play.append(cid)
    g.emit("play", played(g, k, code),
           "kingdom characters" if verb == "penalty" else "kingdom actions", k, cid, o)
    outcome = yield from g.window(k, cid, [o], "against you")
    s.in_play.remove(cid)
    if outcome[0] == "blocked":
        g.to_discard(cid)
        return
    if outcome[0] == "bought":
        yield from g.bought(outcome[1], k, cid)
        return
    realm = s.realms[o]
    if verb == "freeze":
        realm.frozen = cid
        g.emit("freeze", f"{g.name(o)} is frozen: no plays on its next turn unless Mercy removes the Freeze",
               "KD-15", o)
        return
    if verb == "penalty":
        realm.pending.append(cid)
        g.emit("penalty", f"{g.card(cid).name} will strike {g.name(o)} on its next turn", "kingdom characters", o, cid)
        return
    g.to_discard(cid)
    if verb == "mutiny":
        if g.find_card(o, code[3]):
            g.emit("mutiny", f"Mutiny: {g.possessive(o)} {g.standing_name(o, code[3])} leave, lines of defence or not",
                   "kingdom notes.mutiny", o, code[3])
            g.destroy(o, code[3])
        return
    slot = g.find_slot(o, code[3])
    if verb in ("earthquake", "sabotage") and slot.trap:
        trap, slot.trap = slot.trap, None
        g.to_discard(trap)
        g.emit("trap", f"{g.card(cid).name} removes the Trap under {g.where(o, slot)} without springing it",
               "kingdom notes.sabotage", o)
    if verb in ("earthquake", "disrepair") and slot.defences and is_construction(g.cards, slot.defences[-1]):
        top = slot.defences[-1]
        g.emit("destroy", f"{g.card(cid).name} destroys {g.possessive(o)} {g.standing_name(o, top)}", "KD-16", o, top)
        g.destroy(o, top)


def attack(g: "Table", k: int, cid: str) -> Proc:
    """An attack: the card (from the hand, or Mercenaries from their slot), Morale and Spread
    added at a play each (asked whenever the hand could hold one, KD-30), the targets, the window,
    then each part struck ("Attack (red) cards", "Spread and Morale"; shares, KD-7). Returns the
    plays used."""
    s, r = g.s, g.s.realms[k]
    placed = next((sl for sl in r.slots if cid in sl.defences), None)
    if placed is not None:
        placed.defences.remove(cid)
        where = f" from {g.where(k, placed)}"
    else:
        g.take(k, cid)
        where = ""
    s.in_play.append(cid)
    used, morale, spread = 1, None, None
    foes = opponents(g, k)
    targets = [(o, sl.card) for o in foes for sl in attackable(s.realms[o])]
    while s.plays - used >= 1:
        extra: list[Code] = []
        if morale is None:
            extra += [("morale", c) for c in sorted(r.hand) if g.card(c).key == "morale"][:1]
        if spread is None and len(targets) > 1:
            extra += [("spread", c) for c in sorted(r.hand) if g.card(c).key == "spread"][:1]
        open_ = morale is None or (spread is None and len(targets) > 1)  # what the situation allows
        if not extra and not (open_ and g.could_hold(k)):
            break
        # KD-30: asked whenever the hand could hold Morale or Spread, in words that name neither
        ask = f"attack with {g.card(cid).name}: " + ("add to the attack (a play each), or go" if g.could_hold(k)
                                                     else "add Morale or Spread (a play each), or go")
        code = yield from g.ask(k, ask, [*extra, ("go",)], "commit")
        if code[0] == "go":
            break
        g.take(k, code[1])
        s.in_play.append(code[1])
        used += 1
        if code[0] == "morale":
            morale = code[1]
        else:
            spread = code[1]
    value = g.attack_value(k, cid) * (2 if morale else 1)
    parts: list[tuple[int, str, int]] = []
    if spread:
        left = value
        while left > 0:
            free = [(o, sc) for o, sc in targets if all(sc != p[1] for p in parts)]
            opts: list[Code] = [("at", o, sc, n) for o, sc in free for n in range(1, left + 1)]
            if parts:
                opts.append(("go",))
            if not opts:
                break
            code = yield from g.ask(k, f"Spread: share {left} more damage (a target and its points)", opts, "target")
            if code[0] == "go":
                break
            parts.append((code[1], code[2], code[3]))
            left -= code[3]
    else:
        code = yield from g.ask(k, f"attack with {g.card(cid).name} ({value}): which Castle or Land?",
                                [("at", o, sc) for o, sc in targets], "target")
        parts.append((code[1], code[2], value))
    if g.telling:
        with_ = "".join(f" + {g.card(c).name}" for c in (morale, spread) if c)
        aims = ", ".join(f"{p[2]} on {g.where(p[0], g.find_slot(p[0], p[1]))}" for p in parts)
        g.emit("attack", f"{g.name(k)} attacks with {g.label(cid)}{with_}{where}: {aims}",
               "kingdom notes.spread" if spread or morale else "kingdom attack", k, cid, value)
    extras = [c for c in (morale, spread) if c]
    outcome = yield from g.window(k, cid, sorted({p[0] for p in parts}), "against you")
    while (outcome[0] == "blocked" and spread and not g.opts.get("deny_blocks_spread", True)
           and any(p[0] != outcome[1] for p in parts)):
        # KD-11: a Deny blocks the card "played against you": the blocker's shares only
        parts = [p for p in parts if p[0] != outcome[1]]
        g.emit("answer", f"{g.label(cid)} is blocked on {g.possessive(outcome[1])} kingdom only: the other shares go on",
               "KD-11", outcome[1], cid)
        outcome = yield from g.window(k, cid, sorted({p[0] for p in parts}), "against you")
    for c in extras:
        s.in_play.remove(c)
        g.to_discard(c)
    if outcome[0] == "blocked":
        s.in_play.remove(cid)
        g.to_discard(cid)
        return used
    if outcome[0] == "bought":
        s.in_play.remove(cid)
        yield from g.bought(outcome[1], k, cid)
        return used
    tucked = False
    for o, sc, n in parts:  # the card stays in play until it is tucked or discarded
        if g.find_card(o, sc):
            t = yield from g.strike(k, o, sc, n, None if tucked else cid)
            tucked = tucked or t
    if not tucked:
        s.in_play.remove(cid)
        g.to_discard(cid)
    return used
