"""A hosted game's seat played at the text prompt: ``fiefdom join URL --prompt``.

The host plays the game (notation/host.py); this prints what it sends the seat (its log, as the
information wall words it), asks the person when the seat is asked, exactly as the local prompt
asks (:class:`~tui.console.Asker`: numbers or the game's words, help, the game's commands), and
sends the choice. The connection runs in a thread of its own; what it takes in is read under
its lock. A spectator's invitation watches: the log only.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

from core.engine import Decision, Game
from notation.catalog import GameLookup
from notation.client import HostGone, SeatClient
from notation.clock import clock_text
from notation.protocol import Invitation
from notation.remote_game import RemoteGame
from notation.seat_table import events_of
from notation.wording import visible
from tui.console import Asker, NoInput, Quit, _event_line, _NoInput, _read_input, extras_for

GONE = "gone"  # what the connection's thread puts on the queue when it ends


class NotJoined(Exception):
    """The host could not be reached, or refused the invitation (one line)."""


class RemoteConsole(Asker):
    """One seat of a hosted game (or a spectator) at the prompt, until the game ends or the person leaves."""

    quit_help = "leave the table (the game waits; the same invitation brings you back); resign gives up"

    def __init__(self, invitation: Invitation, games: GameLookup, read: Callable[[str], str] = _read_input,
                 write: Callable[[str], None] = print) -> None:
        super().__init__(read, write)
        self.invitation = invitation
        self.updates: queue.Queue[str] = queue.Queue()
        self.client = SeatClient(invitation, games, on_update=self.updates.put)
        self.client.lock = threading.Lock()
        self.remote: RemoteGame | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.why_gone = ""
        self.shown = 0  # log entries printed
        self.problems = 0  # the host's refusals printed
        self.asked: Any = None  # the question last put to the person
        self.waiting_for: Any = None  # whose turn was last said
        self.lobby: Any = None
        self.answered = 0

    @property
    def game(self) -> Game:
        assert self.remote is not None
        return self.remote.drawn

    # -- the connection, in its own thread ----------------------------------------------------

    def _connection(self) -> None:
        async def run() -> None:
            self.loop = asyncio.get_running_loop()
            try:
                await self.client.connect()
                await self.client.run()
            except HostGone as err:
                self.why_gone = str(err)
            except (OSError, asyncio.TimeoutError) as err:
                inv = self.invitation
                self.why_gone = f"cannot reach the host at {inv.host}:{inv.port}: " \
                                f"{getattr(err, 'strerror', None) or err or 'no answer'}"
            finally:
                self.client.close()
                self.updates.put(GONE)

        asyncio.run(run())

    def _send(self, call: Callable[[], Any]) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(call)

    # -- the loop ----------------------------------------------------------------------------

    def play(self) -> str:
        """Play (or watch) until the game is over or the person leaves; the closing line(s)."""
        threading.Thread(target=self._connection, daemon=True, name="fiefdom-join").start()
        try:
            while True:
                kind = self.updates.get()
                with self.client.lock:
                    decision = self._take(kind)
                    if decision is None and (kind == GONE or self.client.result is not None):
                        return self._closing()
                if decision is not None:
                    self._decide(decision)
        except (Quit, KeyboardInterrupt):
            return self._left("")
        except _NoInput:
            if not self.answered:
                raise NoInput("no input to read, and this seat is asked to decide") from None
            return self._left(": the input ended")
        finally:
            self._send(self.client.close)

    def _left(self, why: str) -> str:
        self.write("")
        return f"left the table{why}; `fiefdom join {self.invitation.url()}` comes back to it"

    def _closing(self) -> str:
        c = self.client
        if c.header is None:  # never in: no host there, or it refused the invitation
            raise NotJoined(self.why_gone or c.gone or "the host closed the connection")
        if c.result is None:
            return (f"the connection ended: {self.why_gone or c.gone or 'the host closed it'}; "
                    f"`fiefdom join {self.invitation.url()}` joins again")
        lines = [self.result_text(c.result)]
        if c.seed is not None and not (self.remote and self.remote.gi.perfect_information):
            lines.append(f"it was seed {c.seed}")
        if c.deal_check:
            lines.append(c.deal_check)
        return "\n".join(lines)

    def _take(self, kind: str) -> Decision | None:
        """What a message changed, printed; the question to ask the person now, if there is a new one."""
        c = self.client
        for text in c.problems[self.problems:]:
            self.write(f"  host: {visible(text)}")
            self.asked = None  # a refused choice: the question is asked again
        self.problems = len(c.problems)
        if kind == "welcome" and c.header is not None:
            who = "watching" if c.seat is None else f"playing {c.header.seats[c.seat].name}"
            self.write(visible(f"joined {c.header.game}, {c.header.variant}: {who}"))
        if kind == "lobby" and c.people and self.lobby != (c.here, c.people) and c.header is not None:
            self.lobby = (list(c.here), list(c.people))
            missing = [c.header.seats[s].name for s in c.people if s not in c.here]
            self.write(visible("waiting for " + ", ".join(missing)) if missing else "everyone is here: dealing")
        if kind != "table" or c.header is None:
            return None
        if self.remote is None:
            self.remote = RemoteGame(c)
            self.extras = extras_for(c.header.game)
        self.remote.update()
        self.shown = min(self.shown, len(c.log))
        for entry in c.log[self.shown:]:
            for event in events_of(entry):
                if event.kind not in self.extras.quiet:
                    self.write(_event_line(event))
        self.shown = len(c.log)
        if c.result is not None:
            return None
        point = self.remote.point()
        if c.ask is not None and isinstance(point, Decision):
            if self.asked == c.ask["n"]:
                return None
            self.asked = c.ask["n"]
            return point
        if c.turn is not None and self.waiting_for != (c.turn[0], len(c.log)) and c.turn[0] != c.seat:
            self.waiting_for = (c.turn[0], len(c.log))
            left = c.clock_left(c.turn[0])  # every seat's clock is shown: its own at its prompt, the others' here
            clock = "" if left is None else f", {clock_text(left)} left"
            self.write(visible(f"  ({c.header.seats[c.turn[0]].name} to play{clock})"))
        return None

    def _decide(self, decision: Decision) -> None:
        """Ask the person: the seat's table in short, the prompt, the options; the choice sent."""
        seat = decision.seat
        with self.client.lock:
            name = self._put(decision)
            asked = self.client.ask["n"] if self.client.ask else None
        while True:
            left = self.client.clock_left(seat)
            line = self.read(f"{name}{f' [{clock_text(left)}]' if left is not None else ''}> ")
            if line.strip().lower() == "resign":
                if self.read("  resign: every other seat wins (y/n) ").strip().lower() in ("y", "yes"):
                    self._send(self.client.resign)
                    return
                self.write("  nothing played")
                continue
            with self.client.lock:
                if self.client.ask is None or self.client.ask["n"] != asked:
                    self.write("  the question has passed")
                    self.asked = None
                    return
                code = self._choice(line, decision)
            if code is None or not self._confirmed(code):  # may read a y/n: not holding the lock
                continue
            self.answered += 1
            self._send(lambda: self.client.decide(code))
            return


def join_at_prompt(invitation: Invitation, games: GameLookup, read: Callable[[str], str] = _read_input,
                   write: Callable[[str], None] = print) -> str:
    """Play a hosted game's seat at the prompt; the closing line(s)."""
    return RemoteConsole(invitation, games, read, write).play()
