"""A Take the Kingdom game rebuilt from one seat's view, for a networked client.

The host sends a client only ``game.view(seat)``; the client's play screen and prompt read a
game (``card``, ``name``, ``attack_value``, ``view``...), so :func:`from_view` makes one from the
view and the game at its start (its cards, options and seats). The view stays the only thing
that decides what the seat sees: nothing hidden reaches the rebuilt game, because the client
never had it. ``rebuilt.view(seat) == view``.

What the view does not tell is not invented:

* a hand the seat may not see, the deck and the solo decks are filled with ``UNSEEN``, a card id
  no card has and no view shows to that seat, as many as the view counts (``hand_count``,
  ``deck``, ``decks``), so the counts read as on the table;
* another kingdom's Trap stays ``HIDDEN_TRAP``, a Freeze is ``realm_of``'s placeholder (the view
  says only that a kingdom is frozen);
* the cards out of the game (the box) and the turns without a card (``idle``) are left empty.

The rebuilt game is a picture (a frame, core/procedure.py): ``apply`` and ``resolve`` raise, and
its ``point()`` is not the position's (the client asks the host for that), except that a finished
game's is its result; a method that reads the point (``describe``, ``warning``) reads it of the
object it runs on, so a client that shows the host's point runs them on its wrapper or takes the
host's words. Ask it only ``seat``'s view: another seat's shows that seat's unseen hand as ``UNSEEN``.
"""

from __future__ import annotations

from typing import Any

from core.engine import Game
from core.kingdom.state import KingdomState, Realm
from core.kingdom.table import Table
from core.kingdom.view import realm_of
from core.visibility import UNSEEN



def unseen(n: int) -> list[str]:
    return [UNSEEN] * n


def realm_from(v: dict[str, Any]) -> Realm:
    """A realm of the view, its unseen hand as ``UNSEEN`` cards (as many as it holds)."""
    realm = realm_of(v)
    if v["hand"] is None:
        realm.hand = unseen(v["hand_count"])
    return realm


def state_from(view: dict[str, Any]) -> KingdomState:
    """The table as far as ``view`` tells (the full table's view tells the decks' order too)."""
    deck = list(view["deck_order"]) if "deck_order" in view else unseen(view["deck"])
    decks = [list(d) for d in view["decks_order"]] if "decks_order" in view else [unseen(n) for n in view["decks"]]
    return KingdomState(
        realms=[realm_from(r) for r in view["realms"]], deck=deck, discard=list(view["discard"]),
        pool=list(view["pool"]), survival=list(view["survival"]), in_play=list(view["in_play"]),
        gold_uses=view["gold_uses"], current=view["current"], turn=view["turn"], plays=view["plays"],
        banned=list(view["banned"]), extra=view["extra"], decks=decks, revealed=list(view["revealed"]),
        given=list(view["given"]))


def from_view(start: Game, view: Any, seat: int | None) -> Game:
    """The game ``start`` (as the record's header builds it) at the position ``view`` (``seat``'s
    view of the real game) shows; ``rebuilt.view(seat) == view``. Shares nothing mutable."""
    assert isinstance(start, Table), f"not a Take the Kingdom game: {type(start).__name__}"
    game = start.picture(state_from(view), view["result"])
    game.opts = dict(view["options"])
    return game
