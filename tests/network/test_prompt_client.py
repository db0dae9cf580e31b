"""``fiefdom join URL --prompt`` in this process (issue 29): the prompt lists the seat's question as
the local prompt does, help says how to leave and resign, a typed word plays, ``resign`` asks once
and gives up, and the closing lines say who won, the seed and the deal's check. The host runs in a
thread with its own event loop, as it would in a process of its own."""

from __future__ import annotations

import asyncio
import queue
import threading
from pathlib import Path
from typing import Any

from core import games as core_games
from tests.network.support import Player, new_host, setup_of
from tui.remote_console import RemoteConsole

WAIT = 60.0


def host_in_a_thread(path: Path) -> tuple[Any, queue.Queue[Any], threading.Thread]:
    """A Brandubh host with two person seats, the defenders played by a scripted client (a seeded
    random move); the invitations come on the queue, then the host's end."""
    out: queue.Queue[Any] = queue.Queue()
    box: dict[str, Any] = {}

    async def main() -> None:
        host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), path)
        invitations = await host.open()
        box["host"] = host
        out.put(invitations)
        serving = asyncio.get_running_loop().create_task(host.serve())
        defenders = await Player(invitations[1], seed=1).join()
        await defenders.until(lambda: defenders.client.result is not None)
        defenders.leave()
        await asyncio.wait_for(serving, WAIT)
        out.put("over")

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    return box, out, thread


def test_the_prompt_plays_a_word_then_resigns(tmp_path: Path) -> None:
    box, out, thread = host_in_a_thread(tmp_path / "g.fief")
    invitations = out.get(timeout=WAIT)
    said: list[str] = []
    answers = iter(["help", "d1-e1", "resign", "n", "resign", "y"])
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    console = RemoteConsole(invitations[0], core_games.info, read, said.append)
    closing = console.play()
    text = "\n".join(said)
    assert "attackers: attackers to move" in text
    assert "resign gives up" in text  # help
    assert "Attackers: d1-e1" in text  # the typed move, played and logged
    assert "nothing played" in text  # the first resign, answered no
    assert asked[-1].strip().endswith("(y/n)")
    assert closing.splitlines() == ["defenders wins: attackers resigned [resign]",
                                    "the deal checked: the seed follows from every secret, each committed "
                                    "before any was shown"]
    assert out.get(timeout=WAIT) == "over"
    thread.join(WAIT)
    assert box["host"].driver.runner.result.reason == "attackers resigned"
