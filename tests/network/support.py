"""A hosted game in the test's own event loop, on 127.0.0.1, with clients that speak the protocol.

:func:`hosted` starts a :class:`~notation.host.Host` for a new game and returns it with its
invitations; :class:`Player` is a client that answers its seat's questions by a seeded random
choice (or a function given), waiting on the very condition a test asserts.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core import games as core_games
from notation.client import HostGone, SeatClient
from notation.host import Host, HostSettings
from notation.protocol import Invitation
from notation.runner import GameSetup, Runner, SeatPlan

WAIT = 60.0  # a generous bound on any one wait: the suite runs on two busy cores


def setup_of(game: str, variant: str, kinds: list[str], seed: int = 1, **options: Any) -> GameSetup:
    gi = core_games.info(game)
    return GameSetup(game, variant, tuple(SeatPlan(k) for k in kinds), seed=seed, options=options,
                     setup=gi.setup_for(variant, kinds))


def new_host(setup: GameSetup, path: Path, *, dealt: bool = True, said: list[str] | None = None,
             **settings: Any) -> Host:
    gi = core_games.info(setup.game)
    header, _ = setup.start(gi, core_games.info)
    people = [i for i, p in enumerate(setup.seats) if p.kind == "human"]
    host_settings = HostSettings.new(people, speed=0, **settings)
    out = said if said is not None else []
    return Host(host_settings, header, lambda s: Runner.start(s, path, replace=True), setup=setup, dealt=dealt,
                say=out.append)


class Player:
    """A client that plays its seat: each new question answered by ``choose`` (a seeded random option)."""

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
        c = self.client
        if self.play and kind == "table" and c.ask is not None and c.result is None \
                and (not self.answered or self.answered[-1][0] != c.ask["n"]):
            code = self.choose(self, c.ask)
            self.answered.append((c.ask["n"], code))
            c.decide(code)
        self.changed.set()

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

    def leave(self) -> None:
        self.client.close()


async def play_to_end(host: Host, players: list[Player]) -> None:
    """Every player joined and the game played to its end (every client has the result)."""
    for p in players:
        await p.join()
    for p in players:
        await p.until(lambda p=p: p.client.result is not None)
