"""A Taifa game rebuilt from one seat's view, for a networked client.

The host sends a client only ``game.view(seat)``; the client's map, panes and prompt read a game
(``card``, ``name``, ``attackable``, ``m``, ``s.owner``, ``view``...), so :func:`from_view` makes
one from the view and the game at its start (its map, decks, options, seats and bots). The view
stays the only thing that decides what the seat sees: nothing hidden reaches the rebuilt game,
because the client never had it. ``rebuilt.view(seat) == view``.

What the view does not tell is not invented:

* a hand the seat may not see (another kingdom's, a bot's face-down pile) and each draw pile are
  filled with ``UNSEEN``, a card id no card has and no view shows to that seat, as many as the
  view counts (``hand_count``, ``draw``), so the counts read as on the table;
* a fight's face-down card the seat may not see is None, as in the view.

The rebuilt game is a picture (a frame, core/procedure.py): ``apply`` and ``resolve`` raise, and
its ``point()`` is not the position's (the client asks the host for that), except that a finished
game's is its result; a method that reads the point (``describe``, ``warning``) reads it of the
object it runs on, so a client that shows the host's point runs them on its wrapper or takes the
host's words. Ask it only ``seat``'s view: another seat's shows that seat's unseen hand as ``UNSEEN``.
"""

from __future__ import annotations

from typing import Any

from core.engine import Event, Game
from core.taifa.state import Fight, TaifaState
from core.taifa.table import Table
from core.visibility import UNSEEN



def fight_from(f: dict[str, Any] | None) -> Fight | None:
    """The fight in progress of a view: a card the seat may not see stays None."""
    if f is None:
        return None
    cards = [(side, k, cid, not down) for (side, k, cid), down in zip(f["cards"], f["down"])]
    return Fight(f["kind"], f["attacker"], f["defender"], f["area"], f["force"], cards, list(f["garrisons"]),
                 dict(f["dice"]))


def last_combat_from(lc: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """The last fight resolved, as the state keeps it (``combat.combat_view`` reads it back)."""
    if lc is None:
        return None
    dice = {"attack": tuple(lc["attack_roll"]), "defence": tuple(lc["defence_roll"])}
    fight = Fight(lc["kind"], lc["attacker"], lc["defender"], lc["area"], 0,
                  [(side, k, cid, True) for side, k, cid in lc["cards"]], list(lc["garrisons"]), dice)
    decided = Event("combat", lc["text"], lc["rule"])
    return (fight, lc["turn"], lc["outcome"], decided, tuple((why, n) for why, n in lc["attack_dice"]),
            tuple((why, n) for why, n in lc["defence_dice"]))


def hand_from(k: dict[str, Any]) -> list[str]:
    return list(k["hand"]) if k["hand"] is not None else [UNSEEN] * k["hand_count"]


def draw_from(view: dict[str, Any]) -> dict[str, list[str]]:
    """Each draw pile, top last; its order only from the full table's view."""
    order = view["draw_order"]
    if order is not None:
        return {d: list(reversed(p)) for d, p in order.items()}
    return {d: [UNSEEN] * n for d, n in view["draw"].items()}


def state_from(view: dict[str, Any]) -> TaifaState:
    """The table as far as ``view`` tells."""
    ks = view["kingdoms"]
    fight = fight_from(view["fight"])
    fought = [cid for _, _, cid, _ in fight.cards if cid is not None] if fight else []
    return TaifaState(
        kingdoms=tuple(k["key"] for k in ks), decks=tuple(k["deck"] for k in ks), bots=tuple(k["bot"] for k in ks),
        capitals=tuple(k["capital"] for k in ks), owner=list(view["owner"]), garrison=list(view["garrison"]),
        bonus=[k["bonus"] for k in ks], hands=[hand_from(k) for k in ks], army=[list(k["army"]) for k in ks],
        ready=[list(k["ready"]) for k in ks], kept=[k["kept"] for k in ks],
        permanent=[list(k["permanent"]) for k in ks], draw=draw_from(view),
        discard={d: list(p) for d, p in view["discard"].items()}, removed=list(view["removed"]),
        held=list(view["held"]), truces=list(view["truces"]), in_play=[*view["playing"], *fought],
        turn=view["turn"], current=view["current"], passes=view["passes"], fight=fight,
        last_dice=view["last_dice"], round=view["round"], last_combat=last_combat_from(view["last_combat"]))


def from_view(start: Game, view: Any, seat: int | None) -> Game:
    """The game ``start`` (as the record's header builds it) at the position ``view`` (``seat``'s
    view of the real game) shows; ``rebuilt.view(seat) == view``. Shares nothing mutable."""
    assert isinstance(start, Table), f"not a Taifa game: {type(start).__name__}"
    game = start.picture(state_from(view), view["result"])
    game.opts = dict(start.opts)
    return game
