"""A host on loopback, timed: how soon every client has a decision, and how many a host holds.

    python scripts/bench_network.py latency [--spectators 20] [--games 1] [--rounds 5] [--seed 1]
    python scripts/bench_network.py throughput [--games 50] [--rounds 1] [--seed 1]

The host (notation/host.py, one :class:`~notation.host.Host` a game, all in one asyncio loop) runs
in a process of its own, started by this script (``bench_network.py host ...``), so the CPU seconds
and peak memory it prints are the host's alone; the clients (:class:`~notation.client.SeatClient`,
all in one asyncio loop) run in this process. Every game is Take the Kingdom multi-4 with four
human seats, each played by a scripted client that answers each new question at once with a seeded
random option; the deal is made by commit-reveal as in a real game.

``latency``: a game with 4 players and ``--spectators`` spectators. For each decision, the time from
the moment its client sent it to the moment every client (players and spectators) has a table whose
log holds that step (its step number); printed: the count, median, 95th percentile and worst, of
each round (a game with a host process of its own, the seed one more each round) and of them all.
Every client is in this one process, so a table reaches them one after another: the figure is the
time until the last of them has taken it in (decoded, its view rebuilt), as a client on a machine of
its own would not wait for.

``throughput``: ``--games`` games at once, 4 clients each, played to their end. Printed: decisions
(the people's, as the records hold them) a wall-clock second over the whole run and the least and
most of its 5-second windows (the first and last window left out), the host's CPU seconds (user +
system, from its first game opened to its last ended) and peak RSS, and this process's CPU seconds
(the clients: when they are near a core's worth, they, not the host, set the pace). The latency
figures of those games are printed too.

The machine is shared: run it twice and say the load (``uptime``) with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.client import HostGone, SeatClient  # noqa: E402
from notation.protocol import Invitation  # noqa: E402

GAME, VARIANT, PEOPLE = "kingdom", "multi-4", 4
WINDOW = 5.0  # seconds: the windows the decisions-per-second figure is held over
DEADLINE = 1800.0  # seconds: a run that takes longer is stopped


def peak_rss_kib() -> int:
    """This process's peak resident memory in KiB: VmHWM, which starts again at exec (``ru_maxrss``
    keeps the parent's peak from before the fork, here the clients' process's)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# -- the host process -------------------------------------------------------------------------------

async def host_main(games: int, seed: int, folder: Path) -> None:
    """``games`` hosts in this process: their invitations on a line of JSON, then (once every game is
    over and its clients gone) the process's CPU seconds, peak RSS and the records' decisions."""
    from core import games as core_games
    from notation.host import Host, HostSettings
    from notation.runner import GameSetup, Runner, SeatPlan

    def begin(path: Path, setup: GameSetup) -> Runner:
        return Runner.start(setup, path, replace=True)

    def say(text: str) -> None:  # what the host says, on standard error with BENCH_SAY=1
        if os.environ.get("BENCH_SAY"):
            print(text, file=sys.stderr)

    gi = core_games.info(GAME)
    kinds = ["human"] * PEOPLE
    hosts: list[Host] = []
    for g in range(games):
        setup = GameSetup(GAME, VARIANT, tuple(SeatPlan(k) for k in kinds), seed=seed + g,
                          setup=gi.setup_for(VARIANT, kinds))
        header, _ = setup.start(gi, core_games.info)
        path = folder / f"game-{g}.fief"
        hosts.append(Host(HostSettings.new(list(range(PEOPLE)), speed=0), header, functools.partial(begin, path),
                          setup=setup, say=say))
    rss_before = peak_rss_kib()
    cpu0, wall0 = time.process_time(), time.monotonic()
    invitations = [[[i.host, i.port, i.seat, i.token] for i in await h.open()] for h in hosts]
    print(json.dumps({"invitations": invitations}), flush=True)
    await asyncio.wait_for(asyncio.gather(*(h.serve() for h in hosts)), DEADLINE)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    decisions = steps = 0
    for h in hosts:
        assert h.driver is not None and h.driver.runner.result is not None, "a game did not end"
        history = h.driver.runner.history
        steps += len(history)
        decisions += sum(1 for s in history if s.kind == "decision")
    print(json.dumps({"cpu": cpu, "wall": wall, "rss_kib": peak_rss_kib(),
                      "rss_before_kib": rss_before, "decisions": decisions, "steps": steps}), flush=True)


# -- the clients ------------------------------------------------------------------------------------

class Table:
    """One game's clients and the decisions sent that not every one of them has yet."""

    def __init__(self) -> None:
        self.clients: list[Client] = []
        self.pending: dict[int, float] = {}  # step -> when its decision was sent
        self.ended = asyncio.Event()


class Client:
    """A seat's client (answering each new question at once, a seeded random option) or a spectator's."""

    def __init__(self, bench: "Bench", table: Table, invitation: Invitation, rng: random.Random | None) -> None:
        self.bench, self.table, self.rng = bench, table, rng
        self.client = SeatClient(invitation, on_update=self.update)
        self.last_step = -1  # the highest step in this client's log
        self.answered: Any = None
        table.clients.append(self)

    def update(self, kind: str) -> None:
        if kind != "table":
            return
        c = self.client
        now = time.monotonic()
        if c.log:
            self.last_step = c.log[-1][0]
        self.bench.arrived(self.table, now)
        if c.result is not None:
            if all(x.client.result is not None for x in self.table.clients):
                self.table.ended.set()
            return
        if self.rng is not None and c.ask is not None and c.ask["n"] != self.answered:
            self.answered = c.ask["n"]
            # n is [generation, steps played]: the step this decision makes is numbered one more
            self.table.pending[int(c.ask["n"][1]) + 1] = time.monotonic()
            c.decide(self.rng.choice(c.ask["options"])[0])

    async def run(self) -> None:
        try:
            await self.client.run()
        except HostGone:
            pass


