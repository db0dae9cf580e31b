"""A client facing a hostile or broken host (issue 29: every message validated, both ways): each bad
message is one ProtocolError line, and a client connected to such a host ends with one line."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from notation.client import HostGone, SeatClient
from notation.protocol import DEPTH, Invitation, ProtocolError, from_host, pack


def table(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"v": 1, "t": "table", "view": {}, "ask": None, "turn": None, "log_from": 0, "log": [],
                            "notes": [], "result": None, "clocks": None, "busy": False}
    return {**base, **fields}


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


BAD = {
    "an unknown type": {"v": 1, "t": "surprise"},
    "a bye with no text": {"v": 1, "t": "bye"},
    "a welcome with a seat of 99": {"v": 1, "t": "welcome", "seat": 99, "game": {}, "seats": [], "clock": None},
    "a deal with no round": {"v": 1, "t": "deal", "phase": "commit", "host": b"\0" * 32},
    "a deal commitment of 3 bytes": {"v": 1, "t": "deal", "phase": "commit", "host": b"abc", "round": 0},
    "a view nested too deep": table(view=nested(DEPTH + 2)),
    "a view holding a set's stand-in": table(view={"x": {"~result": "no"}}),
    "a result of strings": table(result=[["a"], "why", "rule", []]),
    "a log entry of 5 items": table(log=[[1, "decision", 0, "words", []]]),
    "an option code with an escape": table(ask={"n": [0, 1], "kind": "action", "prompt": "p",
                                                "options": [[["\x1b[2J"], "words", ""]]}),
    "an ask number below zero": table(ask={"n": [-1, 1], "kind": "action", "prompt": "p", "options": []}),
    "a negative log_from": table(log_from=-1),
    "a clock of a string": table(clocks=[[0, "ten", True]]),
    "a seed of a string": table(seed="42"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_host_message_is_one_line(case: str) -> None:
    with pytest.raises(ProtocolError) as err:
        from_host(BAD[case])
    assert "\n" not in str(err.value) and len(str(err.value)) < 300


async def test_a_client_of_a_host_sending_garbage_ends_in_one_line() -> None:
    """A "host" that answers the hello with a bad table, then with bytes that are not msgpack."""
    async def host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(pack(BAD["a view nested too deep"]))
        await writer.drain()

    server = await asyncio.start_server(host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = SeatClient(Invitation("127.0.0.1", port, 0, "token"))
    await client.connect()
    with pytest.raises(HostGone) as gone:
        await asyncio.wait_for(client.run(), 30)
    assert "nested" in str(gone.value) and "\n" not in str(gone.value)
    server.close()
    await server.wait_closed()
