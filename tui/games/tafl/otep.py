"""``fiefdom engine --otep``: fiefdom's Tafl AI over the OpenTafl Engine Protocol.

OTEP (OpenTafl's opentafl-engine-protocol.txt) is line-based ASCII over the
engine's stdin and stdout, unacknowledged. :class:`OtepEngine` turns each line
from the host into reply lines (stdout) and notes (stderr) and never raises
for bad input; :func:`serve` is the I/O loop. The host's board is the truth:
when a move it reports or the position it sends differs from ours (a rules
string fiefdom reads a little differently, TF-17), we take its position.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from core.engine import RulesError
from core.rng import SplitMix64
from core.tafl.board import SIDE_NAMES
from core.tafl.otn_rules import OtnRules, parse_rules
from core.tafl.rules import TaflGame

if TYPE_CHECKING:
    from core.tafl.ai import Line

SIDES = {name: index for index, name in enumerate(SIDE_NAMES)}
FINISH = {"0": "the game was left", "1": "a draw", "2": "the attackers won", "3": "the defenders won"}
MOVES_LEFT_GUESS = 30  # main time is shared out as if this many moves remained
MIN_SECONDS = 0.02
MAX_LINES = 20  # analysis lines answered at most, whatever number the host asks for

# (move or None, score in hundredths of an attacker for the side to move)
Thinker = Callable[[TaflGame, float, int], tuple[tuple[str, str] | None, int]]
# (game, seconds, seed, lines wanted) -> the best lines, best first
Analyser = Callable[[TaflGame, float, int, int], "list[Line]"]


def ai_think(game: TaflGame, seconds: float, seed: int) -> tuple[tuple[str, str] | None, int]:
    """fiefdom's TaflAI, through its public ``search``."""
    from core.tafl.ai import TaflAI

    info = TaflAI(time_budget=seconds, seed=seed).search(game)
    return info.move, info.score


def ai_analyse(game: TaflGame, seconds: float, seed: int, count: int) -> list[Line]:
    """fiefdom's TaflAI's best ``count`` moves, each with the line it expects."""
    from core.tafl.ai import TaflAI

    return TaflAI(time_budget=seconds, seed=seed).analyse(game, count)


@dataclass
class Reply:
    out: list[str] = field(default_factory=list)  # protocol lines for the host
    err: list[str] = field(default_factory=list)  # notes for a person, on stderr
    done: bool = False  # goodbye: stop reading


@dataclass
class Clock:
    millis: tuple[int, int]  # attackers, defenders: main time left, or the overtime period's
    overtime: tuple[bool, bool]  # in overtime now
    overtime_seconds: int
    overtimes: tuple[int, int]  # periods left


