"""Tafl board geometry and OpenTafl position strings.

Squares are indexed ``row * size + col`` with row 0 = rank 1 and col 0 = file
a, so ``a1`` is index 0 at the bottom left (OpenTafl's orientation).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.engine import RulesError

EMPTY, ATTACKER, DEFENDER, KING = 0, 1, 2, 3
PIECE_CHARS = {ATTACKER: "t", DEFENDER: "T", KING: "K"}
CHAR_PIECES = {"t": ATTACKER, "T": DEFENDER, "K": KING}
# Side owning each piece: 0 = attackers, 1 = defenders.
SIDE_OF = (-1, 0, 1, 1)
SIDE_NAMES = ("attackers", "defenders")

# Direction order: north (rank up), south, east (file up), west.
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Geometry:
    """Everything about a board that never changes during a game."""

    size: int
    centre: int
    corners: frozenset[int]
    camp_of: tuple[int, ...]  # camp number per square, 0 = none
    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]  # per square, per direction; -1 off board
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # per square, per direction, squares outward

    @classmethod
    def build(cls, size: int, camps: list[list[str]]) -> "Geometry":
        n = size * size
        names = tuple(f"{chr(97 + i % size)}{i // size + 1}" for i in range(n))
        neighbours = []
        rays = []
        for i in range(n):
            r, c = divmod(i, size)
            nb = []
            rs = []
            for dr, dc in DIRECTIONS:
                ray = []
                rr, cc = r + dr, c + dc
                while 0 <= rr < size and 0 <= cc < size:
                    ray.append(rr * size + cc)
                    rr, cc = rr + dr, cc + dc
                rs.append(tuple(ray))
                nb.append(ray[0] if ray else -1)
            neighbours.append(tuple(nb))
            rays.append(tuple(rs))
        camp_of = [0] * n
        index = {name: i for i, name in enumerate(names)}
        for number, camp in enumerate(camps, start=1):
            for name in camp:
                camp_of[index[name]] = number
        last = size - 1
        corners = frozenset({0, last, last * size, n - 1})
        return cls(size, n // 2, corners, tuple(camp_of), names, tuple(neighbours), tuple(rays))

    def square(self, name: str) -> int:
        """Index of a square name such as ``e4``; RulesError if it is not on this board."""
        name = name.strip().lower()
        if len(name) < 2 or not "a" <= name[0] <= "z" or not all("0" <= ch <= "9" for ch in name[1:]):
            raise RulesError(f"{name!r} is not a square (expected a file letter and a rank, like e4)")
        col = ord(name[0]) - 97
        row = int(name[1:]) - 1
        if not (0 <= col < self.size and 0 <= row < self.size):
            last = chr(96 + self.size)
            raise RulesError(f"{name} is off the {self.size}x{self.size} board (a1..{last}{self.size})")
        return row * self.size + col


def parse_position(text: str, size: int) -> list[int]:
    """Board list from an OpenTafl position string (rows from rank 1 up)."""
    text = text.strip()
    if not (text.startswith("/") and text.endswith("/")):
        raise RulesError("a position starts and ends with '/', e.g. /3ttttt3/5t5/.../")
    rows = text[1:-1].split("/")
    if len(rows) != size:
        raise RulesError(f"the position has {len(rows)} rows; this board has {size}")
    board: list[int] = []
    for rank, row in enumerate(rows, start=1):
        cells: list[int] = []
        digits = ""
        for ch in row + "|":
            if "0" <= ch <= "9":
                digits += ch
                continue
            if digits:
                if len(digits) > 2 or int(digits) > size:  # never build a huge row
                    raise RulesError(f"rank {rank}: {digits} empty squares do not fit a board of {size}")
                cells.extend([EMPTY] * int(digits))
                digits = ""
            if ch == "|":
                break
            if ch not in CHAR_PIECES:
                raise RulesError(f"rank {rank}: {ch!r} is not a piece (t attacker, T defender, K king)")
            cells.append(CHAR_PIECES[ch])
        if len(cells) != size:
            raise RulesError(f"rank {rank} has {len(cells)} squares; this board has {size}")
        board.extend(cells)
    if board.count(KING) != 1:
        raise RulesError("a position needs exactly one king (K)")
    return board


def format_position(board: list[int] | tuple[int, ...], size: int) -> str:
    return "/" + "/".join(format_row(board[r * size:(r + 1) * size]) for r in range(size)) + "/"


# A cell's letter by its value (EMPTY's is never used) and a run of empty squares' number, as
# tuples: the digests of a fresh process format thousands of rows, a third faster than a dict
# lookup and str() each. Runs up to 31: more than any board (files are named a to z).
_CELL_TEXT = tuple(PIECE_CHARS.get(v, "") for v in range(max(PIECE_CHARS) + 1))
_RUN_TEXT = tuple(str(n) for n in range(32))


def format_row(cells: list[int] | tuple[int, ...] | bytes) -> str:
    """One rank of a position string: pieces as letters, runs of empty squares as a number."""
    out = []
    empty = 0
    for v in cells:
        if v == EMPTY:
            empty += 1
            continue
        if empty:
            out.append(_RUN_TEXT[empty])
            empty = 0
        out.append(_CELL_TEXT[v])
    if empty:
        out.append(_RUN_TEXT[empty])
    return "".join(out)
