"""A hosted game in the test's own event loop, on 127.0.0.1, with clients that speak the protocol.

:func:`new_host` makes a :class:`~notation.host.Host` for a new game and :func:`hosted` starts it
serving, with its invitations; :class:`Player` is a client that answers its seat's questions by a
seeded random choice (or a function given), waiting on the very condition a test asserts;
:class:`Raw` is a connection that sends whatever bytes a test gives it (a hostile client).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import games as core_games
from notation.catalog import GameLookup
from notation.client import HostGone, SeatClient
from notation.host import Host, HostSettings
from notation.protocol import HEADER, FrameLimits, Invitation, ProtocolError, pack, read_frame
from notation.runner import GameSetup, Runner, SeatPlan

WAIT = 60.0  # a generous bound on any one wait: the suite runs on two busy cores


def setup_of(game: str, variant: str, kinds: list[str], seed: int = 1, **options: Any) -> GameSetup:
    gi = core_games.info(game)
    return GameSetup(game, variant, tuple(SeatPlan(k) for k in kinds), seed=seed, options=options,
                     setup=gi.setup_for(variant, kinds))


def new_host(setup: GameSetup, path: Path, *, dealt: bool = True, said: list[str] | None = None,
             games: GameLookup = core_games.info, data: dict[str, str] | None = None, **settings: Any) -> Host:
    gi = games(setup.game)
    header, _ = setup.start(gi, games)
    people = [i for i, p in enumerate(setup.seats) if p.kind == "human"]
    host_settings = HostSettings.new(people, speed=0, **settings)
    out = said if said is not None else []
    return Host(host_settings, header, lambda s: Runner.start(s, path, replace=True, games=games), setup=setup,
                dealt=dealt, say=out.append, data=data)


async def hosted(host: Host) -> tuple[list[Invitation], asyncio.Task[None]]:
    """``host`` listening and serving: its invitations (each person's, then the spectators') and the task."""
    invitations = await host.open()
    return invitations, asyncio.get_running_loop().create_task(host.serve())


@pytest.fixture
async def loop_errors() -> Any:
    """Whatever the event loop would log as unhandled (a callback or a task that raised): none, at the end.
    A test module takes it with ``pytestmark = pytest.mark.usefixtures("loop_errors")``."""
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    yield errors
    loop.set_exception_handler(None)
    assert not errors, [e.get("message") for e in errors]


async def eventually(condition: Callable[[], Any], wait: float = WAIT) -> Any:
    """Wait for ``condition`` about the host's side (its value), looking at each turn of the loop."""
    end = time.monotonic() + wait
    while not (value := condition()):
        assert time.monotonic() < end, f"still not so after {wait} s"
        await asyncio.sleep(0.005)
    return value


class Player:
    """A client that plays its seat: each new question answered by ``choose`` (a seeded random option;
    a ``choose`` that returns None leaves the question unanswered)."""

    def __init__(self, invitation: Invitation, seed: int = 0,
                 choose: Callable[["Player", dict[str, Any]], Any] | None = None, play: bool = True) -> None:
        self.client = SeatClient(invitation, on_update=self._update)
        self.rng = random.Random(seed)
        self.choose = choose or (lambda me, ask: me.rng.choice(ask["options"])[0])
        self.play = play
        self.answered: list[Any] = []
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.ended: str | None = None

    def _update(self, kind: str) -> None:
        if kind == "table":
            self.answer()
        self.changed.set()

    def answer(self) -> None:
        """Answer the question asked now, unless it has been answered."""
        c = self.client
        if self.play and c.ask is not None and c.result is None \
                and (not self.answered or self.answered[-1][0] != c.ask["n"]):
            code = self.choose(self, c.ask)
            if code is None:
                return
            self.answered.append((c.ask["n"], code))
            c.decide(code)

    async def join(self) -> "Player":
        await self.client.connect()
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    async def _run(self) -> None:
        try:
            await self.client.run()
        except HostGone as err:
            self.ended = str(err)
        self.changed.set()

    async def until(self, condition: Callable[[], bool], wait: float = WAIT) -> None:
        """Wait for ``condition`` (checked after each message), failing after ``wait`` seconds."""
        async def check() -> None:
            while not condition():
                self.changed.clear()
                if self.task is not None and self.task.done() and not condition():
                    raise AssertionError(f"the connection ended first: {self.ended}")
                await self.changed.wait()
        await asyncio.wait_for(check(), wait)

    async def gone(self, wait: float = WAIT) -> str:
        """Wait for the host to end this connection; why it said it did."""
        assert self.task is not None
        await asyncio.wait_for(asyncio.shield(self.task), wait)
        return self.ended or ""

    def leave(self) -> None:
        self.client.close()


async def play_to_end(host: Host, players: list[Player]) -> None:
    """Every player joined and the game played to its end (every client has the result)."""
    for p in players:
        await p.join()
    for p in players:
        await p.until(lambda p=p: p.client.result is not None)


class Raw:
    """A connection that sends what the test gives it, byte for byte, and keeps what the host sends."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, invitation: Invitation, hello: bool = True) -> "Raw":
        """Connected to ``invitation``'s host; its hello said unless not ``hello``."""
        reader, writer = await asyncio.open_connection(invitation.host, invitation.port,
                                                       limit=FrameLimits.FROM_HOST)
        raw = cls(reader, writer)
        if hello:
            raw.send({"t": "hello", "seat": invitation.seat, "token": invitation.token})
        return raw

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(pack(message))

    def frame(self, body: bytes, size: int | None = None) -> None:
        """A frame of ``body`` bytes (declaring ``size`` when given: a lie about its length)."""
        self.writer.write((len(body) if size is None else size).to_bytes(HEADER, "big") + body)

    async def next(self, wait: float = WAIT) -> dict[str, Any] | None:
        """The host's next message (None: it closed the connection)."""
        try:
            message = await asyncio.wait_for(read_frame(self.reader, FrameLimits.FROM_HOST), wait)
        except (ConnectionError, ProtocolError):
            return None
        if message is not None:
            self.received.append(message)
        return message

    async def until(self, kind: str, wait: float = WAIT) -> dict[str, Any] | None:
        """Read up to the host's next message of type ``kind`` (None: it closed the connection first)."""
        while (message := await self.next(wait)) is not None:
            if message["t"] == kind:
                return message
        return None

    async def closed(self, wait: float = WAIT) -> list[dict[str, Any]]:
        """Read until the host closes the connection; every message it sent."""
        while await self.next(wait) is not None:
            pass
        return self.received

    def kinds(self) -> list[str]:
        return [m["t"] for m in self.received]

    def close(self) -> None:
        self.writer.close()
