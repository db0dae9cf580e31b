"""Tafl puzzles: positions where exactly one move wins by force, proved, and the puzzle file format.

A position is a puzzle "attackers to move and win in k" when some move of the side to move wins
by force within k of its own moves (k the least such, at most ``max_moves``) and exactly one move
does. The proof is exact: a depth-limited AND-OR search (my move, every reply, my move, ...) on
the AI's fast board (:class:`core.tafl.ai.Position`, which plays TaflGame's rules; the tests check
the two agree), with the endings the search board leaves to its searcher (no legal move,
repetition, the quiet-move draw) applied here as TaflGame applies them. The one winning move's
whole tree is then walked again on :class:`TaflGame` itself, every reply the rules engine lists,
so a puzzle is never wrong about the win. The work is capped in nodes (:data:`NODE_CAP`), never in
seconds: a position over the cap is no puzzle, and the same input always gives the same puzzles.

The file format (docs/tafl-puzzles.md) is JSON lines, one puzzle a line; :func:`dump_puzzle` and
:func:`parse_puzzles` are text in, text out (the reading of files is the caller's).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from core.engine import RulesError
from core.tafl.ai import MATE, MATE_BOUND, Position, TaflAI, decode, encode
from core.tafl.board import ATTACKER, DEFENDER, KING, SIDE_NAMES
from core.tafl.rules import ATTACKERS, TaflGame

MAX_MOVES = 3  # the longest win a puzzle asks for, in the solver's own moves
NODE_CAP = 400_000  # moves made in judging one position (proof, walk, line); over it the position is skipped
FILTER_DEPTH = 3  # the AI's fixed depth that picks the positions worth proving
DRAW = 2  # a finished game no one won, beside ATTACKERS (0) and DEFENDERS (1)
FORMAT = "fiefdom-tafl-puzzle"
VERSION = 1
MAX_LINE = 4096  # bytes of one puzzle line
MAX_PUZZLES = 10_000
MAX_FILE = 8 * 2**20  # bytes of a whole file


class TooBig(Exception):
    """The proof needed more than its node cap: the position is not judged."""


class PuzzleError(ValueError):
    """A puzzle file that cannot be read (one line)."""


class Budget:
    """Moves that may still be made in judging one position, shared by every search and walk
    that judging takes (:class:`TooBig` when spent)."""

    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise TooBig


Cap = int | Budget  # a node cap for one search, or a budget shared by several


def goal_text(to_move: int, moves: int, kind: str = "win") -> str:
    """``attackers to move and win in 3``; a save: ``defenders to move: only one move does not lose in 2``."""
    if kind == "save":
        return f"{SIDE_NAMES[to_move]} to move: only one move does not lose in {moves}"
    return f"{SIDE_NAMES[to_move]} to move and win in {moves}"


def _piece_word(piece: int) -> str:
    return {ATTACKER: "attacker", DEFENDER: "defender", KING: "king"}.get(piece, "piece")


# -- the proof -------------------------------------------------------------------


class Prover:
    """Proves wins from one TaflGame position on the search board, within a node cap.

    ``wins(n)``: a move of the side to move that wins within ``n`` of its own moves, or None.
    Positions proved are remembered by (hash, n, the quiet-move count where it counts); the
    repetition count along the path is kept as TaflGame keeps it, from the game's own history.
    """

    def __init__(self, game: TaflGame, node_cap: Cap = NODE_CAP) -> None:
        if game.result is not None:
            raise RulesError("the game is over")
        self.pos = Position.from_game(game)
        self.budget = node_cap if isinstance(node_cap, Budget) else Budget(node_cap)
        self.stuck_draws = game.v.no_moves == "draw"
        self.quiet_limit: int = game.opts["quiet_moves"]
        self.repetition: str = game.opts["repetition"]
        self.seen: dict[int, int] = {}
        for key, count in game.history.items():
            h = self.pos.tab.hash_of(key[:-1], key[-1])
            self.seen[h] = self.seen.get(h, 0) + count
        self.table: dict[tuple[int, int, int], int | None] = {}
        self.killer: dict[int, int] = {}  # remaining depth -> the last reply that refuted a move

    # -- making moves with TaflGame's endings --

    def play(self, move: int) -> int | None:
        """Make ``move``: the game's end after it (ATTACKERS, DEFENDERS, DRAW) or None."""
        budget = self.budget
        budget.left -= 1  # Budget.spend, inline: every node
        if budget.left < 0:
            raise TooBig
        pos = self.pos
        pos.make(move)
        seen = self.seen[pos.hash] = self.seen.get(pos.hash, 0) + 1
        if pos.winner >= 0:
            return pos.winner
        if not self._has_move():
            return DRAW if self.stuck_draws else 1 - pos.side
        if seen >= 3 and self.repetition != "off":
            if self.repetition == "draw":
                return DRAW
            return ATTACKERS if self.repetition == "defenders-lose" else pos.side  # the repeater loses
        if self.quiet_limit and pos.quiet >= self.quiet_limit:
            return DRAW
        return None

    def undo(self) -> None:
        self.seen[self.pos.hash] -= 1
        self.pos.unmake()

    def _has_move(self) -> bool:
        pos = self.pos
        tab, board = pos.tab, pos.board
        for f in pos.squares[pos.side]:
            piece = board[f]
            stop = (tab.attacker_stop[tab.camp_of[f]] if piece == ATTACKER
                    else tab.king_stop if piece == KING else tab.defender_stop)
            for ray in tab.rays[f]:
                for t in ray:
                    if board[t]:
                        break
                    if stop[t]:
                        return True
        return False

    # -- the search --

    def wins(self, n: int) -> int | None:
        """A move that wins within ``n`` of the mover's moves (a quickest-looking one first), or None."""
        pos = self.pos
        # The quiet-move count decides a draw when the variant has a limit, so it is part of the key.
        # Repetition is not: from a puzzle's fresh start no position arises a third time before the
        # 8th ply, and a puzzle of 3 moves looks 5 plies ahead (at --max 5, 9: a repetition there is
        # the rare case the table may misjudge; a wrong win is still caught by the walk on TaflGame).
        key = (pos.hash, n, pos.quiet if self.quiet_limit else 0)
        if key in self.table:
            return self.table[key]
        me = pos.side
        moves = pos.moves()
        found: int | None = None
        for move in moves:  # an immediate win first
            end = self.play(move)
            self.undo()
            if end == me:
                found = move
                break
        if found is None and n > 1:
            for move in moves:
                end = self.play(move)
                ok = end is None and self.replies_lose(n - 1)
                self.undo()
                if ok:
                    found = move
                    break
        self.table[key] = found
        return found

    def replies_lose(self, n: int) -> bool:
        """Whether every reply of the side to move loses within ``n`` moves of the other side."""
        me = 1 - self.pos.side
        moves = self.pos.moves()
        killer = self.killer.get(n)
        if killer in moves:
            moves.remove(killer)
            moves.insert(0, killer)
        for reply in moves:
            end = self.play(reply)
            ok = end == me if end is not None else self.wins(n) is not None
            self.undo()
            if not ok:
                self.killer[n] = reply
                return False
        return True

    def move_wins(self, move: int, n: int) -> bool:
        """Whether ``move`` wins within ``n`` of the mover's moves (itself the first)."""
        me = self.pos.side
        end = self.play(move)
        ok = end == me if end is not None else n > 1 and self.replies_lose(n - 1)
        self.undo()
        return ok

    def least(self, n: int) -> int | None:
        """The least j <= n within which the side to move wins, or None."""
        return next((j for j in range(1, n + 1) if self.wins(j) is not None), None)


