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

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
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


def _never() -> bool:
    return False


def _here(fn: Callable[[T], R], items: Iterable[T], stop: Callable[[], bool]) -> Iterator[R]:
    for item in items:
        if stop():
            return
        yield fn(item)


def _in_processes(fn: Callable[[T], R], items: Iterable[T], jobs: int, ahead: int,
                  stop: Callable[[], bool]) -> Iterator[R]:
    from notation.ai_process import process_context, quiet_child, real_stderr

    with real_stderr():
        pool = process_context().Pool(jobs, initializer=quiet_child)
    # A pool worker never ends on its own; one that does was killed (or ran out of memory), and the
    # task it held would never come back: multiprocessing replaces the process, not the task. Which
    # task it held is not known, so the run stops at the first result not back once one is gone.
    workers = list(getattr(pool, "_pool", ()))  # multiprocessing's own list of them

    def pause(result: Any) -> None:
        result.wait(POLL)
        if not result.ready() and any(worker.exitcode is not None for worker in workers):
            raise WorkerLost("a worker process ended in the middle of the run (killed, or out of memory); "
                             "the run stops here")

    try:
        yield from _windowed(lambda item: pool.apply_async(fn, (item,)), items, ahead, stop, deque(),
                             done=lambda result: result.ready(), pause=pause, take=lambda result: result.get())
        pool.close()
    finally:
        pool.terminate()  # at once: a worker deep in a long game is not waited for
        pool.join()


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