class OtepEngine:
    """One OTEP conversation: the rules, the game as both sides see it, the clock."""

    def __init__(self, max_seconds: float = 5.0, seed: int = 1, think: Thinker = ai_think,
                 analyse: Analyser = ai_analyse) -> None:
        self.max_seconds = max_seconds
        self.seed = seed
        self.think = think
        self.analyse = analyse
        self.rules: OtnRules | None = None
        self.game: TaflGame | None = None
        self.side = 0  # the side we play
        self.clock: Clock | None = None
        self.side_sets_turn = False  # after 'position', 'side' names the side to move (analysis)
        self.before: TaflGame | None = None  # the game before our last move, until the host takes it
        self.refused: set[tuple[str, str, str]] = set()  # (position, from, to) the host called illegal
        self.after_error = False
        self.moves_played = 0

    # -- the protocol ---------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        reply = Reply()
        words = line.strip().split(" ", 1)
        command, rest = words[0], (words[1].strip() if len(words) > 1 else "")
        handler = self._handlers().get(command)
        if not command or command in ("hello", "start", "simple-moves", "status"):
            return reply
        if handler is None:
            reply.err.append(f"otep: unknown command {_short(line)} (ignored)")
            return reply
        try:
            handler(rest, reply)
        except RulesError as err:
            reply.err.append(f"otep: {command}: {err}")
        return reply

    def _handlers(self) -> dict[str, Callable[[str, Reply], None]]:
        return {
            "rules": self._rules, "position": self._position, "side": self._side, "clock": self._clock,
            "play": self._play, "move": self._move_taken, "error": self._error,
            "opponent-move": self._opponent_move, "analyze": self._analyze, "finish": self._finish,
            "goodbye": self._goodbye,
        }

    def _rules(self, rest: str, reply: Reply) -> None:
        try:
            self.rules = parse_rules(rest)
        except RulesError as err:
            self.rules = self.game = None
            reply.out.append(f"error -1 {err}")
            raise
        self.game = self._fresh(self.rules.position, self.rules.to_move)
        self.refused.clear()
        self.before, self.after_error, self.clock = None, False, None

    def _position(self, rest: str, reply: Reply) -> None:
        game = self._need_game()
        self.game = self._fresh(rest, game.to_move)
        self.side_sets_turn = True

    def _side(self, rest: str, reply: Reply) -> None:
        self.side = _side_of(rest)
        if self.side_sets_turn and self.game is not None and self.game.to_move != self.side:
            self.game = self._fresh(self.game.position(), self.side)

    def _clock(self, rest: str, reply: Reply) -> None:
        parts = rest.split()
        if len(parts) < 2:
            raise RulesError(f"clock needs the two sides' times, got {_short(rest)}")
        millis, overtime = [], []
        for part in parts[:2]:
            overtime.append(part.endswith("*"))
            millis.append(_int(part.rstrip("*"), "clock time"))
        extra = [_int(p, "clock overtime") for p in parts[2:5]] + [0] * (5 - len(parts[:5]))
        self.clock = Clock((millis[0], millis[1]), (overtime[0], overtime[1]), extra[0], (extra[1], extra[2]))

    def _play(self, rest: str, reply: Reply) -> None:
        side = _side_of(rest)
        game = self._need_game()
        self.side, self.side_sets_turn = side, False
        if game.to_move != side or game.result is not None:
            game = self.game = self._fresh(game.position(), side)
        move = self._choose(game, reply)
        if move is None:
            reply.out.append("error -1 fiefdom has no move here that the host accepts")
            reply.err.append("otep: play: no legal move left to offer; resigning")
            return
        self.before = game.clone()
        game.apply(move)
        self.moves_played += 1
        reply.out.append(f"move {move[0]}-{move[1]}")

    def _move_taken(self, rest: str, reply: Reply) -> None:
        """The host took our move; ``rest`` is its position after it."""
        game = self._need_game()
        self.before = None
        self._sync(game, rest, 1 - self.side, reply)

    def _error(self, rest: str, reply: Reply) -> None:
        """The host refused our last move: remember it and go back to before it."""
        code = rest.split(" ", 1)[0]
        if self.before is None:
            reply.err.append(f"otep: error {_short(code)} from the host, with no move of ours pending")
            return
        last = self.game.last if self.game is not None else None
        if last is not None:
            names = self.before.geo.names
            self.refused.add((self.before.position(), names[last[0]], names[last[1]]))
        reply.err.append(f"otep: the host refused our move (error {_short(code)}); we will not offer it again here")
        self.game, self.before, self.after_error = self.before, None, True

    def _opponent_move(self, rest: str, reply: Reply) -> None:
        game = self._need_game()
        moves, _, position = rest.partition(" ")
        if self.after_error:  # the host repeats the move before ours: we already have it
            self.after_error = False
        else:
            for text in moves.split("|"):
                try:
                    game.apply(game.parse(_simple(text)))
                except RulesError as err:
                    reply.err.append(f"otep: opponent-move {_short(text)}: {err}; taking the host's position")
                    break
        if position.strip():
            self._sync(game, position.strip(), self.side, reply)  # now it is our turn

    def _analyze(self, rest: str, reply: Reply) -> None:
        """``analysis <n> <line> <eval> ...``: the best moves, each with the play expected after it
        (moves joined by ``|``) and its score in attackers for the side to move."""
        game = self._need_game()
        parts = rest.split()
        seconds = float(_int(parts[1], "analyze seconds")) if len(parts) > 1 else self.max_seconds
        count = max(1, min(_int(parts[0] if parts else "1", "analyze count"), MAX_LINES))
        if game.result is not None or not game.legal_moves():
            reply.out.append("analysis 0")
            return
        try:
            lines = self.analyse(game, max(MIN_SECONDS, min(seconds, self.max_seconds)), self.seed, count)
        except Exception as err:  # noqa: BLE001 - a failed analysis is a note, never a crash
            reply.err.append(f"otep: the analysis failed ({type(err).__name__}: {err})")
            lines = []
        if not lines:
            reply.out.append("analysis 0")
            return
        pairs = (f"{'|'.join(f'{a}-{b}' for a, b in line.moves)} {line.score / 100:.2f}" for line in lines)
        reply.out.append(f"analysis {len(lines)} {' '.join(pairs)}")

    def _finish(self, rest: str, reply: Reply) -> None:
        reply.err.append(f"otep: game over: {FINISH.get(rest.strip(), 'finish ' + _short(rest))}")
        if self.rules is not None:
            self.game = self._fresh(self.rules.position, self.rules.to_move)
        self.before, self.after_error, self.clock, self.side_sets_turn = None, False, None, False
        self.refused.clear()

    def _goodbye(self, rest: str, reply: Reply) -> None:
        reply.done = True

    # -- helpers ----------------------------------------------------------------------

    def _need_game(self) -> TaflGame:
        if self.game is None:
            raise RulesError("no rules yet: the host must send 'rules' first")
        return self.game

    def _fresh(self, position: str, to_move: int) -> TaflGame:
        assert self.rules is not None
        return TaflGame(self.rules.variant, self.rules.options, position, to_move)

    def _sync(self, game: TaflGame, position: str, to_move: int, reply: Reply) -> None:
        """Take the host's position when it differs from ours."""
        fresh = self._fresh(position, to_move)  # RulesError when it is no position of this board
        if fresh.position() != game.position() or game.result is not None and fresh.result is None:
            reply.err.append("otep: the host's position differs from fiefdom's; playing on from the host's")
            self.game = fresh

    def seconds_for_move(self) -> float:
        """This move's budget from the last clock: a share of main time, half an overtime period."""
        clock = self.clock
        if clock is None or clock.millis[self.side] < 0:
            return self.max_seconds
        left = clock.millis[self.side] / 1000
        if clock.overtime[self.side]:
            budget = left / 2
        else:
            budget = left / MOVES_LEFT_GUESS
            if clock.overtimes[self.side] > 0:
                budget += clock.overtime_seconds / 2
        return max(MIN_SECONDS, min(budget, self.max_seconds))

    def _search(self, game: TaflGame, seconds: float, reply: Reply) -> tuple[tuple[str, str] | None, int]:
        try:
            return self.think(game, seconds, self.seed + self.moves_played)
        except Exception as err:  # noqa: BLE001 - a failed search must not lose the game on time
            reply.err.append(f"otep: the AI failed ({type(err).__name__}: {err}); playing a legal move")
            return None, 0

    def _choose(self, game: TaflGame, reply: Reply) -> tuple[str, str] | None:
        """The AI's move unless the host refused it here; else another legal move; None if none is left."""
        names, here = game.geo.names, game.position()
        legal = [(names[f], names[t]) for f, t in game.legal_moves()]
        allowed = [m for m in legal if (here, *m) not in self.refused]
        if not allowed:
            return None
        move, _ = self._search(game, self.seconds_for_move(), reply)
        if move in allowed:
            return move
        rng = SplitMix64(self.seed + self.moves_played)
        return allowed[rng.permutation(len(allowed))[0]]


