"""Why a kind of play, or a card held, is not among a kingdom's options on its turn
(take-the-kingdom.txt, "Gameplay" to "Notes on specific cards"; KD-17, KD-18).

Pure: it reads the options :func:`~core.kingdom.plays.play_options` gives and says why what is
missing is missing, from what the deciding kingdom may see (its own hand, the public table), so a
game rebuilt from that kingdom's view (core/kingdom/from_view.py) answers the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.kingdom.lines import attackable
from core.kingdom.plays import ANSWER_ONLY, opponents, play_options

if TYPE_CHECKING:
    from core.kingdom.table import Table

ATTACKING = ("attack", "mercenaries")
DEFENDING = ("defend", "trap", "mercenaries")
# Why an Action card held has no play now, when the table offers it nothing to act on.
NOTHING_TO_HIT = {
    "freeze": "every other kingdom is frozen already",
    "mutiny": "no Knights or Archers stand in another kingdom",
    "earthquake": "no Trap or Construction open to attack",
    "disrepair": "no Construction open to attack",
    "sabotage": "no Trap open to attack",
    "mercy": "no room for another Land",
}


def unavailable(g: "Table", k: int, solo_card: str | None = None) -> list[str]:
    """Lines saying why ``k`` may not attack, may not place a Defend card, or may not play a card
    it holds, now (``solo_card``: the solo player's card for the round, the only one it may play,
    KD-20: then only that card's reasons). Empty when everything held has a play."""
    s, r = g.s, g.s.realms[k]
    if not s.plays:
        return ["no plays left this turn"]
    cards = [solo_card] if solo_card else sorted(r.hand) + sorted(r.mercy)  # as the options list them
    opts = play_options(g, k, solo_card)
    verbs = {o[0] for o in opts}
    offered = {o[1] for o in opts}
    types = {g.card(c).type for c in cards}
    placed = [] if solo_card else [c for sl in r.slots for c in sl.defences if g.card(c).type == "mercenaries"]
    out = []
    if "attack" not in verbs and (not solo_card or types & set(ATTACKING)):
        if not types & set(ATTACKING) and not placed:
            out.append("no Attack cards: no attack")
        elif "attack" in s.banned:
            out.append("Disease: no attack this turn (KD-17)")
        elif not any(attackable(s.realms[o]) for o in opponents(g, k)):
            out.append("no Castle or Land of another kingdom to attack: no attack")
    if "place" not in verbs and (not solo_card or types & set(DEFENDING)):
        if not types & set(DEFENDING):
            out.append("no Defend cards: nothing to place")
        elif "defend" in s.banned:
            out.append("Plague: no Defend card placed or moved this turn (KD-17)")
        else:
            out.append("no room in your kingdom for your Defend cards: nothing to place")
    for cid in cards:
        c = g.card(cid)
        if cid in offered or c.type in ATTACKING + DEFENDING:
            continue
        if c.key in ("deny", "gold"):
            why = "played only out of turn, against a card played on you (KD-18)"
        elif c.key in ANSWER_ONLY:
            why = "played only with an attack (KD-18)"
        elif g.starved(k) and c.key in ("mercy", "sabotage"):
            why = "Famine forbids it until your next turn (KD-17)"
        else:
            why = NOTHING_TO_HIT.get(c.key, "")
        if why:
            out.append(f"{c.name}: {why}")
    return list(dict.fromkeys(out))  # two Denies held: said once
