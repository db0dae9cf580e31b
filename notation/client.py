"""A client of a hosted game (notation/host.py): one seat's (or a spectator's) table, fed by the host.

:class:`SeatClient` connects with an invitation, takes part in the deal (commit, then reveal,
notation/deal.py; at the end it checks the host's reveal against the commitment it was shown
before it revealed its own, and the seed against every reveal), and keeps what the host sent:
the seat's view, its question, its log, the clocks, the result. Every message is checked
(notation/protocol.py ``from_host``). The text prompt and the app draw from it
(:class:`~notation.remote_game.RemoteGame`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from core import games as core_games
from core.engine import Code, Result, Viewer
from notation.catalog import GameLookup
from notation.deal import HOST, Deal, Reveal as DealReveal, commitment, new_secret, problem, seat_label
from notation.format import Header, Seat
from notation.protocol import FrameLimits, Invitation, ProtocolError, from_host, pack, read_frame

CONNECT_SECONDS = 10.0


class HostGone(Exception):
    """The connection ended: the host said why (``bye``), or it closed."""


class SeatClient:
    """One connection to a host, and the table it keeps: see the module's docstring."""

    def __init__(self, invitation: Invitation, games: GameLookup = core_games.info,
                 on_update: Callable[[str], None] = lambda kind: None) -> None:
        self.invitation = invitation
        self.games = games
        self.on_update = on_update  # called with each message's type once it is taken in
        self.seat: Viewer = invitation.seat
        self.header: Header | None = None
        self.clock_rule: list[Any] | None = None
        self.data: dict[str, str] = {}
        self.here: list[int] = []
        self.people: list[int] = []
        self.view: Any = None
        self.ask: dict[str, Any] | None = None
        self.turn: list[Any] | None = None
        self.log: list[list[Any]] = []  # every step as this seat saw it (notation/seat_table.py log_entry)
        self.notes: list[list[Any]] = []
        self.result: Result | None = None
        self.clocks: list[list[Any]] | None = None
        self.clocks_at = 0.0  # when the clocks were sent (a running one counts down from there)
        self.busy = False
        self.seed: int | None = None
        self.problems: list[str] = []  # refusals and errors the host sent, newest last
        self.deal_check: str = ""  # at the end: whether the deal was fair, in words
        self.tables = 0  # tables taken in
        self.rewound = False  # the log came again from further back since a reader last looked
        self.rewound_to = 0  # from where
        self._secret = b""
        self._host_commit = b""
        self._own_commit = b""
        self._commits: dict[str, bytes] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.gone: str | None = None  # why the connection ended
        # Held while a message is taken in: a reader in another thread (the prompt) holds it too.
        self.lock: threading.Lock | contextlib.nullcontext[None] = contextlib.nullcontext()

    # -- the connection ------------------------------------------------------------------------

    async def connect(self) -> None:
        """Connect and say hello; OSError or ProtocolError in one line when it cannot."""
        inv = self.invitation
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(inv.host, inv.port, limit=FrameLimits.FROM_HOST), CONNECT_SECONDS)
        self.send({"t": "hello", "seat": inv.seat, "token": inv.token})

    def send(self, message: dict[str, Any]) -> None:
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(pack(message))

    def decide(self, code: Code) -> bool:
        """Send a choice for the question asked now; False when none is asked."""
        if self.ask is None:
            return False
        self.send({"t": "decide", "ask": self.ask["n"], "code": list(code)})
        return True

    def resign(self) -> None:
        self.send({"t": "resign"})

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    async def run(self) -> None:
        """Take in the host's messages until the connection ends; HostGone says why."""
        assert self.reader is not None
        try:
            while True:
                try:
                    frame = await read_frame(self.reader, FrameLimits.FROM_HOST)
                except (ConnectionError, OSError) as err:
                    raise HostGone(f"the connection to the host was lost ({err.strerror or err})") from None
                if frame is None:
                    raise HostGone(self.gone or "the host closed the connection")
                message = from_host(frame)
                with self.lock:
                    self.take(message)
                self.on_update(message["t"])
        except ProtocolError as err:
            self.close()
            raise HostGone(str(err)) from None

    # -- taking a message in -----------------------------------------------------------------

    def take(self, m: dict[str, Any]) -> None:
        kind = m["t"]
        if kind == "welcome":
            self._welcome(m)
        elif kind == "lobby":
            self.here, self.people = m["here"], m["people"]
        elif kind == "deal":
            self._deal(m)
        elif kind == "table":
            self._table(m)
        elif kind in ("refused", "error"):
            self.problems.append(m["text"])
        elif kind == "bye":
            self.gone = m["text"]

    def _welcome(self, m: dict[str, Any]) -> None:
        g = m["game"]
        seats = tuple(Seat(name, kind, "") for name, kind in m["seats"])
        self.seat = m["seat"]
        self.header = Header(game=g["game"], variant=g["variant"], revision=g["revision"], options=g["options"],
                             setup=g["setup"], seats=seats, chance="seeded", seed=0, app=str(m.get("app", "")),
                             created="")
        self.clock_rule = m["clock"]
        self.data = dict(m.get("data") or {})  # the host's own data files (key -> text): the game is built with them

    def _deal(self, m: dict[str, Any]) -> None:
        """Commit to a fresh secret; reveal it once every commitment is in, the host's as it was shown."""
        who = seat_label(self.seat or 0)
        if m["phase"] == "commit":
            self._secret, self._host_commit = new_secret(), m["host"]
            self._own_commit = commitment(self._secret, who)
            self.send({"t": "commit", "commit": self._own_commit, "round": m["round"]})
            return
        commits = {w: c for w, c in m["commits"]}
        if commits.get(HOST) != self._host_commit or commits.get(who) != self._own_commit:
            self.problems.append("the host changed a commitment before the reveal: not revealing")
            self.close()
            return
        self._commits = commits  # every party's, as shown before this client revealed
        self.send({"t": "reveal", "secret": self._secret, "round": m["round"]})

    def _table(self, m: dict[str, Any]) -> None:
        self.tables += 1
        if m["log_from"] < len(self.log):  # sent again from further back: a rejoin (or a takeback)
            self.rewound, self.rewound_to = True, min(self.rewound_to, m["log_from"]) if self.rewound \
                else m["log_from"]
        self.view, self.ask, self.turn, self.busy = m["view"], m["ask"], m["turn"], bool(m.get("busy"))
        del self.log[m["log_from"]:]
        self.log += m["log"]
        self.notes = m["notes"]
        r = m["result"]
        self.result = None if r is None else Result(tuple(r[0]), r[1], r[2], tuple(r[3]))
        self.clocks, self.clocks_at = m["clocks"], time.monotonic()
        if m.get("seed") is not None:
            self.seed = m["seed"]
            self.deal_check = self._check_deal(m.get("deal"))

    def _check_deal(self, parts: list[list[Any]] | None) -> str:
        """The deal as the host says it was made, against what this client saw and sent."""
        if not parts:
            return "" if not self._own_commit else "the host sent no deal to check"
        reveals = [DealReveal(who, commit, secret) for who, commit, secret in parts]
        deal = Deal(reveals[0], tuple(reveals[1:]))
        why = problem(deal, self.seed)
        if why:
            return f"the deal does not check: {why}"
        if self._host_commit and deal.host.commit != self._host_commit:
            return "the deal does not check: the host's commitment is not the one it showed before the reveals"
        mine = seat_label(self.seat or 0)
        if self._own_commit and not any(r.who == mine and r.secret == self._secret for r in deal.seats):
            return "the deal does not check: this seat's secret is not in it"
        if self._commits and {r.who: r.commit for r in deal.parties} != self._commits:
            return "the deal does not check: its commitments are not the ones shown before the reveals"
        return "the deal checked: the seed follows from every secret, each committed before any was shown"

    # -- reading the table -------------------------------------------------------------------

    def clock_left(self, seat: int) -> float | None:
        """``seat``'s time left now, in seconds (a running clock counts down since it was sent)."""
        for s, ms, running in self.clocks or ():
            if s == seat:
                return max(0.0, float(ms) / 1000 - (time.monotonic() - self.clocks_at if running else 0.0))
        return None
