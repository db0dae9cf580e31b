"""The host of a networked game: one play driver, its record, and a connection per person.

:class:`Host` is a view of a :class:`~notation.driver.PlayDriver` (DESIGN.md, "One driver, many
tables") served over TCP (docs/protocol.md). It owns the chance source and the record (the
record's writer lock, notation/record_lock.py); AI, bot and random seats play here. Each
connection is a seat's (with its invitation's token) or a spectator's, and receives only what
notation/seat_table.py asks the information wall for: its view, its question, its log.

Before the first step the people's clients and the host deal the seed by commit-reveal
(notation/deal.py): nobody, the host included, can choose it, and the record keeps the proof.

Nothing a client sends reaches the game but a legal decision of its own seat: every frame is
size-limited and checked (notation/protocol.py); a bad message gets an error and a strike, a
client with too many strikes, an oversized frame or a flood is dropped, and the game goes on.
A client that drops comes back with its invitation; a host killed outright is started again on
its record (``resume``) and the same invitations work (their tokens are kept beside the record).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.engine import Decision, Event, RulesError, Viewer
from notation.clock import ClockRule, Clocks
from notation.deal import HOST, Deal, Reveal as DealReveal, commitment, new_secret, seat_label, seed_of
from notation.driver import SPEEDS, Note, PlayDriver, loop_later
from notation.format import DecisionRecord, Header
from notation.protocol import (
    ClientMessage, Commit, Decide, FrameLimits, FrameTooLarge, Hello, Invitation, ProtocolError, Resign, Reveal, from_client,
    pack, reachable_name, read_frame,
)
from notation.runner import GameSetup, Runner
from notation.seat_table import ask_of, log_entry, notes_words, result_words, shown_game, turn_of

HELLO_SECONDS = 10.0  # a connection must say hello this soon
STRIKES = 5  # bad messages a client may send before it is dropped
RATE = 20.0  # messages a second a client may send, on average (beside answers to its questions)
BURST = 40.0  # and at once
WRITE_BUFFER = 16 * 1024 * 1024  # a client that reads nothing is dropped rather than buffered for
LINGER = 30.0  # seconds the host stays up after the end, for the last tables to reach everyone
GRACE = 5.0  # seconds a closed connection has to take what is still unsent before it is cut
SIDECAR = ".host"  # beside the record: the invitations' tokens and the host's settings (mode 0600)


@dataclass
class HostSettings:
    """How the host serves: where, the invitations' tokens (kept to resume), the pace and the clocks."""

    bind: str = "127.0.0.1"
    port: int = 0
    tokens: dict[int, str] = field(default_factory=dict)  # person seat -> token
    watch: str = ""  # the spectators' token
    speed: int | None = None  # an index into SPEEDS; None: the driver's pace for a game with people
    clock: ClockRule | None = None

    @classmethod
    def new(cls, people: list[int], **kwargs: Any) -> "HostSettings":
        return cls(tokens={seat: secrets.token_urlsafe(16) for seat in people}, watch=secrets.token_urlsafe(16),
                   **kwargs)

    def wire(self) -> dict[str, Any]:
        clock = None if self.clock is None else [self.clock.base, self.clock.increment, self.clock.on_time]
        return {"bind": self.bind, "port": self.port, "tokens": {str(k): v for k, v in self.tokens.items()},
                "watch": self.watch, "speed": self.speed, "clock": clock}

    def save(self, record: Path) -> None:
        """Beside the record, readable by its owner only: the tokens are the invitations' secrets."""
        path = Path(f"{record}{SIDECAR}")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a file that was there keeps its mode through O_CREAT: made the owner's again
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(self.wire(), f)

    @classmethod
    def load(cls, record: Path) -> "HostSettings":
        """The settings a host saved beside ``record``; RulesError in one line when they are missing or damaged."""
        path = Path(f"{record}{SIDECAR}")
        try:
            with open(path, encoding="utf-8") as f:
                raw = json.loads(f.read(64 * 1024))
            clock = raw["clock"]
            return cls(str(raw["bind"]), int(raw["port"]), {int(k): str(v) for k, v in dict(raw["tokens"]).items()},
                       str(raw["watch"]), None if raw["speed"] is None else int(raw["speed"]),
                       None if clock is None else ClockRule(float(clock[0]), float(clock[1]), str(clock[2])))
        except OSError as err:
            raise RulesError(f"{path}: {err.strerror or err} (a hosted game's invitations are kept there)") from None
        except (ValueError, KeyError, TypeError, IndexError):
            raise RulesError(f"{path}: not a host's settings file") from None