# -- puzzles ---------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position, the side to move, the length of the win and its solution line
    (the winner's moves against the strongest defence, as ``c4-c7``). A ``save`` puzzle's
    solution is the one move after which the other side does not win within ``moves``, when
    after every other move it does."""

    variant: str
    options: dict[str, Any]
    position: str
    to_move: int
    moves: int
    solution: tuple[str, ...]
    source: str = ""
    step: int = -1
    kind: str = "win"  # or "save"

    @property
    def goal(self) -> str:
        return goal_text(self.to_move, self.moves, self.kind)

    def game(self) -> TaflGame:
        return TaflGame(self.variant, self.options, self.position, self.to_move)


def _names(game: TaflGame, move: int) -> tuple[str, str]:
    f, t = decode(move)
    return game.geo.names[f], game.geo.names[t]


def _text(game: TaflGame, move: int) -> str:
    return "-".join(_names(game, move))


def find_win(game: TaflGame, max_moves: int = MAX_MOVES, node_cap: Cap = NODE_CAP) -> tuple[int, list[str]] | None:
    """(k, the moves that win within k) for the least k <= max_moves at which some move wins, as
    ``c4-c7``; None when no move wins within max_moves. TooBig over the node cap."""
    if game.result is not None:
        return None
    prover = Prover(game, node_cap)
    moves = prover.pos.moves()
    for k in range(1, max_moves + 1):
        winners = [m for m in moves if prover.move_wins(m, k)]
        if winners:
            return k, sorted(_text(game, m) for m in winners)
    return None


def find_save(game: TaflGame, max_moves: int = MAX_MOVES,
              node_cap: Cap = NODE_CAP) -> tuple[int, str] | None:
    """(n, the one move) when after every move but one the other side wins within ``n`` of its
    moves (n the most any of them needs, at most ``max_moves``) and after that one it does not
    win within ``max_moves``; None otherwise. TooBig over the cap."""
    if game.result is not None:
        return None
    prover = Prover(game, node_cap)
    me = prover.pos.side
    saving: list[int] = []
    longest = 0
    for move in prover.pos.moves():
        end = prover.play(move)
        if end is None:
            lost = prover.least(max_moves)  # the other side's quickest win after it, or None
        else:
            lost = None if end == DRAW else 1 if end != me else 0
        prover.undo()
        if lost == 0:  # a move that wins at once: nothing to save
            return None
        if lost is None:
            saving.append(move)
            if len(saving) > 1:
                return None
        else:
            longest = max(longest, lost)
    if len(saving) != 1 or not longest:
        return None
    return longest, _text(game, saving[0])


def loses_within(game: TaflGame, code: tuple[str, str], n: int, node_cap: Cap = NODE_CAP) -> bool:
    """Whether after the legal move ``code`` the game is lost for the mover, or the other side
    wins within ``n`` of its moves. TooBig over the cap."""
    me = game.to_move
    after = game.clone()
    after.apply(code)
    if after.result is not None:
        return me not in after.result.winners and bool(after.result.winners)
    return Prover(after, node_cap).wins(n) is not None


def best_defence(game: TaflGame, left: int, node_cap: Cap = NODE_CAP) -> tuple[str, str]:
    """The defender's reply that puts the loss off longest (the first of equals, in the rules'
    order), with the winner still to win within ``left`` moves. TooBig over the cap."""
    prover = Prover(game, node_cap)
    winner = 1 - game.to_move
    best: tuple[int, int] | None = None
    for f, t in game.legal_moves():
        move = encode(f, t)
        end = prover.play(move)
        if end is not None:
            lasts = 0 if end == winner else left + 1
        else:
            lasts = prover.least(left) or left + 1
        prover.undo()
        if best is None or lasts > best[0]:
            best = (lasts, move)
    assert best is not None, "a game in progress has a legal move"
    return _names(game, best[1])


def winning_move(game: TaflGame, left: int, node_cap: Cap = NODE_CAP) -> tuple[str, str] | None:
    """A move that wins quickest (within ``left``), or None. TooBig over the cap."""
    prover = Prover(game, node_cap)
    j = prover.least(left)
    if j is None:
        return None
    move = prover.wins(j)
    assert move is not None
    return _names(game, move)


def wins_within(game: TaflGame, code: tuple[str, str], left: int, node_cap: Cap = NODE_CAP) -> bool:
    """Whether the legal move ``code`` wins within ``left`` of the mover's moves. TooBig over the cap."""
    f, t = game.geo.names.index(code[0]), game.geo.names.index(code[1])
    return Prover(game, node_cap).move_wins(encode(f, t), left)


