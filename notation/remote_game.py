"""A hosted game as one client sees it: a Game built from what the host sent, for drawing only.

The boards, the prompt and the game's texts read a Game: its view, its question, its words and a
few of its rules on public state. A client has only its seat's view, so it builds the game from
that view (the game's ``from_view``, core/<game>): nothing hidden can be drawn, because the
client never had it. A game of perfect information (Tafl) is simply played along, every move
being public. The question, its options' words and the result come from the host.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from core import games as core_games
from core.engine import Decision, Game, Over, Point, RulesError, Viewer
from notation.catalog import GameLookup, build_game
from notation.client import SeatClient
from notation.wording import visible


def with_data(games: GameLookup, game: str, texts: dict[str, str]) -> GameLookup:
    """``games`` with the host's own data files (key -> text) for ``game``, each loaded by the game's
    own loader and checks, as a file a user gives (a host's file is untrusted too); RulesError in
    one line when one is unusable."""
    if not texts:
        return games
    gi = games(game)
    files = {f.key: f for f in gi.data_files}
    loaded = {}
    with tempfile.TemporaryDirectory(prefix="fiefdom-data-") as folder:
        for key, text in texts.items():
            if key not in files:
                raise RulesError(f"the host sent a data file {visible(key)[:30]!r} that {gi.title} does not take")
            path = Path(folder) / f"{key}.toml"
            path.write_text(text, "utf-8")
            try:
                loaded[key] = files[key].load(str(path))
            except RulesError as err:
                raise RulesError(f"the host's {key} file: {err}") from None
    return core_games.lookup({game: loaded})


def code_of(value: Any) -> Any:
    """A code or an outcome from msgpack's arrays back to tuples."""
    return tuple(code_of(v) for v in value) if isinstance(value, list) else value


class RemoteGame:
    """What the host sent, as a Game to draw (never to play: the host plays). Anything not said here
    is the rebuilt game's (its static data: cards, the map, names)."""

    def __init__(self, client: SeatClient) -> None:
        assert client.header is not None
        self.client = client
        games = with_data(client.games, client.header.game, client.data)
        self.gi = games(client.header.game)
        self.start = build_game(client.header, games)
        self.game: Game = self.start.clone()
        self.played = 0  # log entries applied (perfect information)
        self.version = -1
        self._own_view, self._own_describe, self._own_parse = self.game.view, self.game.describe, self.game.parse

    def update(self) -> None:
        """Follow the client's latest table."""
        c = self.client
        if c.tables == self.version:
            return
        self.version = c.tables
        if self.gi.perfect_information:
            if self.played > len(c.log):  # a takeback: from the start again
                self.game, self.played = self.start.clone(), 0
            for entry in c.log[self.played:]:
                value = code_of(entry[5])
                self.game.apply(value) if entry[1] == "decision" else self.game.resolve(value)
            self.played = len(c.log)
        elif c.view is not None:
            rebuild = self.gi.from_view
            if rebuild is None:
                raise RulesError(f"{self.gi.title} cannot be drawn from a seat's view here")
            self.game = self._dressed(rebuild(self.start, c.view, c.seat))

    def _dressed(self, game: Game) -> Game:
        """The rebuilt game, answering with what the host sent: its question, its options' words
        and warnings, this seat's view (set on the object, so the game's own methods that ask its
        point, such as ``describe``, ask the host's too). Its own are kept for the rest."""
        self._own_view, self._own_describe, self._own_parse = game.view, game.describe, game.parse
        for name in ("point", "view", "describe", "warning", "parse"):
            setattr(game, name, getattr(self, name))
        return game

    @property
    def drawn(self) -> Game:
        """The game to draw: played along (perfect information), else rebuilt from the view and dressed."""
        return self.game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.start.seats

    def point(self) -> Point:
        """The question this seat is asked, with its options; another seat's as who and what kind
        (no options: they are that seat's); the end when the host says so."""
        c = self.client
        if c.result is not None:
            return Over(c.result)
        if c.ask is not None and c.seat is not None:
            return Decision(c.seat, c.ask["prompt"], tuple(code_of(o[0]) for o in c.ask["options"]), c.ask["kind"])
        if c.turn is not None:
            return Decision(c.turn[0], "", (), c.turn[1])
        return self.game.point() if self.gi.perfect_information else Decision(-1, "", ())

    def view(self, seat: Viewer) -> Any:
        c = self.client
        if seat == c.seat and c.view is not None:
            return c.view
        return self._own_view(seat)

    def _option(self, code: Any) -> list[Any] | None:
        """The host's [code, words, warning] for one of this seat's options now."""
        ask = self.client.ask
        for option in ask["options"] if ask is not None else ():
            if code_of(option[0]) == tuple(code):
                return list(option)
        return None

    def describe(self, code: Any) -> str:
        option = self._option(code)
        return str(option[1]) if option is not None else self._own_describe(code)

    def warning(self, code: Any) -> str | None:
        """The rules' question before a choice a player may regret, as the host worded it."""
        option = self._option(code)
        return (option[2] or None) if option is not None else None

    def parse(self, text: str) -> Any:
        """An option of this seat's question in its own words, else as the game reads moves."""
        want = " ".join(text.split()).casefold()
        ask = self.client.ask
        for option in ask["options"] if ask is not None else ():
            if " ".join(str(option[1]).split()).casefold() == want:
                return code_of(option[0])
        try:
            return self._own_parse(text)
        except RulesError:
            raise
        except Exception:  # noqa: BLE001 - a game rebuilt from a view may not read every phrase
            raise RulesError(f"{visible(text.strip())[:40]!r} is not one of the options") from None
