"""What goes wrong at a hosted table (issue 29): a client that drops comes back with its token to the
question it was asked and its whole log; a second connection for a seat replaces the first; a wrong
token is refused, in one comparison of the whole token whatever was wrong; a client that sends
garbage, an illegal option, another seat's decision, a stale one, an oversized frame, a flood, or
nothing, gets an error and is dropped when it goes on, and the others finish the game. Nothing a
client sends changes the record but a legal decision of its own seat, and the host never fails."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from notation import host as host_module
from notation.format import DecisionRecord
from notation.host import STRIKES, Host
from notation.protocol import FrameLimits, Invitation, ProtocolError, pack
from notation.reader import read_record_file
from notation.verify import verify
from tests.network.support import Player, Raw, eventually, hosted, loop_errors, new_host, setup_of  # noqa: F401

BRANDUBH = ("tafl", "brandubh", ["human", "human"])


pytestmark = pytest.mark.usefixtures("loop_errors")  # and no test leaves an error the loop would log


class Gate:
    """A ``choose`` that holds its seat's ``at``-th question unanswered until :meth:`open`."""

    def __init__(self, at: int) -> None:
        self.at, self.held, self.open_ = at, False, False

    def __call__(self, me: Player, ask: dict[str, Any]) -> Any:
        if len(me.answered) == self.at and not self.open_:
            self.held = True
            return None
        return me.rng.choice(ask["options"])[0]

    def open(self, player: Player) -> None:
        self.open_ = True
        player.answer()


class Table:
    """A Brandubh game hosted here for two players; seat 0's player holds its question after ``at``."""

    def __init__(self, host: Host, invitations: list[Invitation], serving: asyncio.Task[None], path: Path,
                 said: list[str], at: int) -> None:
        self.host, self.invitations, self.serving, self.path, self.said = host, invitations, serving, path, said
        self.gate = Gate(at)
        self.players = [Player(invitations[0], seed=1, choose=self.gate), Player(invitations[1], seed=2)]
        self.gone: list[Player] = []  # players whose connection was replaced or dropped

    @classmethod
    async def open(cls, tmp_path: Path, at: int = 3) -> "Table":
        path, said = tmp_path / "hosted.fief", []
        host = new_host(setup_of(*BRANDUBH), path, said=said)
        invitations, serving = await hosted(host)
        return cls(host, invitations, serving, path, said, at)

    async def to_the_gate(self) -> dict[str, Any]:
        """Both players joined and playing, up to seat 0's held question (returned)."""
        for p in self.players:
            await p.join()
        p0 = self.players[0]
        await p0.until(lambda: self.gate.held and p0.client.ask is not None)
        assert p0.client.ask is not None
        return p0.client.ask

    def rejoin(self, seat: int, **kwargs: Any) -> Player:
        """``seat``'s person comes back with its invitation on a new connection."""
        self.gone.append(self.players[seat])
        self.players[seat] = Player(self.invitations[seat], seed=10 + seat, **kwargs)
        return self.players[seat]

    async def finish(self) -> None:
        """The gate opened, the game played to its end; the record verifies and holds exactly the
        players' own decisions; the host ended by itself and raised nothing."""
        self.gate.open(self.players[0])
        for p in self.players:
            await p.until(lambda p=p: p.client.result is not None)
        assert self.host.driver is not None
        result = self.host.driver.runner.result
        assert result is not None and all(p.client.result == result for p in self.players)
        for p in self.players:
            p.leave()
        await asyncio.wait_for(self.serving, 30)
        assert self.serving.exception() is None
        assert not [line for line in self.said if "cannot" in line], self.said
        recording = read_record_file(self.path)
        assert verify(recording).ok
        assert recording.result == result
        steps = [r for r in recording.records if isinstance(r, DecisionRecord)]
        made = {n[1]: (p.client.seat, tuple(code)) for p in [*self.gone, *self.players] for n, code in p.answered}
        assert [(r.seat, tuple(r.code)) for r in steps] == [made[i] for i in range(len(steps))]