def verify(game: TaflGame, code: tuple[str, str], n: int, node_cap: Cap = NODE_CAP) -> bool:
    """Walk ``code``'s whole winning tree on TaflGame itself: after it, every legal reply the rules
    list, then a winning answer the prover names, ..., each branch must end in the mover's win
    by the game's own result within ``n`` moves."""
    budget = node_cap if isinstance(node_cap, Budget) else Budget(node_cap)
    me = game.to_move
    budget.spend()
    after = game.clone()
    after.apply(code)
    if after.result is not None:
        return me in after.result.winners
    if n <= 1:
        return False
    for f, t in after.legal_moves():
        budget.spend()
        reply = after.clone()
        reply.apply((after.geo.names[f], after.geo.names[t]))
        if reply.result is not None:
            if me not in reply.result.winners:
                return False
            continue
        answer = winning_move(reply, n - 1, budget)
        if answer is None or not verify(reply, answer, n - 1, budget):
            return False
    return True


def solution_line(game: TaflGame, first: tuple[str, str], n: int, node_cap: Cap = NODE_CAP) -> list[str]:
    """The winner's ``first`` move and the play after it: the strongest defence each time, the
    quickest win answering it, to the end of the game."""
    line: list[str] = []
    game = game.clone()
    move: tuple[str, str] | None = first
    left = n
    while move is not None and game.result is None:
        line.append(f"{move[0]}-{move[1]}")
        game.apply(move)
        if game.result is not None:
            break
        reply = best_defence(game, left - 1, node_cap)
        line.append(f"{reply[0]}-{reply[1]}")
        game.apply(reply)
        left -= 1
        move = winning_move(game, left, node_cap) if game.result is None else None
    return line


