"""The deal's rounds (issue 29): a spectator coming in while the people commit changes nothing; a
person who leaves or comes back on a new connection starts a new round, and an answer to an older
round is ignored, so the deal always completes and every client's check holds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from notation.deal import commitment, new_secret, seat_label
from tests.network.support import Player, Raw, eventually, hosted, loop_errors, new_host, setup_of  # noqa: F401

pytestmark = pytest.mark.usefixtures("loop_errors")


async def test_a_spectator_joining_mid_deal_changes_nothing(tmp_path: Path) -> None:
    host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), tmp_path / "g.fief")
    invitations, serving = await hosted(host)
    first = await Player(invitations[0]).join()
    second = await Raw.open(invitations[1])  # commits only when the test says
    ask = await second.until("deal")
    assert ask is not None and ask["phase"] == "commit" and ask["round"] == 0
    watcher = await Player(invitations[2], play=False).join()
    await eventually(lambda: len(host.watchers) == 1)
    secret = new_secret()
    second.send({"t": "commit", "commit": commitment(secret, seat_label(1)), "round": 0})
    reveal = await second.until("deal")
    assert reveal is not None and reveal["phase"] == "reveal" and reveal["round"] == 0
    assert [m for m in first.client.problems] == []
    second.send({"t": "reveal", "secret": secret, "round": 0})
    await eventually(lambda: host.driver is not None)
    assert "deal" not in [m["t"] for m in second.received[second.received.index(reveal) + 1:]]
    second.close()
    first.leave()
    watcher.leave()
    await host.stop()
    await asyncio.wait_for(serving, 30)


async def test_a_new_connection_mid_deal_starts_a_new_round_and_old_answers_are_ignored(tmp_path: Path) -> None:
    host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), tmp_path / "g.fief")
    invitations, serving = await hosted(host)
    first = await Player(invitations[0]).join()
    old = await Raw.open(invitations[1])
    ask = await old.until("deal")
    assert ask is not None and ask["round"] == 0
    late = {"t": "commit", "commit": commitment(new_secret(), seat_label(1)), "round": 0}
    second = await Player(invitations[1], seed=1).join()  # the same seat again: the old connection goes
    await second.until(lambda: second.client.tables > 0)
    assert host.round == 1
    old.send(late)  # an answer to round 0, arriving after round 1 began: ignored (it is closed anyway)
    for p in (first, second):
        await p.until(lambda p=p: p.client.result is not None)
        assert "the deal checked" in p.client.deal_check
        p.leave()
    await asyncio.wait_for(serving, 30)