class Bench:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.decided_at: list[float] = []

    def arrived(self, table: Table, now: float) -> None:
        """A table came: each decision every client of the game now has is timed."""
        if not table.pending:
            return
        everyone = min(x.last_step for x in table.clients)
        for step in [s for s in table.pending if s <= everyone]:
            self.latencies.append(now - table.pending.pop(step))
            self.decided_at.append(now)


async def play(games: int, spectators: int, seed: int) -> dict[str, Any]:
    """Start the host process, play every game to its end, and gather both sides' figures."""
    folder = Path(tempfile.mkdtemp(prefix="bench-network-"))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "host", "--games", str(games), "--seed", str(seed), "--dir", str(folder),
        stdout=asyncio.subprocess.PIPE, limit=1 << 24)
    assert proc.stdout is not None
    line = await proc.stdout.readline()
    if not line:
        raise SystemExit("the host process ended before it served")
    bench = Bench()
    tables: list[Table] = []
    clients: list[Client] = []
    for g, invs in enumerate(json.loads(line)["invitations"]):
        table = Table()
        tables.append(table)
        for host, port, seat, token in invs:
            inv = Invitation(host, port, seat, token)
            if seat is None:
                clients += [Client(bench, table, inv, None) for _ in range(spectators)]
            else:
                clients.append(Client(bench, table, inv, random.Random(seed * 1000 + g * 10 + seat)))
    cpu0 = time.process_time()
    # The spectators first: one who joins while the people commit has the host ask them to commit
    # again, and the deal fails (a client commits anew; the host keeps its first commitment).
    runs = []
    for c in sorted(clients, key=lambda c: c.rng is not None):
        await c.client.connect()
        runs.append(asyncio.get_running_loop().create_task(c.run()))
    start = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(t.ended.wait() for t in tables)), DEADLINE)
    wall = time.monotonic() - start
    for c in clients:
        c.client.close()
    await asyncio.gather(*runs)
    client_cpu = time.process_time() - cpu0
    out, _ = await proc.communicate()
    host = json.loads(out.decode().strip().splitlines()[-1])
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    return {"bench": bench, "start": start, "wall": wall, "client_cpu": client_cpu, "host": host,
            "clients": len(clients)}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def latency_words(latencies: list[float]) -> str:
    ms = [x * 1000 for x in latencies]
    return (f"decisions timed: {len(ms)}; sent to every client's log: median {statistics.median(ms):.1f} ms, "
          f"95th percentile {percentile(ms, 0.95):.1f} ms, worst {max(ms):.1f} ms")


def windows(times: list[float], start: float) -> list[float]:
    """Decisions a second in each whole WINDOW, the first and the last left out."""
    if not times:
        return []
    counts = [0] * (int((max(times) - start) // WINDOW) + 1)
    for t in times:
        counts[int((t - start) // WINDOW)] += 1
    return [c / WINDOW for c in counts[1:-1]]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["latency", "throughput", "host"])
    p.add_argument("--games", type=int)
    p.add_argument("--spectators", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, help="games (or sets of games) played one after another")
    p.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.what == "host":
        asyncio.run(host_main(a.games or 1, a.seed, a.dir or Path(tempfile.mkdtemp(prefix="bench-network-"))))
        return
    games = a.games or (1 if a.what == "latency" else 50)
    spectators = a.spectators if a.spectators is not None else (20 if a.what == "latency" else 0)
    print(f"{GAME} {VARIANT}, {PEOPLE} scripted players and {spectators} spectators a game, {games} game(s); "
          f"load {os.getloadavg()[0]:.1f}")
    rounds = a.rounds or (5 if a.what == "latency" else 1)
    bench = Bench()
    for n in range(rounds):
        r = asyncio.run(play(games, spectators, a.seed + n * games))
        host = r["host"]
        bench.latencies += r["bench"].latencies
        rates = windows(r["bench"].decided_at, r["start"])
        print(f"round {n + 1}: {r['clients']} clients; every game ended in {r['wall']:.1f} s wall clock; "
              f"{host['decisions']} decisions, {host['decisions'] / r['wall']:.1f} a second"
              + (f" ({min(rates):.1f}-{max(rates):.1f} in its {len(rates)} inner {WINDOW:.0f}-second windows)"
                 if rates else ""))
        print(f"  host process: {host['cpu']:.2f} CPU s ({100 * host['cpu'] / host['wall']:.0f}% of a core), "
              f"peak RSS {host['rss_kib'] / 1024:.1f} MiB ({host['rss_before_kib'] / 1024:.1f} MiB before serving); "
              f"clients' process: {r['client_cpu']:.2f} CPU s")
        print("  " + latency_words(r["bench"].latencies))
    if rounds > 1:
        print(f"all {rounds} rounds: " + latency_words(bench.latencies))


if __name__ == "__main__":
    main()
