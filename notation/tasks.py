"""Independent tasks, run here, on every core or on a Dask cluster, their results handed back in
the order the tasks were given.

A batch of games (``fiefdom simulate``, a tournament), a folder of records to verify: each task is
a module-level function and a picklable argument, and whatever runs them the caller sees the same
results in the same order, so what it writes and prints does not depend on ``jobs`` or on the
cluster. At most ``ahead`` tasks are out at once: a run of a million games holds a window of them,
not a million results. Ctrl-C ends the run at once: the results already handed back stay the
caller's, the rest are dropped (the processes are stopped, the cluster's tasks cancelled).

Processes on this machine come from the forkserver context the AI seats use (notation.ai_process);
a cluster is ``distributed`` (the optional extra ``fiefdom[cluster]``): its workers must have
fiefdom installed, the same version, to import the task's function.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.reduction import ForkingPickler
from typing import Any, TypeVar

from notation.catalog import app_version
from notation import pickling  # noqa: F401 - the game's data travels with the tasks

T = TypeVar("T")
R = TypeVar("R")

# How many tasks a worker has in hand or queued, at most: enough that none waits for the next.
AHEAD_PER_WORKER = 4
# At most this many items a task: a task is one message each way, and a game or a record may take a
# millisecond or less, but the last tasks should not keep one worker busy while the others idle.
MOST_CHUNK = 64
CLUSTER_GUESS = 8
POLL = 0.1  # seconds between looks at the stop flag while the workers work
# How long a cluster may take to answer when first asked (its scheduler's address given wrong,
# say), in seconds.
CONNECT_SECONDS = 10


class ClusterError(Exception):
    """The cluster cannot run the tasks (no scheduler at the address, no workers, the extra not
    installed), or the processes cannot (:class:`WorkerLost`): one line for the user."""


class WorkerLost(ClusterError):
    """A process of this machine's pool ended while the run needed it."""


def every_core() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_jobs() -> int:
    """``--jobs``' default: ``FIEFDOM_JOBS`` when it holds a whole number of at least 1, else every core."""
    given = os.environ.get("FIEFDOM_JOBS", "").strip()
    if given.isascii() and given.isdigit() and int(given) >= 1:
        return min(int(given), 256)
    return every_core()


