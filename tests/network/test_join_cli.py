"""``fiefdom host`` and ``fiefdom join URL --prompt`` as real processes (issue 29): a whole Brandubh game
played through two prompts to its end (the result and the deal's check printed, the host gone by
itself, the record verified), and a host killed with ``kill -9`` mid-game, started again with
``fiefdom host --resume FILE`` on its port, the same invitations finishing the game."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from notation.format import DecisionRecord
from notation.reader import read_record_file
from notation.verify import verify

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # a generous bound on any one wait: the suite runs on two busy cores
ANSWERS = "1\n" * 3000  # option 1 to every question (a game may go round and end in a draw)
HOST = ["host", "tafl", "--variant", "brandubh", "--seat", "1=human", "--seat", "2=human", "--pace", "0"]
INVITATION = re.compile(r"^(attackers|defenders|spectators): (fief://\S+)$", re.M)


def fiefdom(args: list[str | Path], out: Path, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    """``fiefdom ARGS`` in a process of its own, its output to ``out`` (and ``out``.err)."""
    code = f"import sys; from tui.cli import main; sys.argv = ['fiefdom', *{list(map(str, args))!r}]; main()"
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=stdin, stdout=out.open("w"),
                            stderr=Path(f"{out}.err").open("w"), text=True)


def wait_for(condition: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    """Poll until ``condition()`` is truthy (its value), failing after ``seconds``."""
    end = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < end, f"still not {what} after {seconds} s"
        time.sleep(0.02)
    return value


def invitations(out: Path) -> list[str]:
    """The three invitations a host printed: each seat's, then the spectators'."""
    found = wait_for(lambda: len(INVITATION.findall(out.read_text())) == 3 and INVITATION.findall(out.read_text()),
                     "three invitations printed")
    assert [who for who, _ in found] == ["attackers", "defenders", "spectators"]
    return [url for _, url in found]


def join(url: str, out: Path) -> subprocess.Popen[str]:
    return fiefdom(["join", url, "--prompt"], out, stdin=subprocess.PIPE)


def answer(player: subprocess.Popen[str], text: str, close: bool = True) -> None:
    stdin: TextIO | None = player.stdin
    assert stdin is not None
    stdin.write(text)
    stdin.flush()
    if close:
        stdin.close()


def played_out(host: subprocess.Popen[str], urls: list[str], out: Path) -> None:
    """Both seats joined at the prompt, option 1 to every question, to the end: each player's process
    ends by itself with the game's result and the deal's check as its last lines, and the host's too."""
    players = [join(url, Path(f"{out}{i}.out")) for i, url in enumerate(urls[:2])]
    for p in players:
        answer(p, ANSWERS)
    for i, p in enumerate(players):
        said = Path(f"{out}{i}.out")
        assert p.wait(WAIT) == 0, Path(f"{said}.err").read_text()
        last = said.read_text().splitlines()[-2:]
        assert re.match(r"^(attackers win|defenders win|draw)", last[0]), last
        assert last[1].startswith("the deal checked: "), last
        assert not Path(f"{said}.err").read_text()
    assert host.wait(WAIT) == 0


def verified(record: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "from tui.cli import main; main()", "replay", "verify", str(record)],
                          cwd=ROOT, capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stdout + done.stderr


def decisions(record: Path) -> int:
    try:
        return sum(isinstance(r, DecisionRecord) for r in read_record_file(record).records)
    except Exception:  # noqa: BLE001 - not yet written (or mid-write): not yet
        return 0


def test_a_game_hosted_and_played_at_two_prompts(tmp_path: Path) -> None:
    host = fiefdom([*HOST, "--data-dir", tmp_path / "data"], tmp_path / "host.out")
    try:
        played_out(host, invitations(tmp_path / "host.out"), tmp_path / "player")
    finally:
        host.kill()
    said = (tmp_path / "host.out").read_text()
    record = re.search(r"the game is over: .*; record: (.+\.fief)$", said, re.M)
    assert record is not None, said
    assert not (tmp_path / "host.out.err").read_text().count("Traceback")
    verified(Path(record.group(1)))


def test_a_host_killed_outright_resumes_and_the_same_invitations_finish(tmp_path: Path) -> None:
    record = tmp_path / "game.fief"
    host = fiefdom([*HOST, "--data-dir", tmp_path / "data", "--out", record], tmp_path / "host.out")
    try:
        urls = invitations(tmp_path / "host.out")
        players = [join(url, tmp_path / f"before{i}.out") for i, url in enumerate(urls[:2])]
        for p in players:
            answer(p, "1\n" * 3, close=False)
        wait_for(lambda: decisions(record) >= 6, "six moves recorded")
        host.send_signal(signal.SIGKILL)
        assert host.wait(WAIT) == -signal.SIGKILL
    finally:
        host.kill()
    for p in players:  # each player gives up waiting: the input ends
        assert p.stdin is not None
        p.stdin.close()
        assert p.wait(WAIT) == 0
    before = decisions(record)
    assert Path(f"{record}.host").exists()

    again = fiefdom(["host", "--resume", record], tmp_path / "again.out")
    try:
        assert invitations(tmp_path / "again.out") == urls  # the same port and tokens
        played_out(again, urls, tmp_path / "after")
    finally:
        again.kill()
    assert not (tmp_path / "again.out.err").read_text().count("Traceback")
    recording = read_record_file(record)
    assert recording.result is not None and decisions(record) > before
    assert verify(recording).ok