class Bucket:
    """A token bucket: RATE messages a second on average, BURST at once."""

    def __init__(self) -> None:
        self.level, self.at = BURST, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(BURST, self.level + (now - self.at) * RATE)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def cut_later(writer: asyncio.StreamWriter) -> None:
    """A connection closed with bytes still unsent ends when they are sent, or GRACE seconds later
    (a client that reads nothing would otherwise hold it, and its task, open for ever)."""
    transport = writer.transport
    if transport.get_write_buffer_size():
        asyncio.get_running_loop().call_later(GRACE, transport.abort)


class Peer:
    """One connection: a seat's client or a spectator's."""

    def __init__(self, host: "Host", reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seat: Viewer) -> None:
        self.host, self.reader, self.writer, self.seat = host, reader, writer, seat
        self.strikes = 0
        self.bucket = Bucket()
        self.sent = 0  # log entries this client has
        self.dirty = asyncio.Event()  # its table changed since it was last sent
        self.closed = False
        self.sender: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        self.writer.write(pack(message))
        if self.writer.transport.get_write_buffer_size() > WRITE_BUFFER:
            self.close("it does not read what it is sent")

    def error(self, text: str) -> None:
        """A bad message: said to the client, and a strike; dropped at STRIKES."""
        self.strikes += 1
        self.send({"t": "error", "text": text})
        if self.strikes >= STRIKES:
            self.close("too many bad messages")

    def close(self, why: str = "") -> None:
        if self.closed:
            return
        if why:
            try:
                self.writer.write(pack({"t": "bye", "text": why}))
            except Exception:  # noqa: BLE001 - the connection is going anyway
                pass
        self.closed = True
        self.dirty.set()  # the sender wakes and ends
        self.writer.close()
        cut_later(self.writer)
        self.host.left(self, why)

    async def send_tables(self) -> None:
        """The table, whenever it changed, at the pace the client reads it: a slow client gets fewer,
        newer tables and never holds the host."""
        try:
            while not self.closed:
                await self.dirty.wait()
                self.dirty.clear()
                if self.closed:
                    return
                self.send(self.host.table_for(self))
                await self.writer.drain()
        except (ConnectionError, OSError):
            self.close()
        except Exception as err:  # noqa: BLE001 - a table that cannot be made drops this client, not the host
            self.host.say(f"cannot send {self.host._who(self.seat)} the table: {type(err).__name__}: {err}")
            self.close("the host could not send the table")