def puzzle_of(game: TaflGame, max_moves: int = MAX_MOVES, node_cap: int = NODE_CAP,
              source: str = "", step: int = -1, saves: bool = False) -> Puzzle | None:
    """The puzzle this position is (set up afresh from its position string and side to move, so
    the file gives the same game), or None: no win within ``max_moves``, more than one winning
    move, or more work than ``node_cap`` (a position is skipped, never a wrong puzzle). With
    ``saves``, a position with no win may be a save puzzle (:func:`find_save`)."""
    fresh = TaflGame(game.variant, dict(game.opts), game.position(), game.to_move)
    if fresh.result is not None:
        return None
    budget = Budget(node_cap)  # the whole judging of the position: search, walk and line
    try:
        found = find_win(fresh, max_moves, budget)
        if found is None and saves:
            return _save_puzzle(fresh, max_moves, budget, source, step)
        if found is None or len(found[1]) != 1:
            return None
        k, (text,) = found
        first = tuple(text.split("-"))
        code = (first[0], first[1])
        if not verify(fresh, code, k, budget):
            return None
        line = solution_line(fresh, code, k, budget)
    except TooBig:
        return None
    return Puzzle(fresh.variant, dict(fresh.opts), fresh.position(), fresh.to_move, k, tuple(line), source, step)


def _save_puzzle(game: TaflGame, max_moves: int, node_cap: Cap, source: str, step: int) -> Puzzle | None:
    """The save puzzle ``game`` is, every other move's loss walked on TaflGame itself. TooBig over the cap."""
    found = find_save(game, max_moves, node_cap)
    if found is None:
        return None
    n, text = found
    names = game.geo.names
    for f, t in game.legal_moves():
        if f"{names[f]}-{names[t]}" == text:
            continue
        after = game.clone()
        after.apply((names[f], names[t]))
        if after.result is not None:
            if game.to_move in after.result.winners or not after.result.winners:
                return None
            continue
        answer = winning_move(after, n, node_cap)
        if answer is None or not verify(after, answer, n, node_cap):
            return None
    return Puzzle(game.variant, dict(game.opts), game.position(), game.to_move, n, (text,), source, step, "save")


def candidate(game: TaflGame, max_moves: int = MAX_MOVES, depth: int = FILTER_DEPTH,
              saves: bool = False) -> str | None:
    """The cheap filter, the AI at a fixed depth (no clock decides): "win" when it sees a forced
    win for the side to move; with ``saves``, "save" when its second best move loses by force
    and its best does not (two best moves cost a little more than one); else None.
    Deterministic for a position."""
    if game.result is not None:
        return None
    ai = TaflAI(time_budget=1e9, max_depth=depth, seed=0)
    scores = [line.score for line in ai.analyse(game, 2)] if saves else [ai.search(game).score]
    if not scores:
        return None
    if scores[0] > MATE_BOUND:
        return "win" if MATE - scores[0] <= 2 * max_moves + 2 else None
    if len(scores) == 2 and scores[0] >= -MATE_BOUND and scores[1] < -MATE_BOUND:
        return "save"
    return None


def hint(game: TaflGame, left: int, node_cap: Cap = NODE_CAP) -> tuple[str, str] | None:
    """(the piece to move, as ``the attacker on c4``, and its square to go to), or None when no
    move wins within ``left`` (or the proof is over the cap)."""
    try:
        move = winning_move(game, left, node_cap)
    except TooBig:
        return None
    if move is None:
        return None
    piece = game.board[game.geo.names.index(move[0])]
    return f"the {_piece_word(piece)} on {move[0]}", move[1]