def _side_of(text: str) -> int:
    side = text.strip().lower()
    if side not in SIDES:
        raise RulesError(f"{_short(text)} is not attackers or defenders")
    return SIDES[side]


def _int(text: str, what: str) -> int:
    text = text.strip()
    if not (text.lstrip("-").isascii() and text.lstrip("-").isdigit()) or len(text) > 18:
        raise RulesError(f"{what} {_short(text)} is not a whole number")
    return int(text)


def _simple(text: str) -> str:
    """A move record as from-to: OTN's piece letter, jump marks and info symbols removed."""
    body = text.strip()
    if len(body) > 1 and body[0] in "tTkKnNcC" and body[1].isalpha():
        body = body[1:]
    body = body.split("x", 1)[0].rstrip("+-")
    return body.replace("^", "-").replace("=", "-")


def _short(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:40] + "...")


class InputError(Exception):
    """Standard input cannot be read (closed, a folder, an I/O error): said in one line, exit 2."""


def _lines(stdin: TextIO) -> Iterator[str]:
    """The host's lines; InputError when reading fails (a reply's failed write is not caught here)."""
    try:
        yield from stdin
    except OSError as err:
        raise InputError(err.strerror or str(err)) from None


def serve(stdin: TextIO, stdout: TextIO, stderr: TextIO, engine: OtepEngine) -> int:
    """Say hello, then answer each line until goodbye or the end of input. Returns the exit status."""
    stdout.write("hello\n")
    stdout.flush()
    for line in _lines(stdin):
        reply = engine.handle(line)
        for out in reply.out:
            stdout.write(out + "\n")
        stdout.flush()
        for note in reply.err:
            stderr.write(note + "\n")
        stderr.flush()
        if reply.done:
            break
    return 0


def main(max_seconds: float, seed: int) -> int:
    """The protocol on this process's stdin and stdout (ASCII, one command a line); InputError,
    before a word is said, when there is no standard input to read (closed: ``<&-``; a folder)."""
    if sys.stdin is None:  # descriptor 0 was closed when Python started
        raise InputError(os.strerror(errno.EBADF))
    try:
        stdin = open(sys.stdin.fileno(), encoding="ascii", errors="replace", closefd=False)
    except OSError as err:
        raise InputError(err.strerror or str(err)) from None
    return serve(stdin, sys.stdout, sys.stderr, OtepEngine(max_seconds, seed))
