"""Fast move generation for :class:`core.tafl.rules.TaflGame`, one line of the board at a time.

A rook move stays on its row or column, and the moves along a line depend only
on what stands on that line. So the board's rows and columns are read as byte
strings (slices of ``bytes(board)``, made in C) and each line's moves are looked
up by its contents in a cache filled as patterns first occur.

A move is held as its rank in the plain scan's order (squares ascending, then
north, south, east, west, each ray outward): ``(f * 4 + d) * size + k`` for the
k-th square (from 0) of ray ``d`` from ``f``. Sorting the ranks, plain ints, puts
the moves in that order, the order callers and records rely on; tables turn a
rank into its move ``(f, t)`` or its option code.

Lines whose squares allow the same stops (every plain row and column, say) share
a second cache of the moves in the line's own terms (square j of the line, ahead
or back, k squares on), so a pattern met on one line is worked out once for all
of them; a table per line turns those into ranks.

The caches are keyed by a line's code, an int with two bits a square (the piece on square j of the
line at bits 2j, 2j + 1), which TaflGame keeps in step as pieces move (MoveTables.square_lines): a
lookup then cuts no slice from the board and hashes no bytes, the bulk of a lookup by pattern.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from functools import cache, partial, reduce
from operator import iadd
from typing import Any

from core.engine import Code
from core.tafl.board import ATTACKER, DEFENDER, KING, Geometry, format_row


Move = tuple[int, int]
# A piece's moves along a line, in the line's terms: by its square j, then by where the free run ends.
Runs = list[list[tuple[int, ...]]]


def can_stop(geo: Geometry, piece: int, f: int, t: int) -> bool:
    """Whether ``piece`` moving from ``f`` may end on ``t`` (TF-2, TF-7, gild BASIC MOVES)."""
    if t == geo.centre or t in geo.corners:
        return piece == KING  # TF-2
    camp = geo.camp_of[t]
    if camp:
        return piece == ATTACKER and geo.camp_of[f] == camp  # only an attacker still inside that camp
    return True


# The caches' bounds (issue 32: a long run's memory stays flat). Each cache keeps two generations:
# when the new one is full it becomes the old one (the one before is dropped), and a pattern found
# in the old one moves to the new. The patterns met again (the start, the opening) stay however long
# the run, a lookup that hits stays one dict lookup in C, and no cache holds more than twice its limit.
CACHE_LIMIT = 40_000  # line patterns one board geometry's line caches take in (both sides) before they age
SHARED_LIMIT = 50_000  # patterns its shared caches (MoveTables.shared, all classes) take in before they age
ROW_TEXT_LIMIT = 4_096  # rows RowText takes in before it ages

# Direction numbers (core.tafl.board.DIRECTIONS): along a row squares go east (2) and back
# west (3); along a column north (0) and back south (1).
_ROW_DIRS, _COLUMN_DIRS = (2, 3), (0, 1)


class MoveTables:
    """The lines of one board geometry, each move's rank in scan order, and the line caches."""

    def __init__(self, geo: Geometry) -> None:
        size, n = geo.size, geo.size * geo.size
        self.geo = geo
        self.size = size
        # Each row, then each column, as a slice of the board's bytes, its squares and its stride.
        bounds = tuple((r * size, (r + 1) * size, 1) for r in range(size)) + \
            tuple((c, n, size) for c in range(size))
        self.slices = tuple(slice(a, b, step) for a, b, step in bounds)
        self.lines = tuple(tuple(range(a, b, step)) for a, b, step in bounds)
        # square_lines[sq]: its row, the weight of its two bits in the row's code, its column and the
        # weight there: a piece p arriving on sq adds p * weight to each code, leaving subtracts it.
        self.square_lines = tuple((sq // size, 1 << 2 * (sq % size), size + sq % size, 1 << 2 * (sq // size))
                                  for sq in range(n))
        self.shifts = tuple(range(0, 2 * size, 2))  # of square j's two bits in a line's code
        # A defender or the king (2, 3) sets the high bit of its square's two; the edge's four lines.
        self.high_bits = sum(2 << shift for shift in self.shifts)
        self.edge_lines = (0, size - 1, size, 2 * size - 1)
        # Scan order: by square, then direction (geo.rays order), then distance.
        self.rank = {(f, t): (f * 4 + d) * size + k
                     for f in range(n) for d, ray in enumerate(geo.rays[f]) for k, t in enumerate(ray)}
        self.codes = {(f, t): (geo.names[f], geo.names[t]) for f, t in self.rank}
        self.index = {name: sq for sq, name in enumerate(geo.names)}
        # Rank -> move, rank -> option code (None where no move has that rank), code -> rank.
        self.move_at: list[Move | None] = [None] * (n * 4 * size)
        self.code_at: list[tuple[str, str] | None] = [None] * (n * 4 * size)
        for move, r in self.rank.items():
            self.move_at[r] = move
            self.code_at[r] = self.codes[move]
        self.rank_of_code: dict[Code, int] = {code: self.rank[move] for move, code in self.codes.items()}
        # Rank -> the line its move runs along (a row, else a column: size + its column); -1 for none.
        self.line_at = [-1] * (n * 4 * size)
        for (f, t), r in self.rank.items():
            self.line_at[r] = f // size if f // size == t // size else size + f % size
        # stops[piece][f][t]: whether that piece, leaving f, may end on t.
        self.stops = {piece: tuple(tuple(can_stop(geo, piece, f, t) for t in range(n)) for f in range(n))
                      for piece in (ATTACKER, DEFENDER, KING)}
        # A move along a line in the line's terms: (j * 2 + back) * size + k for the square k + 1
        # on from the line's square j, ahead (0) or back (1). to_rank[line] turns it into a rank.
        self.to_rank = tuple(self._to_rank(squares) for squares in self.lines)
        # Lines of one class allow the same stops square for square, so the same moves in their terms.
        classes: dict[tuple, int] = {}
        self.kind = tuple(classes.setdefault(self._signature(squares), len(classes)) for squares in self.lines)
        # cache[side][line]: code -> ranks; shared[class]: code -> both sides' moves in the line's
        # terms. A line's pattern is worked out for both sides at once: the other side, to move next,
        # mostly finds the line as it was.
        self.shared = [SharedCache(self, self.kind.index(c)) for c in range(len(classes))]
        self.filled = 0  # patterns taken into the line caches since they last aged
        self.shared_filled = 0  # and into the shared caches
        # A shared entry is packed (MoveTables.line_moves): bytes, when every move in a line's terms
        # is under 256 (boards up to 11x11), compact and never tracked by the garbage collector.
        self.pack: Callable[[list[int]], Sequence[int]] = bytes if 2 * size * size <= 256 else partial(array, "H")
        self.cache: tuple[list[LineCache], ...] = tuple(
            [LineCache(self, line, side) for line in range(len(self.lines))] for side in (0, 1))
        for attackers, defenders in zip(*self.cache):
            attackers.pair, defenders.pair = defenders, attackers
        # runs[class][piece][j][hi]: the moves ahead of that piece on square j of a line of that class,
        # when the free run ahead ends before hi; back[...][lo]: those back, the run ending after lo - 1.
        self.runs = [self._runs(self.lines[self.kind.index(c)]) for c in range(len(classes))]
        self.rows = self.slices[:size]
        self.row_text = RowText()
        # A move's event when it captures nothing, by (f * n + t) * 4 + piece: TaflGame makes each
        # once (the variant's rule citation is the same for every game on these tables).
        self.quiet_events: dict[int, Any] = {}

    def position(self, raw: bytes) -> str:
        """``format_position`` of the board whose bytes are ``raw``, a row at a time from a cache."""
        return "/" + "/".join(map(self.row_text.__getitem__, map(raw.__getitem__, self.rows))) + "/"

    def _to_rank(self, squares: tuple[int, ...]) -> list[int]:
        size = self.size
        ahead, back = _ROW_DIRS if squares[1] - squares[0] == 1 else _COLUMN_DIRS
        out = [0] * (2 * size * size)
        for j, f in enumerate(squares):
            for way, d in enumerate((ahead, back)):
                for k in range(size):
                    out[(j * 2 + way) * size + k] = (f * 4 + d) * size + k
        return out

    def _signature(self, squares: tuple[int, ...]) -> tuple:
        return tuple(tuple(tuple(self.stops[piece][f][t] for t in squares) for f in squares)
                     for piece in (ATTACKER, DEFENDER, KING))

    def _runs(self, squares: tuple[int, ...]) -> dict[int, tuple[Runs, Runs]]:
        size, last = self.size, len(squares)
        out = {}
        for piece in (ATTACKER, DEFENDER, KING):
            ok = self.stops[piece]
            ahead: Runs = []
            back: Runs = []
            for j, f in enumerate(squares):
                ahead.append([tuple(j * 2 * size + (k - j - 1) for k in range(j + 1, hi) if ok[f][squares[k]])
                              for hi in range(last + 1)])
                back.append([tuple((j * 2 + 1) * size + (j - k - 1) for k in range(j - 1, lo - 1, -1)
                                   if ok[f][squares[k]])
                             for lo in range(last + 1)])
            out[piece] = (ahead, back)
        return out

    def age(self) -> None:
        """Every line cache's patterns become its old generation (see LineCache), the old ones dropped."""
        for side in self.cache:
            for line in side:
                line.old = dict(line)
                line.clear()
        self.filled = 0

    def age_shared(self) -> None:
        """The same for the shared caches."""
        for shared in self.shared:
            shared.old = dict(shared)
            shared.clear()
        self.shared_filled = 0

    def line_moves(self, line: int, pattern: bytes) -> Sequence[int]:
        """The moves of each side along ``line`` holding ``pattern``, in the line's terms, packed: how
        many the attackers have, theirs, then the defenders'."""
        runs = self.runs[self.kind[line]]
        sides: tuple[list[int], list[int]] = ([], [])
        occupied = [j for j, piece in enumerate(pattern) if piece]
        occupied.append(len(pattern))
        lo = 0
        for i, j in enumerate(occupied[:-1]):
            piece = pattern[j]
            ahead, back = runs[piece]
            out = sides[piece != ATTACKER]
            out += ahead[j][occupied[i + 1]]
            out += back[j][lo]
            lo = j + 1
        return self.pack([len(sides[0])] + sides[0] + sides[1])


class SharedCache(dict[int, Sequence[int]]):
    """Both sides' moves along one class of lines, packed in the line's terms (line_moves), by the
    line's code; worked out on a miss, in two generations (CACHE_LIMIT's comment)."""

    __slots__ = ("mt", "line", "old")

    def __init__(self, mt: MoveTables, line: int) -> None:
        super().__init__()
        self.mt, self.line = mt, line  # line: one of the class, for line_moves
        self.old: dict[int, Sequence[int]] = {}  # the generation before (MoveTables.age_shared)

    def __missing__(self, code: int) -> Sequence[int]:
        moves = self.old.get(code)
        mt = self.mt
        if moves is None:
            moves = mt.line_moves(self.line, bytes([code >> shift & 3 for shift in mt.shifts]))
        if mt.shared_filled >= SHARED_LIMIT:
            mt.age_shared()
        mt.shared_filled += 1
        self[code] = moves
        return moves


class LineCache(dict[int, tuple[int, ...]]):
    """One line's moves for one side, by the line's code; a code not there yet is worked out
    (for both sides) on the way, by ``cache[code]`` in C, with no test for a miss in Python.

    The two sides' caches of a line hold the same patterns (a miss fills both, and all the line
    caches of a geometry age at once, after CACHE_LIMIT patterns): memory is bounded by the number
    of patterns, however they fall on the lines."""

    __slots__ = ("mt", "line", "side", "shared", "rank", "pair", "old")
    pair: "LineCache"  # the other side's cache of the same line (set by MoveTables)

    def __init__(self, mt: MoveTables, line: int, side: int) -> None:
        super().__init__()
        self.mt, self.line, self.side = mt, line, side
        self.shared = mt.shared[mt.kind[line]]
        self.rank = mt.to_rank[line].__getitem__
        self.old: dict[int, tuple[int, ...]] = {}  # the generation before (MoveTables.age)

    def __missing__(self, code: int) -> tuple[int, ...]:
        pair = self.pair
        mine = self.old.get(code)
        if mine is not None:
            theirs = pair.old[code]  # the pair's old generation holds the same codes
        else:
            moves = self.shared[code]
            rank, split = self.rank, moves[0] + 1
            mine, theirs = tuple(map(rank, moves[1:split])), tuple(map(rank, moves[split:]))
            if self.side:
                mine, theirs = theirs, mine
        mt = self.mt
        if mt.filled >= CACHE_LIMIT:
            mt.age()
        mt.filled += 1
        self[code] = mine
        pair[code] = theirs  # the other side's, for its turn: it mostly finds the line as it was
        return mine


class RowText(dict[bytes, str]):
    """A row's OpenTafl text (``3ttttt3``) by its bytes, worked out the first time it is asked for
    (in two generations, as the line caches)."""

    __slots__ = ("old",)

    def __init__(self) -> None:
        super().__init__()
        self.old: dict[bytes, str] = {}

    def __missing__(self, row: bytes) -> str:
        text = self.old.get(row)
        if text is None:
            text = format_row(row)
        if len(self) >= ROW_TEXT_LIMIT:
            self.old = dict(self)
            self.clear()
        self[row] = text
        return text


_lookup = LineCache.__getitem__  # dict's own lookup, which calls __missing__ on a miss


@cache
def tables(variant: str) -> MoveTables:
    from core.tafl.variants import variant as get_variant  # local: variants imports board only

    return MoveTables(get_variant(variant).geometry)


def line_codes(raw: bytes, mt: MoveTables) -> list[int]:
    """The code of each line (rows, then columns) of the board whose bytes are ``raw``."""
    shifts = mt.shifts
    return [sum(map(int.__lshift__, raw[line], shifts)) for line in mt.slices]


def ranks_of(codes: list[int], side: int, mt: MoveTables) -> list[int]:
    """The ranks of every legal move of ``side`` (0 attackers, 1 defenders) on the board whose
    lines have ``codes``, ascending: the moves in scan order."""
    # Each line's tuple appended by list += in C (a copy of its items, not an item at a time).
    ranks: list[int] = reduce(iadd, map(_lookup, mt.cache[side], codes), [])
    ranks.sort()
    return ranks


def has_moves(codes: list[int], side: int, mt: MoveTables) -> bool:
    """Whether ``side`` has a legal move on the board whose lines have ``codes``: ``ranks_of`` up to
    the first line that has one."""
    return any(map(_lookup, mt.cache[side], codes))


def allows(codes: list[int], side: int, mt: MoveTables, rank: int) -> bool:
    """Whether the move of ``rank`` is legal for ``side`` on the board whose lines have ``codes``:
    one look-up, in the cache of the line it runs along."""
    line = mt.line_at[rank]
    return line >= 0 and rank in _lookup(mt.cache[side][line], codes[line])


def ranks_for(raw: bytes, side: int, mt: MoveTables) -> list[int]:
    """``ranks_of`` the board whose bytes are ``raw``."""
    return ranks_of(line_codes(raw, mt), side, mt)


def moves_for(board: list[int], side: int, mt: MoveTables, first_only: bool = False) -> list[Move]:
    """Every legal move of ``side`` (0 attackers, 1 defenders) on ``board``, in scan order."""
    ranks = ranks_for(bytes(board), side, mt)
    # A move's rank is never one of move_at's Nones (a rank no move has); a cast would cost a call.
    return list(map(mt.move_at.__getitem__, ranks[:1] if first_only else ranks))  # type: ignore[arg-type]  # no None