def _code(game: TaflGame, move: Any) -> tuple[str, str]:
    """A move as text (``c4-c7``, ``c4c7``) or as a code of two square names, as two square names;
    RulesError in one line when it is neither."""
    code = game.parse(move) if isinstance(move, str) else move
    if not (isinstance(code, tuple) and len(code) == 2 and all(sq in game.geo.names for sq in code)):
        raise RulesError(f"{str(move)[:24]!r} is not a move such as c4-c7")
    return str(code[0]), str(code[1])


# -- a puzzle being played -------------------------------------------------------


@dataclass
class Verdict:
    """What a move tried in a puzzle did: ``ok`` (it wins within the moves left), the defence's
    reply if any, ``solved`` when the game is won, and a line to show."""

    ok: bool
    text: str
    reply: str | None = None
    solved: bool = False


class PuzzlePlay:
    """A puzzle being solved: the game, the moves left; a tried move is checked by the rules
    engine (legal, and winning within the moves left by proof); the defence answers with its
    strongest reply. A wrong move leaves the position as it was."""

    def __init__(self, puzzle: Puzzle, node_cap: int = NODE_CAP) -> None:
        self.puzzle = puzzle
        self.node_cap = node_cap
        self.game = puzzle.game()
        self.left = puzzle.moves
        self.solved = False
        self.wrong = 0
        self.hints = 0
        self.played: list[str] = []

    @property
    def solver(self) -> int:
        return self.puzzle.to_move

    def status(self) -> str:
        """The goal as it stands: ``attackers to move and win in 2``, or ``solved``."""
        return "solved" if self.solved else goal_text(self.solver, self.left, self.puzzle.kind)

    def try_move(self, code: Any) -> Verdict:
        """Play ``code`` (a move code or text such as ``c4-c7``) if it wins within the moves left."""
        game = self.game
        if self.solved:
            return Verdict(False, "the puzzle is solved")
        try:
            names = _code(game, code)
        except RulesError as err:
            return Verdict(False, str(err))
        text = game.describe(names)
        if not game.is_legal(*map(game.geo.names.index, names)):
            return Verdict(False, f"{text}: not a legal move for the {SIDE_NAMES[game.to_move]}")
        if self.puzzle.kind == "save":
            return self._save(names, text)
        budget = Budget(self.node_cap)  # judging the move and finding the answer
        try:
            good = wins_within(game, names, self.left, budget)
        except TooBig:  # past the cap: the stored line is the judge
            good = self._on_line(text)
        if not good:
            self.wrong += 1
            return Verdict(False, f"{text} does not win in {self.left}: try again")
        game.apply(names)
        self.played.append(text)
        if game.result is not None:
            self.solved = True
            return Verdict(True, f"{text}: solved! {game.result.reason}", solved=True)
        self.left -= 1
        try:
            reply = best_defence(game, self.left, budget)
        except TooBig:
            reply = self._line_reply()
        try:
            reply_text = game.describe(reply)
            game.apply(reply)
        except RulesError:  # a file's own line, past the proof's cap, that the rules refuse
            self.solved = True
            return Verdict(True, f"{text}: the defence's answer is past what can be worked out here; "
                                 "call it solved", solved=True)
        self.played.append(reply_text)
        return Verdict(True, f"{text}: right. {SIDE_NAMES[1 - self.solver]} answer {reply_text}", reply=reply_text)

    def _save(self, names: tuple[str, str], text: str) -> Verdict:
        """A save puzzle's move: right when the other side then has no win within the moves."""
        try:
            lost = loses_within(self.game, names, self.left, self.node_cap)
        except TooBig:
            lost = not self._on_line(text)
        if lost:
            self.wrong += 1
            return Verdict(False, f"{text} loses: the {SIDE_NAMES[1 - self.solver]} win within {self.left}. "
                                  "Try again")
        self.game.apply(names)
        self.played.append(text)
        self.solved = True
        return Verdict(True, f"{text}: solved! the only move that does not lose in {self.left}", solved=True)

    def _on_line(self, text: str) -> bool:
        i = len(self.played)
        return i < len(self.puzzle.solution) and self.puzzle.solution[i] == text.lstrip("K")

    def _line_reply(self) -> tuple[str, str]:
        text = self.puzzle.solution[len(self.played)]
        a, b = text.split("-")
        return a, b

    def _save_hint(self) -> tuple[str, str] | None:
        """A save puzzle's move, as :func:`hint` words it: the file's, once the proof agrees."""
        if self.solved:
            return None
        try:
            move = _code(self.game, self.puzzle.solution[0])
            if loses_within(self.game, move, self.left, self.node_cap):
                return None
        except (RulesError, TooBig):
            return None
        piece = self.game.board[self.game.geo.names.index(move[0])]
        return f"the {_piece_word(piece)} on {move[0]}", move[1]

    def hint(self) -> str:
        """The piece to move at the first hint, the square too at the next."""
        found = self._save_hint() if self.puzzle.kind == "save" else hint(self.game, self.left, self.node_cap)
        if found is None:
            return "no hint: the puzzle is over" if self.solved else "no hint here"
        self.hints += 1
        piece, square = found
        return f"move {piece}" if self.hints % 2 else f"move {piece} to {square}"


