"""Time controls in a hosted game (issue 29): a clock per person's seat (base + increment), kept by the
host, sent to every client with its table and recorded with each decision; a seat whose clock runs
out resigns, or the AI plays on for it, as the host chose; a resumed game's clocks go on from its
record."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import socket
from pathlib import Path
from typing import Any

import pytest

from core import games as core_games
from core.match import Limit
from notation.clock import ClockRule
from notation.format import DecisionRecord
from notation.host import Host, HostSettings
from notation.reader import read_record_file
from notation.replay import Replay
from notation.verify import verify
from tests.network.support import Player, eventually, hosted, loop_errors, new_host, setup_of  # noqa: F401
from tui.cli_network import _resumed
from tui.remote_console import join_at_prompt

pytestmark = pytest.mark.usefixtures("loop_errors")  # and no test leaves an error the loop would log

BRANDUBH = setup_of("tafl", "brandubh", ["human", "human"])


def answers(n: int) -> Any:
    """A ``choose`` that answers ``n`` questions, then lets its clock run."""
    return lambda me, ask: me.rng.choice(ask["options"])[0] if len(me.answered) < n else None


def quick(name: str) -> Any:
    """The game as registered, its AI quick and the same every time (a test waits for it)."""
    return dataclasses.replace(core_games.info(name), ai_limit=Limit(depth=1))


def clocks_of(path: Path) -> list[tuple[int, int | None]]:
    """Each decision's seat and recorded clock, in order."""
    return [(r.seat, r.clock) for r in read_record_file(path).records if isinstance(r, DecisionRecord)]


async def timed_game(path: Path, rule: ClockRule, answered: int, games: Any = core_games.info) -> \
        tuple[Host, list[Player], asyncio.Task[None]]:
    """A Brandubh game on ``rule``'s clocks played to its end, seat 1 answering ``answered`` questions
    only: the host, the players and a spectator (last), and the host's task."""
    host = new_host(BRANDUBH, path, clock=rule, games=games)
    invitations, serving = await hosted(host)
    players = [Player(invitations[0], seed=1), Player(invitations[1], seed=2, choose=answers(answered)),
               Player(invitations[2], play=False)]
    for p in players:
        await p.join()
    for p in players:
        await p.until(lambda p=p: p.client.result is not None)
    return host, players, serving


async def leave(players: list[Player], serving: asyncio.Task[None]) -> None:
    """Everyone leaves, and the host with them."""
    for p in players:
        p.leave()
    await asyncio.wait_for(serving, 30)


async def test_a_seat_out_of_time_loses(tmp_path: Path) -> None:
    path = tmp_path / "timed.fief"
    host, players, serving = await timed_game(path, ClockRule(0.5, 0.1, "lose"), 3)
    assert host.driver is not None
    result = host.driver.runner.result
    assert result is not None and result.reason == "defenders resigned" and result.winners == (0,)
    for p in players:
        assert p.client.result == result
        assert p.client.clock_rule == [500, 100, "lose"]
        assert p.client.clocks is not None and [c[0] for c in p.client.clocks] == [0, 1]
        assert any("the clock of defenders ran out" in n[1] for n in p.client.notes)
    assert players[1].client.clocks is not None and players[1].client.clocks[1][1] == 0  # [seat, ms, running]
    await leave(players, serving)

    recording = read_record_file(path)
    assert verify(recording).ok and recording.result == result
    recorded = clocks_of(path)
    assert [s for s, _ in recorded] == [0, 1] * 3 + [0]
    for seat in (0, 1):
        mine = [c for s, c in recorded if s == seat]
        assert all(c is not None and 0 < c <= 500 + 100 * (i + 1) for i, c in enumerate(mine)), mine
        assert all(b is not None and a is not None and b <= a + 100 for a, b in zip(mine, mine[1:])), mine
    replay = Replay(recording)  # the viewer's steps carry them too
    assert [replay.step_record(n).clock for n in range(1, len(replay) + 1)] == [c for _, c in recorded]


async def test_a_seat_out_of_time_is_handed_to_the_ai(tmp_path: Path) -> None:
    path = tmp_path / "timed.fief"
    host, players, serving = await timed_game(path, ClockRule(0.5, 0.0, "ai"), 2, quick)
    assert host.driver is not None
    runner = host.driver.runner
    assert runner.result is not None and "resigned" not in runner.result.reason
    c = players[0].client
    assert any(n[1] == "the clock of defenders ran out: the AI plays on for defenders" for n in c.notes)
    assert c.clocks is not None and [s for s, _, _ in c.clocks] == [0]  # the AI plays on no clock
    late = await Player(players[2].client.invitation, play=False).join()
    await late.until(lambda: late.client.result is not None)
    assert late.client.header is not None and [s.kind for s in late.client.header.seats] == ["human", "ai"]
    await leave([*players, late], serving)

    recording = read_record_file(path)
    assert verify(recording).ok
    assert [s.kind for s in recording.header.seats] == ["human", "ai"]
    recorded = clocks_of(path)  # the AI (depth 1) wins in two moves of its own
    assert [s for s, _ in recorded] == [0, 1] * 4
    assert recorded[6][1] is not None and 0 < recorded[6][1] <= 500  # the person's, after the AI took over
    assert recorded[5][1] is None and recorded[7][1] is None  # the AI's: no clock