class Host:
    """A networked game: see the module's docstring. :meth:`serve` runs it to its end."""

    def __init__(self, settings: HostSettings, header: Header, begin: Callable[[GameSetup], Runner] | None,
                 setup: GameSetup | None = None, runner: Runner | None = None, dealt: bool = True,
                 say: Callable[[str], None] = print, data: dict[str, str] | None = None) -> None:
        """A new game (``setup``, started by ``begin`` once the seed is dealt, or at once from its own
        seed when not ``dealt``; ``header`` the header it will have, but for the seed and the deal)
        or a resumed one (``runner``)."""
        self.settings, self.header, self.begin, self.setup, self.say = settings, header, begin, setup, say
        self.dealt = dealt
        self.data = dict(data or {})  # a user's own data files (key -> text), sent to every client: public, static
        self.people = [i for i, s in enumerate(header.seats) if s.kind == "human"]
        self.peers: dict[Viewer, Peer] = {}
        self.watchers: set[Peer] = set()
        self.driver: PlayDriver | None = None
        self.acting: Peer | None = None  # whose message is being played (a refusal goes to it)
        self.views: dict[Viewer, Any] = {}  # this version's views, shared by the spectators
        self.done = asyncio.Event()
        self.server: asyncio.Server | None = None
        self.connections: dict[asyncio.Task[Any], asyncio.StreamWriter] = {}  # each one's task, until it ends
        self.clocks = Clocks(settings.clock, self.people) if settings.clock else None
        self.timer: asyncio.TimerHandle | None = None
        self.timed: tuple[int, int] | None = None  # the question the running clock is for
        self.secret = new_secret()
        self.commits: dict[int, bytes] = {}
        self.reveals: dict[int, bytes] = {}
        self.round = 0  # the deal's round: started again when a person leaves before the game begins
        self.asked = False  # this round's commitments have been asked for
        if runner is not None:
            self._play(runner)
            self._restore_clocks(runner)

    def _restore_clocks(self, runner: Runner) -> None:
        """A resumed game's clocks: each seat's time left as its last decision's record has it
        (a seat that had not decided yet starts from the base time)."""
        recording = runner.journal.recording if runner.journal is not None else None
        if self.clocks is None or recording is None:
            return
        for record in recording.records:
            if isinstance(record, DecisionRecord) and record.clock is not None:
                self.clocks.restore(record.seat, record.clock)

    # -- serving ---------------------------------------------------------------------------

    async def open(self) -> list[Invitation]:
        """Listen; the invitations (a seat's for each person, then the spectators')."""
        self.server = await asyncio.start_server(self._connected, self.settings.bind, self.settings.port)
        port = self.server.sockets[0].getsockname()[1]
        self.settings.port = port
        if self.path is not None:  # a resumed game: where it listens now (--bind, --port) is kept for the next
            try:
                self.settings.save(self.path)
            except OSError as err:
                self.say(f"cannot keep the host's settings beside the record: {err.strerror or err}")
        host = reachable_name(self.settings.bind)
        invitations = [Invitation(host, port, seat, self.settings.tokens[seat]) for seat in self.people]
        return invitations + [Invitation(host, port, None, self.settings.watch)]

    async def serve(self) -> None:
        """Until the game is over (and a little after, for the last tables) or :meth:`stop`."""
        if self.driver is not None:
            self.driver.start()
        try:
            await self.done.wait()
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Every connection closed (and its task ended: one that will not take its last bytes is cut),
        the driver left, the record let go."""
        if self.server is not None:
            self.server.close()
        for peer in [*self.peers.values(), *self.watchers]:
            peer.close()
        for writer in self.connections.values():
            writer.close()  # one still to say hello
        if self.driver is not None:
            await self.driver.leave()
        self.done.set()
        if self.connections:
            _, late = await asyncio.wait(list(self.connections), timeout=GRACE)
            for task in late:
                self.connections[task].transport.abort()
            if late:
                await asyncio.wait(late, timeout=GRACE)

    @property
    def path(self) -> Path | None:
        return self.driver.runner.path if self.driver is not None else None

    # -- a connection ------------------------------------------------------------------------

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer: Peer | None = None
        task = asyncio.current_task()
        assert task is not None
        self.connections[task] = writer
        task.add_done_callback(lambda _: self.connections.pop(task, None))
        try:
            hello = await asyncio.wait_for(read_frame(reader, FrameLimits.FROM_CLIENT), HELLO_SECONDS)
            message = from_client(hello) if hello is not None else None
            if not isinstance(message, Hello):
                raise ProtocolError("the first message is a hello with the invitation's seat and token")
            if not self._admitted(message):
                raise ProtocolError("this invitation is not valid for this game")
            peer = self._join(reader, writer, message.seat)
            await self._listen(peer)
        except (ProtocolError, asyncio.TimeoutError) as err:
            text = str(err) or "no hello in time"
            if peer is None:
                writer.write(pack({"t": "bye", "text": text}))
                writer.close()
                cut_later(writer)
            else:
                peer.close(text)
        except (ConnectionError, OSError):
            if peer is not None:
                peer.close()
        finally:
            if peer is not None and not peer.closed:
                peer.close()

    def _admitted(self, hello: Hello) -> bool:
        """The token checked in constant time against the one the seat was given (or a stand-in)."""
        expected = self.settings.watch if hello.seat is None else self.settings.tokens.get(hello.seat, "")
        right = hmac.compare_digest(hello.token.encode(), (expected or secrets.token_urlsafe(16)).encode())
        return right and bool(expected)

    def _join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seat: Viewer) -> Peer:
        peer = Peer(self, reader, writer, seat)
        old = None
        if seat is None:
            self.watchers.add(peer)
        else:
            old = self.peers.get(seat)
            self.peers[seat] = peer
            if old is not None:
                old.close("the seat joined again from another connection")
        peer.send(self.welcome(seat))
        peer.sender = asyncio.get_running_loop().create_task(peer.send_tables())
        if self.driver is not None:
            peer.dirty.set()
        elif seat is None:
            peer.send(self._lobby())  # a spectator hears who is here; the deal is none of its business
        elif old is not None:
            self._restart_deal()  # the seat's new connection has no secret of the old one's
        else:
            self._lobby_changed()
        self.say(f"{self._who(seat)} joined")
        return peer

    def left(self, peer: Peer, why: str) -> None:
        if peer.seat is None:
            self.watchers.discard(peer)
            self._maybe_done()
            return
        if self.peers.get(peer.seat) is not peer:
            return  # replaced by the seat's new connection
        del self.peers[peer.seat]
        self.say(f"{self._who(peer.seat)} left" + (f": {why}" if why else ""))
        if self.driver is None:
            self._restart_deal()
        self._maybe_done()

    async def _listen(self, peer: Peer) -> None:
        while not peer.closed:
            try:
                frame = await read_frame(peer.reader, FrameLimits.FROM_CLIENT)
            except FrameTooLarge as err:
                peer.close(str(err))
                return
            except ProtocolError as err:
                peer.error(str(err))
                continue
            if frame is None:
                return
            message: ClientMessage | ProtocolError
            try:
                message = from_client(frame)
            except ProtocolError as err:
                message = err
            # The answer to the seat's own question is never held back (the host's questions pace it);
            # anything else a client sends comes out of its bucket.
            if not self._awaited(peer, message) and not peer.bucket.take():
                peer.error("too many messages: slow down")
                continue
            if isinstance(message, ProtocolError):
                peer.error(str(message))
                continue
            await self._handle(peer, message)

    def _awaited(self, peer: Peer, message: Any) -> bool:
        """Whether ``message`` answers the question ``peer``'s seat is asked now."""
        d = self.driver
        if d is None or not isinstance(message, Decide):
            return False
        waiting = d.runner.waiting
        return isinstance(waiting, Decision) and waiting.seat == peer.seat and message.ask == d.question()

    async def _handle(self, peer: Peer, message: Any) -> None:
        if isinstance(message, Hello):
            peer.error("hello is said once")
        elif isinstance(message, (Commit, Reveal)):
            self._deal_message(peer, message)
        elif peer.seat is None:
            peer.error("a spectator only watches")
        elif isinstance(message, Decide):
            self._decide(peer, message)
        elif isinstance(message, Resign):
            await self._resign(peer)

    # -- the deal: commit, then reveal -------------------------------------------------------

    def welcome(self, seat: Viewer) -> dict[str, Any]:
        h = self.driver.runner.header if self.driver is not None else self.header  # a seat handed to the AI says so
        clock = self.settings.clock
        return {"t": "welcome", "seat": seat, "game": {"game": h.game, "variant": h.variant, "revision": h.revision,
                                                         "options": h.options, "setup": h.setup},
                "seats": [[s.name, s.kind] for s in h.seats], "app": h.app, "data": self.data,
                "clock": None if clock is None else [int(clock.base * 1000), int(clock.increment * 1000), clock.on_time]}

    def _here(self) -> list[int]:
        return sorted(s for s in self.peers if s is not None)

    def _lobby(self) -> dict[str, Any]:
        return {"t": "lobby", "here": self._here(), "people": self.people}

    def _lobby_changed(self) -> None:
        """A person came or went before the game began: everyone hears who is here; when every person
        is, the deal's round begins (once a round: its commitments are asked for once)."""
        for peer in [*self.peers.values(), *self.watchers]:
            peer.send(self._lobby())
        if self._here() != self.people:
            return
        if not self.dealt:
            self._begin(None)
        elif not self.asked:
            self.asked = True
            for peer in self.peers.values():
                peer.send({"t": "deal", "phase": "commit", "host": commitment(self.secret, HOST), "round": self.round})

    def _restart_deal(self) -> None:
        """A person left (or came back on a new connection) before the game began: the deal starts
        again, a new round with a new secret for everyone; an answer to an older round is ignored."""
        self.commits.clear()
        self.reveals.clear()
        self.secret = new_secret()
        self.round += 1
        self.asked = False
        self._lobby_changed()

    def _deal_message(self, peer: Peer, message: Commit | Reveal) -> None:
        seat = peer.seat
        if seat is not None and self.driver is None and message.round != self.round:
            return  # sent for a round the host has started again since: no fault of the client's
        if seat is None or self.driver is not None or not self.asked:
            peer.error("no deal is being made now")
            return
        if isinstance(message, Commit):
            if seat in self.commits:
                peer.error("this seat has committed already")
                return
            self.commits[seat] = message.commit
            if len(self.commits) == len(self.people):
                self._ask_reveals()
            return
        if len(self.commits) < len(self.people) or seat in self.reveals:
            peer.error("a reveal comes once, after every commitment")
            return
        if commitment(message.secret, seat_label(seat)) != self.commits[seat]:
            peer.close("the reveal does not match the commitment")
            return
        self.reveals[seat] = message.secret
        if len(self.reveals) == len(self.people):
            deal = Deal(DealReveal(HOST, commitment(self.secret, HOST), self.secret),
                        tuple(DealReveal(seat_label(s), self.commits[s], self.reveals[s]) for s in self.people))
            self._begin(deal)

    def _ask_reveals(self) -> None:
        commits = [[HOST, commitment(self.secret, HOST)]] + [[seat_label(s), self.commits[s]] for s in self.people]
        for peer in self.peers.values():
            peer.send({"t": "deal", "phase": "reveal", "commits": commits, "round": self.round})

    def _begin(self, deal: Deal | None) -> None:
        """The seed is dealt: the record begins and the game with it."""
        assert self.setup is not None and self.begin is not None
        setup = self.setup if deal is None else replace(self.setup, seed=seed_of(deal), deal=deal)
        try:
            runner = self.begin(setup)
        except (RulesError, OSError) as err:
            self.say(f"the game cannot begin: {err}")
            self.done.set()
            return
        self.settings.save(runner.path) if runner.path is not None else None
        self._play(runner)
        assert self.driver is not None
        self.driver.start()

    def _play(self, runner: Runner) -> None:
        self.header = runner.header
        driver = PlayDriver(runner, self)
        driver.own_screens = True  # each person at a screen of their own: no hand-over
        driver.think_apart()
        if self.settings.speed is not None:
            driver.speed = self.settings.speed
        self.driver = driver

    # -- the game ----------------------------------------------------------------------------

    def _decide(self, peer: Peer, message: Decide) -> None:
        d = self.driver
        if d is None:
            peer.error("the game has not begun")
            return
        waiting = d.runner.waiting
        if message.ask != d.question() and message.ask < (d.generation, len(d.runner.history)):
            # An answer overtaken by the game (sent twice, or as the clock ran out): refused, no fault.
            peer.send({"t": "refused", "text": "that question has passed", "ask": list(message.ask)})
            return
        if not isinstance(waiting, Decision) or waiting.seat != peer.seat:
            peer.error("it is not this seat's turn to decide")
            return
        if message.ask != d.question():
            peer.error("no such question has been asked")
            return
        if message.code not in waiting.options:
            peer.error("not one of the options")
            return
        clock = self.clocks.decided(waiting.seat) if self.clocks is not None else None
        self.acting = peer
        try:
            played = d.play(message.code, clock=clock)
        finally:
            self.acting = None
        if not played and self.clocks is not None:
            self.clocks.undo(waiting.seat)  # refused: the seat's clock runs on, without the increment

    async def _resign(self, peer: Peer) -> None:
        d = self.driver
        if d is None or d.runner.result is not None or peer.seat is None:
            peer.error("there is no game to resign")
            return
        self.acting = peer
        try:
            await d.resign(peer.seat)
        finally:
            self.acting = None

    def _watch_clock(self) -> None:
        """Start the clock of the seat asked now, and the timer for when it runs out."""
        d = self.driver
        if self.clocks is None or d is None:
            return
        waiting, key = d.runner.waiting, d.question()
        if not isinstance(waiting, Decision) or key is None or d.runner.result is not None:
            self.clocks.stop_without_increment()
            self.timed = None  # the same question asked again (after the table was busy) runs the clock again
            return
        if self.timed == key:
            return
        self.timed = key
        self.clocks.start(waiting.seat)
        self._arm(waiting.seat, key)

    def _arm(self, seat: int, key: tuple[int, int]) -> None:
        """The timer for when ``seat``'s running clock runs out on question ``key``."""
        assert self.clocks is not None
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(self.clocks.now(seat) + 0.001,
                                                           lambda: self._flag(seat, key))

    def _flag(self, seat: int, key: tuple[int, int]) -> None:
        """``seat``'s clock ran out on question ``key``: it loses, or the AI plays on for it."""
        d = self.driver
        if d is None or self.clocks is None or d.question() != key or self.clocks.running != seat:
            return
        if self.clocks.now(seat) > 0:  # the timer came a little early
            self._arm(seat, key)
            return
        self.clocks.stop_without_increment()
        name = self.header.seats[seat].name
        if self.settings.clock is not None and self.settings.clock.on_time == "ai":
            d.note(f"the clock of {name} ran out: the AI plays on for {name}")
            self.clocks.left.pop(seat, None)
            asyncio.get_running_loop().create_task(d.reseat(seat, "ai"))
        else:
            d.note(f"the clock of {name} ran out")
            asyncio.get_running_loop().create_task(d.resign(seat))

    # -- what each client is sent -------------------------------------------------------------

    def table_for(self, peer: Peer) -> dict[str, Any]:
        """``peer``'s table now: its view, its question, the log it has not had yet (a page at most)."""
        d = self.driver
        assert d is not None
        seat = peer.seat
        if seat not in self.views:
            self.views[seat] = shown_game(d).view(seat)
        first = min(peer.sent, len(d.entries))
        page = d.entries[first:first + FrameLimits.LOG_PAGE]
        peer.sent = first + len(page)
        if peer.sent < len(d.entries):
            peer.dirty.set()  # the rest in the next table
        r = d.runner
        over = r.result is not None and d.ended
        message: dict[str, Any] = {
            "t": "table", "view": self.views[seat], "ask": ask_of(d, seat), "turn": turn_of(d),
            "log_from": first, "log": [log_entry(info.seen_by(seat), r.gi.perfect_information) for info in page],
            "notes": notes_words(d.notes),
            # The end once the driver has played it out (a last step's units shown at the pace), with
            # the seed and the deal: a client hears of both at once.
            "result": result_words(r.result) if over else None,
            "clocks": self.clocks.words() if self.clocks is not None else None,
            "busy": d.busy,
        }
        if over:
            message["seed"] = r.header.seed
            deal = getattr(r.header, "deal", None)
            message["deal"] = None if deal is None else [[p.who, p.commit, p.secret] for p in (deal.host, *deal.seats)]
        return message

    def _everyone_dirty(self) -> None:
        self.views.clear()
        for peer in [*self.peers.values(), *self.watchers]:
            peer.dirty.set()

    def _who(self, seat: Viewer) -> str:
        return "a spectator" if seat is None else self.header.seats[seat].name

    # -- the driver's view (notation.driver.DriverView) ---------------------------------------

    def later(self, delay: float, then: Callable[[], None]) -> None:
        loop_later(delay, then)

    def changed(self) -> None:
        self._everyone_dirty()
        self._watch_clock()

    def logged(self, events: list[Event] | Any) -> None:
        pass  # each client's log is worded from the driver's entries, for its seat (table_for)

    def noted(self, note: Note) -> None:
        self._everyone_dirty()

    def problem(self, text: str) -> None:
        if not text:
            return
        if self.acting is not None:
            self.acting.send({"t": "refused", "text": text})
        else:
            self.say(text)

    def over(self) -> None:
        self._everyone_dirty()
        r = self.driver.runner if self.driver is not None else None
        if r is not None and r.result is not None:
            self.say(f"the game is over: {r.result.reason}; record: {r.path}")
        asyncio.get_running_loop().call_later(LINGER, self.done.set)
        self._maybe_done()

    def _maybe_done(self) -> None:
        """After the end, the host leaves once every client has had its last table and gone."""
        if self.driver is not None and self.driver.ended and not self.peers and not self.watchers:
            self.done.set()



def speed_of(seconds: float | None) -> int | None:
    """The pace nearest ``seconds`` between automatic steps (None: the driver's own)."""
    if seconds is None:
        return None
    return min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - seconds))
