"""Play two OTEP engines against each other, relaying the protocol as OpenTafl would.

    .venv/bin/python scripts/otep_relay.py --variant gild-9 --seconds 0.1

starts two ``fiefdom engine --otep`` processes (or any two commands given with
--attackers/--defenders), sends each the rules and its side, then asks the
side to move to ``play``, checks its move with fiefdom's rules (the relay is
the referee), confirms it to the mover (``move <position>``) and passes it to
the other (``opponent-move``), until the game ends; then ``finish`` and
``goodbye``. Prints each move and the result; exit 0 when the game finished,
1 when an engine broke the protocol.
"""

from __future__ import annotations

import argparse
import queue
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.engine import RulesError  # noqa: E402
from core.tafl.otn_rules import rules_string  # noqa: E402
from core.tafl.rules import TaflGame  # noqa: E402

SIDES = ("attackers", "defenders")
DEFAULT_ENGINE = f"{Path(sys.executable).parent / 'fiefdom'} engine --otep"


class Engine:
    """One engine process; its stdout read by a thread so a silent engine cannot hang the relay."""

    def __init__(self, command: str, name: str) -> None:
        self.name = name
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def expect(self, prefixes: tuple[str, ...], timeout: float) -> str:
        """The next line that starts with one of ``prefixes`` (others are skipped); RuntimeError on timeout or EOF."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"{self.name}: no {'/'.join(prefixes)} within {timeout:.0f}s") from None
            if line is None:
                raise RuntimeError(f"{self.name}: the engine exited")
            if line.startswith(prefixes):
                return line

    def close(self) -> None:
        self.send("goodbye")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def finish_code(game: TaflGame) -> int:
    if game.result is None or not game.result.winners:
        return 1
    return 2 if game.result.winners[0] == 0 else 3


def relay(commands: tuple[str, str], variant: str, seconds: float, max_plies: int, echo=print) -> int:
    """One game between the two engines; 0 when it finished, 1 when an engine broke the protocol."""
    engines = [Engine(commands[0], "attackers"), Engine(commands[1], "defenders")]
    game = TaflGame(variant)  # the referee plays fiefdom's rules, the quiet-move draw too
    rules = rules_string(variant, game.opts)
    millis = int(seconds * 1000 * 30)  # the engine spends about a thirtieth of its main time a move
    status = 0
    try:
        for side, engine in enumerate(engines):
            engine.expect(("hello",), 10)
            engine.send(f"rules {rules}")
            engine.send(f"side {SIDES[side]}")
        last = ""
        while game.result is None and game.ply < max_plies:
            side = game.to_move
            mover = engines[side]
            if last:
                mover.send(f"opponent-move {last} {game.position()}")
            mover.send(f"clock {millis} {millis} 0 0 0")
            mover.send(f"play {SIDES[side]}")
            line = mover.expect(("move ", "error"), 30 + seconds * 5)
            if line.startswith("error"):
                raise RuntimeError(f"{mover.name} gave up: {line}")
            text = line.split(" ", 1)[1].strip()
            try:
                game.apply(game.parse(text))
            except RulesError as err:
                raise RuntimeError(f"{mover.name} played an illegal move {text!r}: {err}") from None
            mover.send(f"move {game.position()}")
            echo(f"{game.ply}. {SIDES[side]} {text}")
            last = text
        result = game.result
        if result is None:
            echo(f"stopped after {max_plies} plies: a draw by the relay's limit")
        else:
            who = f"{SIDES[result.winners[0]]} win" if result.winners else "draw"
            echo(f"result: {who}: {result.reason}")
        for engine in engines:
            engine.send(f"finish {finish_code(game)}")
    except RuntimeError as err:
        echo(f"relay: {err}")
        status = 1
    finally:
        for engine in engines:
            engine.close()
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="traditional", help="traditional, gild-9 or gild-11")
    parser.add_argument("--seconds", type=float, default=0.2, help="about how long each engine thinks a move")
    parser.add_argument("--max-plies", type=int, default=400, help="call it a draw after this many moves")
    parser.add_argument("--attackers", default=DEFAULT_ENGINE + " --seed 1", help="the attackers' engine command")
    parser.add_argument("--defenders", default=DEFAULT_ENGINE + " --seed 2", help="the defenders' engine command")
    args = parser.parse_args()
    return relay((args.attackers, args.defenders), args.variant, args.seconds, args.max_plies)


if __name__ == "__main__":
    raise SystemExit(main())