# -- the file format ---------------------------------------------------------------


def dump_puzzle(p: Puzzle) -> str:
    """One puzzle as a line of the file (no newline)."""
    return json.dumps({
        "format": FORMAT, "version": VERSION, "variant": p.variant, "options": p.options,
        "position": p.position, "to_move": SIDE_NAMES[p.to_move], "goal": p.goal, "moves": p.moves,
        "solution": list(p.solution), "source": p.source, "step": p.step, "kind": p.kind,
    }, ensure_ascii=True, separators=(",", ":"))


def _field(obj: dict[str, Any], name: str, kind: type) -> Any:
    value = obj.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise PuzzleError(f"{name!r} is missing or not {kind.__name__}")
    return value


def _puzzle(obj: Any) -> Puzzle:
    if not isinstance(obj, dict):
        raise PuzzleError("not a JSON object")
    if obj.get("format") != FORMAT:
        raise PuzzleError(f"not a {FORMAT} line")
    if obj.get("version") != VERSION:
        raise PuzzleError(f"version {str(obj.get('version'))[:12]!r} is not {VERSION}")
    to_move = _field(obj, "to_move", str)
    if to_move not in SIDE_NAMES:
        raise PuzzleError("'to_move' is attackers or defenders")
    moves = _field(obj, "moves", int)
    if not 1 <= moves <= 5:
        raise PuzzleError("'moves' is from 1 to 5")
    solution = _field(obj, "solution", list)
    if not solution or not all(isinstance(m, str) and len(m) <= 16 for m in solution):
        raise PuzzleError("'solution' is a list of moves such as c4-c7")
    source, step, kind = obj.get("source", ""), obj.get("step", -1), obj.get("kind", "win")
    if kind not in ("win", "save"):
        raise PuzzleError("'kind' is win or save")
    puzzle = Puzzle(_field(obj, "variant", str), _field(obj, "options", dict), _field(obj, "position", str),
                    SIDE_NAMES.index(to_move), moves, tuple(solution),
                    source if isinstance(source, str) else "", step if isinstance(step, int) else -1, kind)
    try:
        game = puzzle.game()
    except (RulesError, KeyError, TypeError, ValueError) as err:
        raise PuzzleError(str(err) or type(err).__name__) from None
    if game.result is not None:
        raise PuzzleError("the position is already over")
    try:  # the first move of the solution is legal there (its win is checked as it is played)
        game.apply(game.parse(solution[0]))
    except RulesError as err:
        raise PuzzleError(f"solution: {err}") from None
    return puzzle


def parse_puzzles(data: bytes) -> list[Puzzle]:
    """The puzzles of a file's bytes; PuzzleError (one line, naming the line) when damaged."""
    if len(data) > MAX_FILE:
        raise PuzzleError(f"larger than {MAX_FILE // 2**20} MiB, more than any puzzle file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PuzzleError(f"byte {err.start}: not UTF-8 text") from None
    puzzles: list[Puzzle] = []
    for number, line in _lines(text):
        if len(line) > MAX_LINE:
            raise PuzzleError(f"line {number}: longer than {MAX_LINE} characters")
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as err:
            raise PuzzleError(f"line {number}: not JSON ({str(err)[:60]})") from None
        try:
            puzzles.append(_puzzle(obj))
        except PuzzleError as err:
            raise PuzzleError(f"line {number}: {str(err)[:120]}") from None
        if len(puzzles) > MAX_PUZZLES:
            raise PuzzleError(f"more than {MAX_PUZZLES} puzzles")
    if not puzzles:
        raise PuzzleError("no puzzles in it")
    return puzzles


def _lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line