@pytest.mark.xfail(strict=True, reason="Runner.reseat writes the record again from its steps, which do not keep "
                                       "the clocks (notation/runner.py _rewrite)")
async def test_clocks_recorded_before_the_ai_took_over_stay(tmp_path: Path) -> None:
    path = tmp_path / "timed.fief"
    _, players, serving = await timed_game(path, ClockRule(0.5, 0.0, "ai"), 2, quick)
    await leave(players, serving)
    assert all(c is not None for _, c in clocks_of(path)[:5])


async def test_a_resumed_game_keeps_each_seats_time(tmp_path: Path) -> None:
    """A host that stops mid-game; ``fiefdom host --resume`` (its ``_resumed``) gives each seat the time
    its last decision recorded, and the same invitations finish the game, clocks recorded on."""
    path = tmp_path / "timed.fief"
    host = new_host(BRANDUBH, path, clock=ClockRule(30, 0.0, "lose"))
    invitations, serving = await hosted(host)
    players = [Player(invitations[0], seed=1, choose=answers(4)), Player(invitations[1], seed=2)]
    for p in players:
        await p.join()
    p0 = players[0]
    await p0.until(lambda: len(p0.answered) == 4 and p0.client.ask is not None
                   and p0.client.ask["n"] != p0.answered[-1][0])  # its fifth question
    await host.stop()
    await asyncio.wait_for(serving, 30)
    for p in players:
        await p.gone()
    before = clocks_of(path)
    assert len(before) == 8 and all(c is not None and c < 30_000 for _, c in before)

    again: Host = _resumed(path, "127.0.0.1", 0, None, None, [], {})
    assert (again.settings.port, again.settings.tokens) == (host.settings.port, host.settings.tokens)
    assert again.clocks is not None
    last = {seat: clock for seat, clock in before}
    assert again.clocks.left == {seat: ms / 1000 for seat, ms in last.items()}
    resumed_invitations, serving = await hosted(again)
    assert resumed_invitations == invitations
    players = [Player(invitations[0], seed=3), Player(invitations[1], seed=4)]
    for p in players:
        await p.join()
    await players[0].until(lambda: players[0].client.clocks is not None)
    c = players[0].client
    assert c.clocks is not None and c.clocks[1][1] == last[1]  # the waiting seat's time, from the record
    assert c.clocks[0][1] <= last[0]
    for p in players:
        await p.until(lambda p=p: p.client.result is not None)
        p.leave()
    await asyncio.wait_for(serving, 30)
    recording = read_record_file(path)
    assert verify(recording).ok and recording.result is not None
    after = clocks_of(path)
    assert after[:8] == before and len(after) > 8 and all(c is not None and c <= last[s] for s, c in after[8:])


async def test_the_prompt_shows_every_clock(tmp_path: Path) -> None:
    """``fiefdom join --prompt`` (its RemoteConsole, in a thread as at a terminal): its own seat's clock
    in its prompt, the other seat's when it is to play."""
    host = new_host(BRANDUBH, tmp_path / "timed.fief", clock=ClockRule(90, 2, "lose"))
    invitations, serving = await hosted(host)
    prompts: list[str] = []
    lines: list[str] = []
    waits: list[str] = []  # the other seat answers once the prompt has said it is to play
    other = await Player(invitations[1], seed=2, choose=lambda me, ask: (
        me.rng.choice(ask["options"])[0] if len(me.answered) < len(waits) else None)).join()
    loop = asyncio.get_running_loop()

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 3:
            raise EOFError
        return "1"

    def write(line: str) -> None:
        lines.append(line)
        if "to play" in line:
            waits.append(line)
            loop.call_soon_threadsafe(other.answer)

    closing = await asyncio.to_thread(join_at_prompt, invitations[0], core_games.info, read, write)
    assert closing.startswith("left the table: the input ended")
    shown = [re.fullmatch(r"attackers \[1:(\d\d)\]> ", p) for p in prompts]  # 90 s, 2 more a decision
    assert all(m and 28 + 2 * i <= int(m.group(1)) <= 30 + 2 * i for i, m in enumerate(shown)), prompts
    shown = [re.fullmatch(r"  \(defenders to play, 1:(\d\d) left\)", line) for line in waits]
    assert len(shown) == 3 and all(m and 28 + 2 * i <= int(m.group(1)) <= 30 + 2 * i for i, m in enumerate(shown)), waits
    other.leave()
    await host.stop()
    await asyncio.wait_for(serving, 30)


async def test_a_resumed_host_keeps_the_port_it_was_given(tmp_path: Path) -> None:
    """``--port`` on ``--resume`` is where the next resume listens too (the settings beside the record)."""
    path = tmp_path / "timed.fief"
    host = new_host(BRANDUBH, path, clock=ClockRule(30, 0.0, "lose"))
    invitations, serving = await hosted(host)
    players = [await Player(inv, seed=i, choose=answers(1)).join() for i, inv in enumerate(invitations[:2])]
    await eventually(lambda: clocks_of(path) if path.exists() else None)
    await host.stop()
    await asyncio.wait_for(serving, 30)
    for p in players:
        await p.gone()
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    again: Host = _resumed(path, "127.0.0.1", port, None, None, [], {})
    assert [inv.port for inv in await again.open()] == [port] * 3
    assert HostSettings.load(path).port == port and HostSettings.load(path).tokens == host.settings.tokens
    await again.stop()
