"""An AI seat that thinks in a process of its own, so that a search never holds the interpreter a
screen needs (DESIGN.md, "One driver, many tables").

The process keeps a mirror of the game: built from the record's header like any replay, it is
sent the steps played since it last thought (decision codes and chance outcomes, applied as
they were) and answers each question with the seat's AI, made from the same seed and limit as
the one in this process would be, so the record is the same whichever thinks. Stopping is a
shared event the AI's stop flag polls: it answers at once with its best so far. A takeback or a
reseat is noticed by the steps no longer matching those sent: the mirror is built again.

When the process cannot be had (a game registered only in this process, a platform without
processes) or dies, the seat's own AI in this process answers instead: the game goes on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any

from core import games as core_games
from core.engine import Code, Decision, Game, RulesError
from core.match import Controller, Limit, Step, handed
from notation import pickling  # noqa: F401 - a game's own data files travel to the process
from notation.format import Header

POLL = 0.01  # seconds between looks at the stop flag while the process thinks
START_TIMEOUT = 60.0  # seconds a new process may take to build its mirror


@functools.cache
def process_context() -> Any:
    """forkserver where the platform has it: a clean process forked from a small server (which
    has the engine's generic modules loaded), fast to start and never a fork of an app's threads;
    spawn elsewhere."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["core.games", "core.match", "notation.catalog", "notation.ai_process"])
    return ctx


@contextlib.contextmanager
def real_stderr() -> Iterator[None]:
    """multiprocessing starts its helper processes with this process's stderr, by its file
    descriptor; an app that captures stderr (Textual does) has none: the helpers get os.devnull."""
    try:
        ok = sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        ok = False
    if ok:
        yield
        return
    saved = sys.stderr
    with open(os.devnull, "w") as null:
        sys.stderr = null
        try:
            yield
        finally:
            sys.stderr = saved


def quiet_child() -> None:
    """The process never writes on the terminal a screen is drawing, and Ctrl-C is its parent's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)


def _serve(conn: Connection, stop: Any, header: Header, data: Mapping[str, Any], seed: int,
           limit: Limit) -> None:
    """The process: build the mirror and the AI, then answer until told to quit."""
    quiet_child()
    from notation.catalog import build_game

    def lookup(name: str) -> core_games.GameDescriptor:
        gi = core_games.info(name)
        return gi.with_data(data) if data else gi

    def mirror() -> Game:
        return build_game(header, lookup)

    try:
        game = mirror()
        ai = lookup(header.game).make_ai(seed, limit.with_stop(stop.is_set))
    except Exception as err:  # noqa: BLE001 - said to the parent, which plays on without us
        conn.send(("failed", f"{type(err).__name__}: {err}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] != "think":
            return
        _, reset, steps = message
        try:
            if reset:
                game = mirror()
            for kind, value in steps:
                game.apply(value) if kind == "decision" else game.resolve(value)
            point = game.point()
            if not isinstance(point, Decision):
                raise RulesError("the mirror has no decision to make")
            code = ai.choose(handed(ai, game), point)
            conn.send(("answer", tuple(code)))
        except Exception as err:  # noqa: BLE001 - the parent says the AI failed, in one line
            conn.send(("error", f"{type(err).__name__}: {err}"))


class RemoteAI:
    """A controller that asks the seat's AI in its own process (see the module's docstring)."""

    reads_only = True  # it reads nothing of the game it is handed: the mirror is its own

    def __init__(self, header: Header, data: Mapping[str, Any], seed: int, limit: Limit,
                 steps: Callable[[], Sequence[Step]], stop: Callable[[], bool], local: Controller) -> None:
        self.header, self.data, self.seed = header, dict(data), seed
        self.limit = dataclasses.replace(limit, stop=Limit().stop)  # its stop is the process's own
        self.steps, self.stop, self.local = steps, stop, local
        self.sent: list[tuple[str, Any]] = []  # the steps the mirror has applied
        self.process: Any = None
        self.conn: Connection | None = None
        self.event: Any = None
        self.broken = False
        self.closed = False  # closed for good: a process starting meanwhile is ended, not kept
        self._lock = threading.Lock()  # the process and its pipe are handed over whole (close may come any time)

    def follow(self, header: Header, steps: Callable[[], Sequence[Step]], stop: Callable[[], bool],
               local: Controller) -> None:
        """Go on with the same game resumed from its rewritten record (a takeback, a reseat): its
        steps, stop flag and local AI from now on; the mirror is built again if its steps differ."""
        self.header, self.steps, self.stop, self.local = header, steps, stop, local

    def _start(self) -> bool:
        """The process, started and its mirror built; False (and the local AI from now on) if it fails
        or the seat was closed meanwhile (the app left while the AI began to think)."""
        if self.process is not None:
            return True
        if self.broken or self.closed:
            return False
        started: tuple[Connection, Any] | None = None
        try:
            ctx = process_context()
            mine, theirs = ctx.Pipe()
            with real_stderr():
                event = ctx.Event()
                process = ctx.Process(target=_serve, args=(theirs, event, self.header, self.data, self.seed,
                                                           self.limit), daemon=True)
                process.start()
            started = mine, process
            theirs.close()
            with self._lock:
                if self.closed:
                    raise RuntimeError("the seat was closed while its process started")
                self.event, self.conn, self.process = event, mine, process
                started = None  # close() ends it from now on
            if not mine.poll(START_TIMEOUT) or mine.recv()[0] != "ready":
                raise RuntimeError("the AI process did not start")
        except Exception:  # noqa: BLE001 - a game registered here only, no processes: think here
            if started is not None:
                _end(*started)
            self.close()
            self.broken = True
            return False
        self.sent = []
        return True

    def choose(self, game: Game, decision: Decision) -> Code:
        if not self._start():
            return self._here(game, decision)
        conn, process, event = self.conn, self.process, self.event  # close() may come from another thread
        played = [(s.kind, s.value) for s in self.steps()]
        reset = played[:len(self.sent)] != self.sent  # a takeback or a rewrite since
        new = played if reset else played[len(self.sent):]
        try:
            assert conn is not None and process is not None
            event.clear()
            conn.send(("think", reset, new))
            while not conn.poll(POLL):
                if self.stop():
                    event.set()
                if not process.is_alive():
                    raise EOFError
            kind, value = conn.recv()
        except (EOFError, OSError, AssertionError):
            self.close()
            self.broken = True
            return self._here(game, decision)
        self.sent = played
        if kind != "answer":
            self.sent = []  # the mirror may be half-way: build it again next time
            raise RulesError(str(value))
        return tuple(value)

    def _here(self, game: Game, decision: Decision) -> Code:
        """The seat's AI in this process (the process could not be had)."""
        return self.local.choose(handed(self.local, game), decision)

    def close(self) -> None:
        """End the process (it is a daemon too: it never outlives this one); from any thread, at any
        time, also while the process is starting in the AI's thread."""
        with self._lock:
            self.closed = True
            conn, process = self.conn, self.process
            self.conn = self.process = None
        _end(conn, process)


def _end(conn: Connection | None, process: Any) -> None:
    """Ask a started process to quit, then make sure it has."""
    if conn is not None:
        try:
            conn.send(("quit",))
        except (OSError, BrokenPipeError):
            pass
        conn.close()
    if process is not None:
        process.join(0.5)
        if process.is_alive():
            process.kill()
            process.join(0.5)
