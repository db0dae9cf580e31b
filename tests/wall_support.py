"""What a point of view may not see, found by content (tests of the information wall, issue 25).

Every string in the full table's view (``view(TABLE)``: every hand, every face-down card, every
deck's order) that a seat's own view has never held so far is hidden from it; so are the names
of those cards, where a game keeps named cards by id (a name no card the seat has seen shares).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from core.engine import TABLE, Game, Viewer
from notation.replay import Replay


def strings(value: Any, keys: bool = False) -> Iterator[str]:
    """Every string in a view, in order: its values, and with ``keys`` its dicts' keys too."""
    found: list[str] = []
    _gather(value, found, keys)
    return iter(found)


def _gather(value: Any, found: list[str], keys: bool) -> None:
    """:func:`strings` into ``found``: one call per container, not a generator per value (a view of
    the table holds thousands of values, and the wall tests read every view at every step)."""
    if isinstance(value, str):
        found.append(value)
        return
    if isinstance(value, dict):
        value = [x for item in value.items() for x in item] if keys else value.values()
    elif not isinstance(value, (list, tuple, set, frozenset)):
        return
    for v in value:
        if isinstance(v, str):
            found.append(v)
        elif isinstance(v, (dict, list, tuple, set, frozenset)):
            _gather(v, found, keys)


def card_of(game: Game, token: str) -> Any:
    """The card ``token`` names, where the game keeps named cards by id (a ``cards`` lookup, or a
    ``card(id)`` method); None for anything else."""
    cards, card = getattr(game, "cards", None), getattr(game, "card", None)
    try:
        return cards[token] if cards is not None else card(token) if callable(card) else None
    except Exception:  # not a card's id (a game's lookup says so in its own way)
        return None


# Card names a game's own texts use as words of its rules, whatever card is where ("Gold used 1 of
# 3", "no Deny, Gold, Mercy or Sabotage"): a name check cannot tell them from a card named.
RULE_WORDS = {"kingdom": frozenset({"Gold", "Mercy", "Deny", "Sabotage", "Famine", "Freeze", "Trap", "Castle",
                                    "Land", "Penalty", "Fortune"})}


class Wall:
    """What each point of view has seen so far, and so what is hidden from it. A Wall follows one
    game: what card a token names is asked of the game once per token (it is the same card all game)."""

    def __init__(self, seats: int) -> None:
        self.seen: dict[Viewer, set[str]] = {v: set() for v in [*range(seats), None]}
        self.hidden: dict[Viewer, set[str]] = {v: set() for v in self.seen}
        self.names_seen: dict[Viewer, set[str]] = {v: set() for v in self.seen}
        self.names: set[str] = set()  # every card name met so far
        self.texts_seen: dict[Viewer, set[str]] = {v: set() for v in self.seen}  # the texts of cards seen
        self._cards: dict[str, tuple[str | None, tuple[str, ...]]] = {}  # token -> its card's name, texts

    def _card(self, game: Game, token: str) -> tuple[str | None, tuple[str, ...]]:
        """The name of the card ``token`` names (None if none) and the card's own text and effect."""
        if token not in self._cards:
            card = card_of(game, token)
            name = getattr(card, "name", None)
            self._cards[token] = (name if isinstance(name, str) else None,
                                  tuple(text for field in ("text", "effect")
                                        if isinstance(text := getattr(card, field, None), str)))
        return self._cards[token]

    def _names(self, game: Game, tokens: Iterable[str]) -> set[str]:
        return {n for t in tokens if (n := self._card(game, t)[0])}

    def told(self, game: Game, public: Iterable[str]) -> None:
        """Texts everyone read (a spectator's log of a step): a card they name is public knowledge
        by the game's own ruling (a Noble's starting card, a Gold changing hands), whatever it
        is now; and the game's rule words are never a card named."""
        text = "\n".join(public)
        words = set(_TOKEN.findall(text))
        known = {n for n in self.names if _names_whole(n, text, words)}
        known |= RULE_WORDS.get(game.game, frozenset())
        for viewer in self.names_seen:
            self.names_seen[viewer] |= known

    def look(self, game: Game) -> None:
        everything = set(strings(game.view(TABLE)))
        self.names |= self._names(game, everything)
        for viewer in self.seen:
            own = set(strings(game.view(viewer)))
            self.seen[viewer] |= own
            self.names_seen[viewer] |= self._names(game, own)
            # A card's own text and effect (rules words: "Soldiers turn on their captains", "removes one
            # Knights or Archers") name no card held.
            self.texts_seen[viewer].update(*(self._card(game, t)[1] for t in own))
            self.hidden[viewer] |= everything - own

    def secrets(self, game: Game, viewer: Viewer) -> set[str]:
        """What ``viewer`` has been hidden from and never shown: ids, and names no seen card shares."""
        ids = self.hidden[viewer] - self.seen[viewer]
        seen = self.names_seen[viewer]
        names = self._names(game, ids) - seen
        # A name inside a name seen ("Parias" in "Demand Parias") is no card named.
        # And a name in the text of a card seen is a rule's word there.
        words = [*(m for m in seen if m not in names), *self.texts_seen[viewer]]
        tokens = {w for m in words for w in _WORD.findall(m)}  # a name in a word has each of its words there
        names = {n for n in names if not (all(w in tokens for w in _WORD.findall(n)) and
                                          any(_whole(n, False).search(m) for m in words))}
        return {t for t in ids | names if len(t) >= 2}

    def leaks(self, game: Game, viewer: Viewer, text: str) -> list[str]:
        """:func:`leaks` of ``text`` against what ``viewer`` may not see now (:meth:`secrets`). Asked
        first of a wider set, the ids hidden from it and every card name it has not seen (cheap to
        make), and of :meth:`secrets` (which weighs each name against every word seen) only when that
        finds one: what :meth:`secrets` holds, the wider set holds."""
        wider = (self.hidden[viewer] - self.seen[viewer]) | (self.names - self.names_seen[viewer])
        return leaks(text, self.secrets(game, viewer)) if leaks(text, wider) else []


_TOKEN = re.compile(r"[\w-]+")
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=None)
def _whole(s: str, hyphen: bool) -> re.Pattern[str]:
    """``s`` as a whole word: no word character (nor a hyphen, with ``hyphen``) either side."""
    edge = r"[\w-]" if hyphen else r"\w"
    return re.compile(rf"(?<!{edge}){re.escape(s)}(?!{edge})")


def _names_whole(s: str, text: str, words: set[str]) -> bool:
    """Whether ``text``, whose ``_TOKEN`` words are ``words``, holds ``s`` as a whole word. Where it
    does, each of the words of ``s`` is one of ``words`` (a word of ``s`` is bounded there as in
    ``s``): that is asked first, and the text searched only when it holds."""
    if _TOKEN.fullmatch(s):
        return s in words
    return all(w in words for w in _TOKEN.findall(s)) and _whole(s, True).search(text) is not None


def leaks(text: str, secrets: set[str]) -> list[str]:
    """The secrets ``text`` names, each as a whole word (``C11``, not ``C110``; ``Court Intrigue``)."""
    if not secrets:
        return []
    words = set(_TOKEN.findall(text))
    return sorted(s for s in secrets if _names_whole(s, text, words))


def wall_of(replay: Replay) -> Wall:
    """What each point of view saw of a recorded game, position by position."""
    wall = Wall(len(replay.seat_names))
    wall.look(replay.state_at(0))
    for n in range(1, replay.steps + 1):
        game = replay.state_at(n)
        wall.look(game)
        info = replay.step_record(n).seen_by(None)
        wall.told(game, [info.text, *(e.text for e in info.events)])
    return wall