def chunk_size(items: int, jobs: int, cluster: str | None = None) -> int:
    """Items a task: one when the work is done here or the items are few (each starts as soon as a
    worker is free), else enough tasks that every worker has several, at most MOST_CHUNK items each.
    A cluster's size is known only once connected: it is taken for CLUSTER_GUESS workers."""
    workers = CLUSTER_GUESS if cluster is not None else jobs
    if workers <= 1:
        return 1
    return max(1, min(MOST_CHUNK, items // (workers * 8)))


def run_in_order(fn: Callable[[T], R], items: Iterable[T], *, jobs: int = 1, cluster: str | None = None,
                 ahead: int | None = None, stop: Callable[[], bool] | None = None) -> Iterator[R]:
    """``fn(item)`` for each item, in the items' order: in this process (``jobs`` 1, no cluster), in
    ``jobs`` processes, or on the Dask cluster whose scheduler is at ``cluster``. A task's exception
    is raised here, when its turn comes; ClusterError when the cluster cannot be used. ``stop``,
    looked at while the workers work (a screen closing): the results end there, the rest dropped."""
    if cluster is not None:
        return _on_cluster(fn, items, cluster, ahead, stop or _never)
    if jobs <= 1:
        return _here(fn, items, stop or _never)
    return _in_processes(fn, items, jobs, ahead or jobs * AHEAD_PER_WORKER, stop or _never)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """The block runs whole (a game's file written and counted): a Ctrl-C that comes during it is
    raised as it ends. Only where Ctrl-C raises KeyboardInterrupt, in the main thread."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt


def _never() -> bool:
    return False


def _here(fn: Callable[[T], R], items: Iterable[T], stop: Callable[[], bool]) -> Iterator[R]:
    for item in items:
        if stop():
            return
        yield fn(item)


def _in_processes(fn: Callable[[T], R], items: Iterable[T], jobs: int, ahead: int,
                  stop: Callable[[], bool]) -> Iterator[R]:
    """The tasks on ``jobs`` processes of this machine, each with a pipe of its own. Not
    multiprocessing.Pool: its workers share two locked queues, and a worker stopped while it holds
    one (writing a result as Ctrl-C stops it) can hang ``terminate()`` for ever (CPython issues 78178
    and 96995, open). A pipe each shares nothing, so stopping is killing, and which tasks a worker
    held is known when it dies."""
    from multiprocessing.connection import wait

    from notation.ai_process import process_context, real_stderr

    context = process_context()
    workers: list[_Worker] = []
    try:
        with real_stderr():
            for _ in range(jobs):
                workers.append(_Worker(context))
        tasks = iter(items)
        given = taken = 0  # tasks handed out; results handed back (in order)
        results: dict[int, tuple[bool, Any]] = {}
        lost: int | None = None  # the first task whose worker died holding it
        message: bytes | None = None  # the next task, pickled, not yet given
        while True:
            while lost is None and given - taken < ahead:
                if message is None:
                    item = next(tasks, _END)
                    if item is _END:
                        break
                    message = bytes(ForkingPickler.dumps((fn, item)))
                worker = _taker(workers, len(message))
                if worker is None:
                    break
                if not worker.give(given, message):  # its process had ended, between tasks
                    lost = given
                given += 1
                message = None
            if taken in results:
                ok, value = results.pop(taken)
                taken += 1
                if not ok:
                    raise value
                yield value
                continue
            if taken == lost:
                raise WorkerLost("a worker process ended in the middle of the run (killed, or out of memory); "
                                 "the run stops here")
            if taken == given or stop():
                return
            busy = [w for w in workers if w.held]
            for ready in wait([w.conn for w in busy] + [w.process.sentinel for w in busy], POLL):
                worker = next(w for w in busy if ready in (w.conn, w.process.sentinel))
                if not worker.held:  # its pipe and its end both ready: dealt with once
                    continue
                index = worker.held[0]
                answer = worker.answer()
                if answer is None:  # the process ended with its tasks in hand (killed, out of memory)
                    first = min(worker.held)
                    lost = first if lost is None else min(lost, first)
                    worker.held.clear()  # its pipe and its end may both be in this wait's list
                    workers.remove(worker)
                    worker.stop()
                else:
                    results[index] = answer
    finally:
        for worker in workers:
            worker.stop()


_END = object()
# A worker holds the task it runs and, when the task's bytes are at most this many, the next one,
# waiting in its pipe: it starts it as soon as it has sent a result, not once the caller, busy with
# that result, sends it another. Only a small one: a send to a process that is itself sending (a
# long result, while this process is not reading) must fit in the pipe's buffer or wait for ever.
SMALL_TASK = 16_384


def _taker(workers: list["_Worker"], size: int) -> "_Worker | None":
    """The worker to give a task of ``size`` bytes: one holding none, else one holding one when the
    task is small; None when every one has its hands full."""
    for worker in workers:
        if not worker.held:
            return worker
    if size <= SMALL_TASK:
        for worker in workers:
            if len(worker.held) == 1:
                return worker
    return None


class _Worker:
    """One process of the run and the pipe to it; ``held``, the indexes of the tasks sent to it and
    not answered yet, in the order it runs them."""

    def __init__(self, context: Any) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve_tasks, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()
        self.held: list[int] = []

    def give(self, index: int, message: bytes) -> bool:
        """Send the process a task (``(fn, item)`` pickled); False when the process has ended."""
        try:
            self.conn.send_bytes(message)
        except (BrokenPipeError, ConnectionResetError):
            return False
        self.held.append(index)
        return True

    def answer(self) -> tuple[bool, Any] | None:
        """What the process sent for its first task, or None when it ended without sending it whole."""
        try:
            if self.conn.poll():
                answer: tuple[bool, Any] = self.conn.recv()
                self.held.pop(0)
                return answer
        except (EOFError, OSError):
            pass
        return None

    def stop(self) -> None:
        """At once: a worker deep in a long game is not waited for."""
        self.process.kill()
        self.process.join()
        self.conn.close()


def _serve_tasks(conn: Any) -> None:
    """A worker process: run each task sent and send back ``(True, result)`` or ``(False, error)``."""
    from notation.ai_process import quiet_child

    quiet_child()
    while True:
        try:
            fn, item = conn.recv()
        except EOFError:  # the run is over
            return
        try:
            answer: tuple[bool, Any] = (True, fn(item))
        except Exception as err:  # noqa: BLE001 - raised in the caller when its turn comes
            answer = (False, err)
        try:
            conn.send(answer)
        except Exception as err:  # noqa: BLE001 - a result or error that cannot travel says so
            conn.send((False, RuntimeError(f"a task's {'result' if answer[0] else 'error'} could not be sent "
                                           f"back: {type(err).__name__}: {err}")))


def _on_cluster(fn: Callable[[T], R], items: Iterable[T], address: str, ahead: int | None,
                stop: Callable[[], bool]) -> Iterator[R]:
    client = connect(address)
    waiting: deque[Any] = deque()
    try:
        if ahead is None:
            ahead = max(1, sum(client.nthreads().values())) * AHEAD_PER_WORKER
        yield from _windowed(lambda item: client.submit(fn, item, pure=False), items, ahead, stop, waiting,
                             done=lambda future: future.done(), pause=_pause, take=lambda future: future.result())
    finally:
        if waiting:
            client.cancel(list(waiting))
        client.close()


def _pause(future: Any) -> None:
    """Wait a little for a cluster's task."""
    try:
        future.result(timeout=POLL)
    except Exception:  # noqa: BLE001 - a time out, or the task's own error, raised when its turn comes
        pass


def _windowed(submit: Callable[[T], Any], items: Iterable[T], ahead: int, stop: Callable[[], bool],
              waiting: deque[Any], *, done: Callable[[Any], bool], pause: Callable[[Any], None],
              take: Callable[[Any], R]) -> Iterator[R]:
    """The tasks submitted as the window allows (``waiting``: those out, the caller's to cancel), their
    results taken in order; ``stop``, looked at while the next one is out, ends the results there."""

    def ready(task: Any) -> bool:
        while not done(task):
            if stop():
                return False
            pause(task)
        return True

    for item in items:
        waiting.append(submit(item))
        if len(waiting) >= ahead:
            if not ready(waiting[0]):
                return
            yield take(waiting.popleft())
    while waiting:
        if not ready(waiting[0]):
            return
        yield take(waiting.popleft())


def connect(address: str) -> Any:
    """A client of the Dask scheduler at ``address`` (``tcp://host:port`` or ``host:port``) that has at
    least one worker; ClusterError, in one line, when there is none to be had."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs the cluster extra: pip install 'fiefdom[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)  # type: ignore[no-untyped-call]  # distributed's own
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"no Dask scheduler answers at {address}: {_first_line(err)}") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        # A worker with another fiefdom could play other rules: the same bytes are promised, not hoped for.
        mine = app_version()
        for worker, theirs in sorted(client.run(app_version).items()):
            if theirs != mine:
                raise ClusterError(f"the worker at {worker} runs {theirs}, this machine {mine}: "
                                   "install the same fiefdom on every machine")
    except (OSError, TimeoutError) as err:
        client.close()  # type: ignore[no-untyped-call]  # distributed's own
        raise ClusterError(f"the Dask scheduler at {address} has no workers: {_first_line(err)}") from None
    except BaseException:
        client.close()  # type: ignore[no-untyped-call]  # distributed's own
        raise
    return client


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:200] if text else type(err).__name__