def decide(ask: list[int], code: Any) -> dict[str, Any]:
    return {"t": "decide", "ask": ask, "code": code}


# -- a client drops and comes back ---------------------------------------------------------------


@pytest.mark.parametrize("page", [FrameLimits.LOG_PAGE, 2])
async def test_a_client_that_drops_rejoins_at_its_question_with_its_log(
        page: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the log in one table, or in pages of two entries."""
    monkeypatch.setattr(FrameLimits, "LOG_PAGE", page)
    table = await Table.open(tmp_path)
    ask = await table.to_the_gate()
    before = list(table.players[0].client.log)
    assert len(before) >= 6
    table.players[0].leave()
    await eventually(lambda: 0 not in table.host.peers)
    back = table.rejoin(0, play=False)
    await back.join()
    await back.until(lambda: back.client.ask is not None and len(back.client.log) == len(before))
    assert back.client.tables >= len(before) // page
    assert back.client.log == before
    assert back.client.ask == ask
    assert back.client.header is not None and back.client.seat == 0
    back.play = True
    await table.finish()


async def test_a_second_connection_for_a_seat_replaces_the_first(tmp_path: Path) -> None:
    table = await Table.open(tmp_path)
    ask = await table.to_the_gate()
    first = table.players[0]
    second = table.rejoin(0, play=False)
    await second.join()
    assert await first.gone() == "the seat joined again from another connection"
    await second.until(lambda: second.client.ask is not None)
    assert second.client.ask == ask and second.client.log == first.client.log
    assert table.host.peers[0].reader is not None and len(table.host.peers) == 2
    second.play = True
    await table.finish()


# -- invitations ----------------------------------------------------------------------------------


WRONG = {
    "a wrong token": lambda invs: {"seat": 0, "token": "x" * len(invs[0].token)},
    "another seat's token": lambda invs: {"seat": 0, "token": invs[1].token},
    "a seat with no person": lambda invs: {"seat": 5, "token": invs[0].token},
    "the spectators' token for a seat": lambda invs: {"seat": 1, "token": invs[-1].token},
    "a seat's token to watch": lambda invs: {"seat": None, "token": invs[0].token},
    "an empty token": lambda invs: {"seat": 0, "token": ""},
}


async def test_a_wrong_invitation_is_refused_with_one_comparison_and_no_effect(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    digest = host_module.hmac.compare_digest

    def comparing(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return digest(a, b)

    monkeypatch.setattr(host_module.hmac, "compare_digest", comparing)
    table = await Table.open(tmp_path)
    invitations = table.invitations
    await table.players[1].join()
    await eventually(lambda: list(table.host.peers) == [1])
    compared.clear()
    for why, hello in WRONG.items():
        raw = await Raw.open(invitations[0], hello=False)
        raw.send({"t": "hello", **hello(invitations)})
        assert await raw.closed() == [{"v": 1, "t": "bye", "text": "this invitation is not valid for this game"}], why
        # One constant-time comparison of what was sent with a token of the same kind, whatever was wrong.
        assert len(compared) == 1 and compared[0][0] == hello(invitations)["token"].encode(), why
        assert len(compared[0][1]) == len(invitations[0].token), why
        compared.clear()
        assert list(table.host.peers) == [1] and not table.host.watchers and table.host.driver is None, why
    assert table.players[1].client.here == [1]
    await table.to_the_gate()
    await table.finish()


HOSTILE_URLS = [
    "", "fief://", "http://127.0.0.1:5/1?t=abc", "fief://127.0.0.1/1?t=abc", "fief://127.0.0.1:0/1?t=abc",
    "fief://127.0.0.1:99999/1?t=abc", "fief://127.0.0.1:port/1?t=abc", "fief://127.0.0.1:5/1",
    "fief://127.0.0.1:5/1?t=", "fief://127.0.0.1:5/1?t=a&t=b", "fief://127.0.0.1:5/0?t=abc",
    "fief://127.0.0.1:5/17?t=abc", "fief://127.0.0.1:5/0016000?t=abc", "fief://127.0.0.1:5/1" + "0" * 5000 + "?t=a",
    "fief://127.0.0.1:5/-1?t=abc", "fief://127.0.0.1:5/\u0663?t=abc", "fief://127.0.0.1:5/watch/1?t=abc",
    "fief://127.0.0.1:5/?t=abc", "fief://h\x1b:5/1?t=abc", "fief://a b:5/1?t=abc", "fief://[::1:5/1?t=abc",
    "fief://127.0.0.1:5/1?t=%1b%5b2J", "fief://127.0.0.1:5/1?t=" + "a" * 100, "fief://127.0.0.1:5/1?t=a b",
    "fief://" + "h" * 300 + ":5/1?t=abc", "\x00" * 100, "fief://127.0.0.1:5/1?t=\udcff",
]


@pytest.mark.parametrize("url", HOSTILE_URLS, ids=range(len(HOSTILE_URLS)))
def test_a_hostile_invitation_is_one_line(url: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        Invitation.parse(url)
    text = str(caught.value)
    assert text and "\n" not in text and len(text) < 200 and text.isprintable(), text


def test_invitations_read_back() -> None:
    for url in ["fief://127.0.0.1:5/1?t=abc_-9", "fief://[::1]:65535/16?t=abc", " fief://localhost:80/watch?t=z\n"]:
        inv = Invitation.parse(url)
        assert Invitation.parse(inv.url()) == inv
    assert Invitation.parse("fief://[::1]:7/2?t=tok") == Invitation("::1", 7, 1, "tok")


# -- a bad client: the others finish the game ------------------------------------------------------

BAD_FRAMES = {  # a frame's body, each broken in its own way
    "garbage": b"\xc1\xc1 not msgpack at all",
    "truncated msgpack": msgpack.packb({"v": 1, "t": "resign"})[:-3],
    "not a map": msgpack.packb([1, "resign"]),
    "a wrong version": msgpack.packb({"v": 2, "t": "resign"}),
    "no version": msgpack.packb({"t": "resign"}),
    "an unknown type": msgpack.packb({"v": 1, "t": "teleport"}),
    "a type that is not text": msgpack.packb({"v": 1, "t": 7}),
    "an extra field": msgpack.packb({"v": 1, "t": "resign", "also": 1}),
    "a bad field": msgpack.packb({"v": 1, "t": "decide", "ask": "now", "code": [1]}),
    "an ext type": msgpack.packb({"v": 1, "t": msgpack.ExtType(5, b"x")}),
    "a repeated key": b"\x83\xa1v\x01\xa1t\xa6resign\xa1v\x01",
    "a bomb of a map": b"\xdf\xff\xff\xff\xff",
    "an empty frame": b"",
    "two messages in one frame": msgpack.packb({"v": 1, "t": "resign"}) * 2,
    "arrays nested deep": b"\x91" * 16000 + b"\x01",
    "a hello again": msgpack.packb({"v": 1, "t": "hello", "seat": 0, "token": "x"}),
    "a commitment mid-game": msgpack.packb({"v": 1, "t": "commit", "commit": b"\0" * 32}),
}


@pytest.mark.parametrize("bad", BAD_FRAMES, ids=list(BAD_FRAMES))
async def test_a_bad_message_is_an_error_and_a_strike(bad: str, tmp_path: Path) -> None:
    """A spectator's connection sends it: an error each time, dropped at the STRIKES-th; seat 1's own
    client sends it too: an error, and its game goes on."""
    table = await Table.open(tmp_path)
    await table.to_the_gate()
    mallory = await Raw.open(table.invitations[-1])
    assert (await mallory.until("table")) is not None
    for strike in range(STRIKES):
        mallory.frame(BAD_FRAMES[bad])
        error = await mallory.until("error")
        assert error is not None and error["text"], (strike, mallory.received[-1:])
    assert await mallory.until("bye") == {"v": 1, "t": "bye", "text": "too many bad messages"}
    assert await mallory.next() is None and not table.host.watchers
    p1 = table.players[1]
    problems = len(p1.client.problems)
    p1.client.writer.write(len(BAD_FRAMES[bad]).to_bytes(4, "big") + BAD_FRAMES[bad])  # type: ignore[union-attr]
    await p1.until(lambda: len(p1.client.problems) > problems)
    await table.finish()


async def test_an_oversized_frame_is_dropped_at_once(tmp_path: Path) -> None:
    table = await Table.open(tmp_path)
    await table.to_the_gate()
    mallory = await Raw.open(table.invitations[-1])
    assert (await mallory.until("table")) is not None
    mallory.frame(b"", size=FrameLimits.FROM_CLIENT + 1)  # and nothing of it after: the host does not wait for it
    bye = await mallory.until("bye")
    assert bye is not None and bye["text"] == f"a frame of {FrameLimits.FROM_CLIENT + 1} bytes; at most 16384 are read"
    assert "error" not in mallory.kinds() and await mallory.next() is None
    # Before its hello too.
    early = await Raw.open(table.invitations[0], hello=False)
    early.frame(b"", size=2**32 - 1)
    assert [m["t"] for m in await early.closed()] == ["bye"]
    assert 0 in table.host.peers
    await table.finish()


async def test_a_flood_is_dropped_after_its_strikes(tmp_path: Path) -> None:
    table = await Table.open(tmp_path)
    await table.to_the_gate()
    mallory = await Raw.open(table.invitations[-1])
    mallory.writer.write(b"".join(pack({"t": "resign"}) for _ in range(1000)))
    received = await mallory.closed()
    assert received[-1] == {"v": 1, "t": "bye", "text": "too many bad messages"}
    assert len([m for m in received if m["t"] == "error"]) == STRIKES
    await table.finish()


async def test_a_flood_from_a_seat_is_slowed_then_dropped_and_the_seat_comes_back(tmp_path: Path) -> None:
    """The asked seat sends a thousand answers to a question long gone: refused (no strike) until its
    bucket is empty, then errors, then dropped; its person joins again and the game goes on."""
    table = await Table.open(tmp_path)
    ask = await table.to_the_gate()
    p0 = table.players[0]
    old = p0.answered[0]
    assert p0.client.writer is not None
    p0.client.writer.write(b"".join(pack(decide(old[0], list(old[1]))) for _ in range(1000)))
    assert await p0.gone() == "too many bad messages"
    said = p0.client.problems
    assert said[0] == "that question has passed"
    assert said[-STRIKES:] == ["too many messages: slow down"] * STRIKES
    # The bucket's burst, less the deal's commit and reveal, and what trickled in meanwhile.
    assert host_module.BURST - 2 <= len(said) - STRIKES <= host_module.BURST + 5
    await eventually(lambda: 0 not in table.host.peers)
    back = table.rejoin(0, play=False)
    await back.join()
    await back.until(lambda: back.client.ask is not None)
    assert back.client.ask == ask
    back.play = True
    await table.finish()


SEAT_CASES: dict[str, Callable[[Table, dict[str, Any]], tuple[int, dict[str, Any], str]]] = {
    # (who sends it, what, the host's answer)
    "an illegal option": lambda t, ask: (0, decide(ask["n"], [999, "z9"]), "not one of the options"),
    "an option of another question": lambda t, ask: (
        0, decide(ask["n"], list(t.players[1].answered[-1][1])), "not one of the options"),
    "another seat's question": lambda t, ask: (
        1, decide(ask["n"], ask["options"][0][0]), "it is not this seat's turn to decide"),
    "a stale question": lambda t, ask: (0, decide(t.players[0].answered[-1][0], ask["options"][0][0]),
                                        "that question has passed"),
    "a question yet to come": lambda t, ask: (0, decide([ask["n"][0], ask["n"][1] + 2], ask["options"][0][0]),
                                              "no such question has been asked"),
}


@pytest.mark.parametrize("case", SEAT_CASES, ids=list(SEAT_CASES))
async def test_a_decision_that_is_not_the_seats_is_refused(case: str, tmp_path: Path) -> None:
    """One is an error (or a refusal) and the game goes on; sent on and on, the seat is dropped (a
    refusal costs no strike, but a flood of them runs out of the bucket) and its person comes back."""
    table = await Table.open(tmp_path)
    ask = await table.to_the_gate()
    seat, message, answer = SEAT_CASES[case](table, ask)
    sender = table.players[seat]
    assert sender.client.writer is not None
    steps = len(sender.client.log)
    sender.client.writer.write(pack(message))
    await sender.until(lambda: answer in sender.client.problems)
    assert table.host.driver is not None and table.host.driver.question() == tuple(ask["n"])
    sender.client.writer.write(pack(message) * (int(host_module.BURST) + STRIKES + 5))
    await sender.gone()
    assert len(sender.client.log) == steps
    back = table.rejoin(seat)
    await back.join()
    await table.finish()


async def test_silence_is_dropped_after_the_hello_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_module, "HELLO_SECONDS", 0.2)
    table = await Table.open(tmp_path)
    quiet = await Raw.open(table.invitations[0], hello=False)
    half = await Raw.open(table.invitations[0], hello=False)
    half.frame(b"\x82\xa1v", size=30)  # the start of a hello, and no more
    for raw in (quiet, half):
        assert await raw.closed() == [{"v": 1, "t": "bye", "text": "no hello in time"}]
    await table.to_the_gate()
    await table.finish()


async def test_a_client_that_never_reads_holds_nobody(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator that reads nothing, its pipe full (small socket buffers): the others play on, and
    the host closes at the end all the same."""
    monkeypatch.setattr(host_module, "LINGER", 0.2)
    monkeypatch.setattr(host_module, "GRACE", 0.2)  # then the host cuts what it cannot close
    table = await Table.open(tmp_path, at=10)
    inv = table.invitations[-1]
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (inv.host, inv.port))
    await asyncio.get_running_loop().sock_sendall(sock, pack({"t": "hello", "seat": None, "token": inv.token}))
    peer = await eventually(lambda: next(iter(table.host.watchers), None))
    peer.writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 2048)
    peer.writer.transport.set_write_buffer_limits(high=1024)
    await table.to_the_gate()
    assert table.host.driver is not None
    while peer.writer.transport.get_write_buffer_size() <= 1024:  # till its pipe is full and its tables wait
        table.host.driver.note("news for every table " * 10)
        await eventually(lambda: not peer.dirty.is_set())  # its sender has taken it: sent, or waiting to be
    await table.finish()
    assert peer.closed and peer.sender is not None and peer.sender.done()
    assert not table.host.connections
    sock.close()


async def test_bad_bytes_before_the_hello_get_a_bye(tmp_path: Path) -> None:
    table = await Table.open(tmp_path)
    for body in [*BAD_FRAMES.values(), msgpack.packb({"v": 1, "t": "decide", "ask": [0, 0], "code": [1]})]:
        raw = await Raw.open(table.invitations[0], hello=False)
        raw.frame(body)
        received = await raw.closed()
        assert [m["t"] for m in received] == ["bye"], body
    assert not table.host.peers
    await table.to_the_gate()
    await table.finish()



async def test_a_person_resigns_whoever_is_asked(tmp_path: Path) -> None:
    """Each person at a screen of their own may give up at any time, not only when asked (lichess's way):
    every other seat wins, and everyone hears of it."""
    table = await Table.open(tmp_path)
    ask = await table.to_the_gate()
    waiting = table.host.driver.runner.waiting if table.host.driver is not None else None
    other = 1 - waiting.seat if waiting is not None else 1
    table.players[other].client.resign()
    for p in table.players:
        await p.until(lambda p=p: p.client.result is not None)
    result = table.players[0].client.result
    assert result is not None and result.winners == (1 - other,) and "resigned" in result.reason
    assert ask is not None
