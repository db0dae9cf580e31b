"""The Tafl AI: iterative-deepening principal-variation search on its own board.

:class:`TaflGame` is the rulebook: it favours clarity (events, citations,
legality checks). A search makes and unmakes hundreds of thousands of moves,
so this module keeps a compact copy of the position (:class:`Position`: a
flat int board, piece sets, per-side bitboards, a Zobrist hash and an undo
stack) that plays exactly TaflGame's rules for the variant and its options.
``tests/tafl/test_ai.py`` checks move lists, captures and results against
TaflGame over random games in every variant.

Moves inside the search are ints ``from << 8 | to``; the controller turns
the chosen one back into a TaflGame option code such as ``("e1", "e4")``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from time import perf_counter

from core.engine import Decision, Game
from core.rng import SplitMix64
from core.tafl.board import ATTACKER, DEFENDER, EMPTY, KING, parse_position
from core.tafl.rules import ATTACKERS, DEFENDERS, TaflGame, edge_fort, shieldwall_captures
from core.tafl.variants import variant as get_variant

from core.tafl import AI_VERSION  # noqa: E402,F401 - recorded in seat details; bump it when play changes
MATE = 1_000_000
MATE_BOUND = MATE - 1_000  # scores beyond this are forced wins or losses
INFINITY = MATE + 1
MAX_DEPTH = 64
CHECK_EVERY = 256  # nodes between clock checks (a power of two)
# A draw by the quiet-move or repetition rule counts this much against the searching side,
# by side (attackers, defenders).
CONTEMPT = (150, 150)
TT_LIMIT = 1_000_000  # transposition table entries
ZOBRIST_SEED = 0x7AF1_2024


def encode(f: int, t: int) -> int:
    return f << 8 | t


def decode(move: int) -> tuple[int, int]:
    return move >> 8, move & 255


# -- evaluation weights ---------------------------------------------------------
# In hundredths of an attacker, from the attackers' point of view.

W_ATTACKER = 100
W_DEFENDER = 180  # the defenders are outnumbered 2:1, so each one counts for more
W_GUARD_DIAGONAL = 30  # an attacker diagonal to a corner seals it and cannot be taken there
W_GUARD_WALL = 15  # the two squares beside that one complete the blockade
W_ESCAPE_THREAT = 300  # one open line to a corner: the attackers must spend a move
W_ESCAPE_FORK = 5_000  # two open lines and the attackers to move: one block is not enough
W_ROUTE_2 = 150  # per square the king reaches that sees a goal: escape in two
W_FORK_2 = 800  # per such square that sees two goals: a fork next move
W_ROOM = 8  # few defenders left: per square they cannot reach any more (none left to move loses, TF-9)
ROOM_FEW = 2  # ... when at most this many defenders besides the king are left
W_KING_NEAR = 8  # per step the king is closer to his nearest corner
W_KING_MOBILITY = 4  # a king with room finds routes the terms above do not count yet
W_RING = (0, 15, 45, 140, 140)  # by sides closed round a four-sided king (attackers, maybe the throne)
W_AXIS_THREAT = 110  # off the hof: one side closed, the other open for an attacker
W_ADJACENT = 20  # off the hof: an attacker touching the king
W_MOBILITY = 2  # per square a side's pieces can reach: the attackers win by hemming in
W_CLOSE_IN = 6  # per attacker, per step inside NEAR_KING of the king: a plan to surround him
NEAR_KING = 4


# -- per-variant tables ----------------------------------------------------------


class Tables:
    """Everything the search needs about a variant that never changes in a game.

    Geometry (rays, neighbours, corners, centre, camps) comes from the
    variant's :class:`~core.tafl.board.Geometry`; the rest is derived once.
    """

    def __init__(self, name: str, throne_counts: bool) -> None:
        v = get_variant(name)
        g = v.geometry
        n = g.size * g.size
        self.size, self.n = g.size, n
        self.centre, self.corners = g.centre, g.corners
        self.rays, self.neighbours, self.camp_of = g.rays, g.neighbours, g.camp_of
        # Empty corners, centre and camp squares are hostile to every piece (TF-4, TF-11) and
        # restricted (TF-2, TF-7). Brandubh's empty throne is hostile only with its strong king
        # (TF-28: ``throne_counts`` carries that option here).
        self.special = tuple(sq == g.centre or sq in g.corners or g.camp_of[sq] > 0 for sq in range(n))
        two = v.king_capture == "two"
        throne_hostile = v.throne_hostile or (two and throne_counts)
        self.hostile_empty = tuple(s and (sq != g.centre or throne_hostile) for sq, s in enumerate(self.special))
        plain = tuple(not s for s in self.special)
        self.defender_stop = plain
        self.king_stop = tuple(plain[sq] or sq == g.centre or sq in g.corners for sq in range(n))
        # Attackers: index by the camp the mover stands in (0 = none); TF-7.
        camps = max(g.camp_of) + 1
        self.attacker_stop = tuple(
            tuple(plain[sq] or (c > 0 and g.camp_of[sq] == c) for sq in range(n)) for c in range(camps)
        )
        # Custodial capture: for a piece arriving on t, (victim square, far square or -1).
        self.capture_pairs = tuple(
            tuple((nb, g.neighbours[nb][d]) for d, nb in enumerate(g.neighbours[t]) if nb >= 0) for t in range(n)
        )
        # The two lines through a square, as (one side, other side), where both exist.
        self.axes = tuple(
            tuple((nbs[a], nbs[b]) for a, b in ((0, 1), (2, 3)) if nbs[a] >= 0 and nbs[b] >= 0)
            for nbs in g.neighbours
        )
        # Four-sided king capture: the four neighbours, or () on the edge (TF-10).
        self.king_ring = tuple(nbs if min(nbs) >= 0 else () for nbs in g.neighbours)
        self.neighbour_mask = tuple(sum(1 << sq for sq in nbs if sq >= 0) for nbs in g.neighbours)
        self.ring_mask = tuple(sum(1 << sq for sq in ring) for ring in self.king_ring)
        # Where the king falls between two (gild off the hof, TF-13; Brandubh, TF-28: off and away
        # from the throne with the strong king), and what beyond him closes the pair: an attacker,
        # or an empty camp (gild) or a corner or the hostile throne (Brandubh).
        self.hof_rule = v.king_capture in ("hof-four-else-two", "two")  # the king is weak off the centre
        near_throne = {g.centre, *(sq for sq in g.neighbours[g.centre] if sq >= 0)}
        self.king_two = tuple(
            (v.king_capture == "hof-four-else-two" and sq != g.centre)
            or (two and not (throne_counts and sq in near_throne)) for sq in range(n))
        self.king_anvil = tuple(
            g.camp_of[sq] > 0 if not two else sq in g.corners or (sq == g.centre and throne_hostile)
            for sq in range(n))
        self.throne_counts = (throne_counts or v.king_capture == "four-or-three-by-throne") and v.centre == "throne"
        self.ring_throne = tuple(int(self.throne_counts and g.centre in ring) for ring in self.king_ring)
        # The published rulesets' extra rules (TF-21, TF-22, TF-24).
        self.geo = g
        self.shieldwall, self.edge_fort, self.encirclement = v.shieldwall, v.edge_fort, v.encirclement
        self.on_edge = tuple(-1 in nbs for nbs in g.neighbours)
        # The king's goals: the corners and the squares beside them, where he cannot be captured
        # (on the edge, TF-10; the corner is not hostile to him, TF-13) and steps into the corner
        # next move: reaching one wins, so the search sees every escape a move earlier.
        # A variant whose corners are hostile to the king sets king_safe_beside_corners False.
        self.king_safe_beside_corners = v.king_capture != "two"  # Brandubh's corners take him (TF-28)
        beside = _beside_corners(g.neighbours, g.corners) if self.king_safe_beside_corners else frozenset()
        self.goals = frozenset(g.corners) | beside
        self.goal_lines = tuple(_goal_lines(g.rays[sq], self.goals) for sq in range(n))
        # The same paths as bitboards: a path is open when no piece stands on it.
        self.corner_masks = tuple(tuple(sum(1 << s for s in p) for p in _corner_lines(g.rays[sq], g.corners))
                                  for sq in range(n))
        self.goal_masks = tuple(tuple(sum(1 << s for s in p) for p in paths) for paths in self.goal_lines)
        self.corner_distance = tuple(min(_steps(sq, c, g.size) for c in g.corners) for sq in range(n))
        # Move ordering: a king's move ranks higher the closer it takes him to a corner.
        self.king_order_bonus = tuple(ORDER_KING * (2 * g.size - d) for d in self.corner_distance)
        guard = _corner_guard_bonus(g.size)
        self.guard_masks = tuple((w, sum(1 << sq for sq in range(n) if guard[sq] == w)) for w in set(guard) if w)
        self.guard_all = sum(mask for _, mask in self.guard_masks)
        self.close_in = tuple(
            tuple(W_CLOSE_IN * max(0, NEAR_KING - _steps(k, sq, g.size)) for sq in range(n)) for k in range(n)
        )
        rng = SplitMix64(ZOBRIST_SEED)
        self.zobrist = tuple(tuple(rng.next() for _ in range(n)) for _ in range(4))
        self.zobrist_side = rng.next()
        self.bit = tuple(1 << sq for sq in range(n))
        full = (1 << n) - 1
        self.file_a_clear = full & ~sum(1 << (r * g.size) for r in range(g.size))
        self.last_file_clear = full & ~sum(1 << (r * g.size + g.size - 1) for r in range(g.size))
        self.plain_mask = sum(1 << sq for sq in range(n) if plain[sq])
        self.hostile_empty_mask = sum(1 << sq for sq in range(n) if self.hostile_empty[sq])
        self.full = full
        self.edge_mask = sum(1 << sq for sq in range(n) if self.on_edge[sq])
        # The start position's score: subtracted so that an even game scores 0 and a draw's
        # contempt means the same for both sides (the material terms alone favour one).
        self.balance = 0
        self.balance = evaluate(Position(self, parse_position(v.start, g.size), ATTACKERS))

    def hash_of(self, board: Sequence[int], side: int) -> int:
        """Zobrist hash of a board (a list, or TaflGame's repetition key bytes)."""
        h = self.zobrist_side if side else 0
        for sq, piece in enumerate(board):
            if piece:
                h ^= self.zobrist[piece][sq]
        return h


def _steps(a: int, b: int, size: int) -> int:
    """Manhattan distance between two squares."""
    return abs(a // size - b // size) + abs(a % size - b % size)


def _corner_lines(rays: Sequence[Sequence[int]], corners: frozenset[int]) -> tuple[tuple[int, ...], ...]:
    """The straight paths from a square to the corners on its lines (corner included)."""
    return tuple(tuple(ray) for ray in rays if ray and ray[-1] in corners)


def _beside_corners(neighbours: Sequence[Sequence[int]], corners: frozenset[int]) -> frozenset[int]:
    return frozenset(nb for c in corners for nb in neighbours[c] if nb >= 0)


def _goal_lines(rays: Sequence[Sequence[int]], goals: frozenset[int]) -> tuple[tuple[int, ...], ...]:
    """Per ray, the path to the first goal square on it (goal included), if any."""
    out = []
    for ray in rays:
        for i, sq in enumerate(ray):
            if sq in goals:
                out.append(tuple(ray[:i + 1]))
                break
    return tuple(out)


def _corner_guard_bonus(size: int) -> tuple[int, ...]:
    """Attacker piece-square bonus: squares that wall a corner off from the king.

    The square diagonal to a corner cannot be captured against it and
    watches both edges into the corner; the two squares a knight's move
    from the corner complete the usual three-piece blockade.
    """
    bonus = [0] * (size * size)
    last = size - 1
    for cr, cc in ((0, 0), (0, last), (last, 0), (last, last)):
        dr = 1 if cr == 0 else -1
        dc = 1 if cc == 0 else -1
        bonus[(cr + dr) * size + cc + dc] = W_GUARD_DIAGONAL
        bonus[(cr + 2 * dr) * size + cc + dc] = W_GUARD_WALL
        bonus[(cr + dr) * size + cc + 2 * dc] = W_GUARD_WALL
    return tuple(bonus)


@cache
def tables_for(name: str, throne_counts: bool) -> Tables:
    return Tables(name, throne_counts)


# -- the search board ------------------------------------------------------------


class Position:
    """A position the search can make and unmake moves on.

    ``winner`` is set (0 attackers, 1 defenders) when the last move captured
    the king or brought him to a corner, or closed an exit fort or a ring round
    every defender (TF-22, TF-24); legal-move exhaustion, repetition and the
    quiet-move draw are the searcher's business.
    """

    __slots__ = ("tab", "board", "side", "king", "squares", "bits", "hash", "quiet", "winner", "stack")

    def __init__(self, tab: Tables, board: list[int], side: int, quiet: int = 0) -> None:
        self.tab = tab
        self.board = board[:]
        self.side = side
        self.king = board.index(KING) if KING in board else -1
        self.squares = (
            {sq for sq, p in enumerate(board) if p == ATTACKER},
            {sq for sq, p in enumerate(board) if p in (DEFENDER, KING)},
        )
        self.bits = [sum(tab.bit[sq] for sq in s) for s in self.squares]
        self.hash = tab.hash_of(board, side)
        self.quiet = quiet
        self.winner = -1
        self.stack: list[tuple] = []

    @classmethod
    def from_game(cls, game: TaflGame) -> "Position":
        # The option that makes the empty throne count round the king: TF-3, or Brandubh's TF-28.
        opts = game.opts
        tab = tables_for(game.variant, bool(opts.get("throne_counts_for_king", opts.get("strong_king_at_throne"))))
        return cls(tab, game.board, game.to_move, game.quiet)

    def pass_turn(self) -> None:
        """Hand the move to the other side (a null move, for the search; its own inverse)."""
        self.side ^= 1
        self.hash ^= self.tab.zobrist_side

    # -- moves --

    def may_play(self, move: int) -> bool:
        """Whether ``move`` is legal here (a transposition-table move, checked before it is made)."""
        board, tab = self.board, self.tab
        f, t = move >> 8, move & 255
        piece = board[f]
        if not piece or board[t] or (piece == ATTACKER) != (self.side == ATTACKERS):
            return False
        stop = (tab.attacker_stop[tab.camp_of[f]] if piece == ATTACKER
                else tab.king_stop if piece == KING else tab.defender_stop)
        if not stop[t]:
            return False
        for ray in tab.rays[f]:
            if t in ray:
                return not any(board[sq] for sq in ray[:ray.index(t)])
        return False

    def moves(self) -> list[int]:
        """Every legal move of the side to move (trad play.1, gild BASIC MOVES, TF-2, TF-7)."""
        tab, board, rays = self.tab, self.board, self.tab.rays
        out: list[int] = []
        append = out.append
        if self.side == ATTACKERS:
            stops, camp_of = tab.attacker_stop, tab.camp_of
            pieces = [(f, stops[camp_of[f]]) for f in self.squares[ATTACKERS]]
        else:
            king = self.king
            pieces = [(f, tab.king_stop if f == king else tab.defender_stop) for f in self.squares[DEFENDERS]]
        for f, ok in pieces:
            base = f << 8
            for ray in rays[f]:
                for t in ray:
                    if board[t]:
                        break
                    if ok[t]:
                        append(base | t)
        return out

    def moves_to(self, targets: int) -> list[int]:
        """The legal moves of the side to move that end on one of the empty squares ``targets``
        (a bitboard): along each line from a target, the first piece, if it is one of ours and
        may stop there."""
        tab, board, rays = self.tab, self.board, self.tab.rays
        ours_attackers = self.side == ATTACKERS
        out: list[int] = []
        while targets:
            low = targets & -targets
            targets ^= low
            t = low.bit_length() - 1
            for ray in rays[t]:
                for f in ray:
                    piece = board[f]
                    if piece:
                        if (piece == ATTACKER) == ours_attackers and (
                                tab.attacker_stop[tab.camp_of[f]] if piece == ATTACKER
                                else tab.king_stop if piece == KING else tab.defender_stop)[t]:
                            out.append(f << 8 | t)
                        break
        return out

    def make(self, move: int) -> None:
        """Play a legal move (never from a won position) and push what undoes it."""
        tab, board, bits = self.tab, self.board, self.bits
        f, t = move >> 8, move & 255
        side = self.side
        piece = board[f]
        undo = (move, piece, self.hash, self.quiet, self.king, bits[0], bits[1])
        board[f] = EMPTY
        board[t] = piece
        own = self.squares[side]
        own.remove(f)
        own.add(t)
        zob = tab.zobrist
        h = self.hash ^ zob[piece][f] ^ zob[piece][t] ^ tab.zobrist_side
        bits[side] ^= tab.bit[f] | tab.bit[t]
        if piece == KING:
            self.king = t
            if t in tab.corners:
                self.winner = DEFENDERS
        captured = self._captures(t, side)
        if captured:
            enemy = self.squares[1 - side]
            for sq in captured:
                victim = board[sq]
                board[sq] = EMPTY
                enemy.remove(sq)
                h ^= zob[victim][sq]
                bits[1 - side] ^= tab.bit[sq]
                if victim == KING:
                    self.king = -1
                    self.winner = ATTACKERS
            self.quiet = 0
        else:
            self.quiet += 1
        if self.winner < 0 and (tab.edge_fort or tab.encirclement):
            self._extra_ends(side)
        self.stack.append((*undo, captured))
        self.hash = h
        self.side = 1 - side

    def unmake(self) -> None:
        move, piece, self.hash, self.quiet, self.king, a_bits, d_bits, captured = self.stack.pop()
        board = self.board
        f, t = move >> 8, move & 255
        mover = 1 - self.side
        board[t] = EMPTY
        board[f] = piece
        own = self.squares[mover]
        own.remove(t)
        own.add(f)
        if captured:
            victim = ATTACKER if mover == DEFENDERS else DEFENDER
            enemy = self.squares[self.side]
            for sq in captured:
                board[sq] = KING if sq == self.king else victim
                enemy.add(sq)
        self.bits[0], self.bits[1] = a_bits, d_bits
        self.side = mover
        self.winner = -1

    # -- captures (trad play.3-5, gild CAPTURE, TF-3, TF-4, TF-10, TF-11, TF-13, TF-15) --

    def hostile_to(self, sq: int, victim_side: int) -> bool:
        """Whether ``sq`` helps capture a piece of ``victim_side``: an enemy or a hostile empty square."""
        v = self.board[sq]
        if v == EMPTY:
            return self.tab.hostile_empty[sq]
        return (v == ATTACKER) != (victim_side == ATTACKERS)

    def hostile_to_king(self, sq: int) -> bool:
        """An anvil for a king taken by two (TF-13, TF-28): an attacker, or an empty camp (gild),
        corner or hostile throne (Brandubh)."""
        v = self.board[sq]
        return v == ATTACKER if v != EMPTY else self.tab.king_anvil[sq]

    def _captures(self, t: int, side: int) -> tuple[int, ...]:
        """Squares captured by the piece of ``side`` that has just arrived on ``t``."""
        board = self.board
        out: tuple[int, ...] = ()
        for victim_sq, far in self.tab.capture_pairs[t]:
            victim = board[victim_sq]
            if victim == EMPTY or (victim == ATTACKER) == (side == ATTACKERS):
                continue
            if victim == KING:
                if self._king_falls(victim_sq, far):
                    out += (victim_sq,)
            elif far >= 0 and self.hostile_to(far, 1 - side):
                out += (victim_sq,)
        if self.tab.shieldwall and self.tab.on_edge[t]:
            out += tuple(sq for sq in shieldwall_captures(self.tab.geo, board, t, side) if sq not in out)
        return out

    def _extra_ends(self, mover: int) -> None:
        """Set ``winner`` for an exit fort (TF-22) or an encirclement (TF-24) the last move made."""
        tab = self.tab
        if mover == DEFENDERS:
            if tab.edge_fort and tab.on_edge[self.king] and edge_fort(tab.geo, self.board, tab.shieldwall):
                self.winner = DEFENDERS
        elif tab.encirclement and self._encircled():
            self.winner = ATTACKERS

    def _encircled(self) -> bool:
        """rules.encircled on bitboards: no defender reaches the edge through non-attacker squares."""
        tab, size = self.tab, self.tab.size
        free = tab.full & ~self.bits[ATTACKERS]
        reach = self.bits[DEFENDERS]
        while not reach & tab.edge_mask:
            grow = (reach | reach << size | reach >> size
                    | (reach << 1) & tab.file_a_clear | (reach >> 1) & tab.last_file_clear) & free
            if grow == reach:
                return True
            reach = grow
        return False

    def _king_falls(self, k: int, far: int) -> bool:
        """Whether the king on ``k`` is captured now, an attacker having closed in opposite ``far``."""
        tab = self.tab
        if tab.king_two[k]:
            return far >= 0 and self.hostile_to_king(far)
        ring = tab.king_ring[k]
        return bool(ring) and all(self.closes_ring(sq) for sq in ring)

    def closes_ring(self, sq: int) -> bool:
        """One of the four sides needed around the king (TF-3: maybe the empty throne)."""
        return self.board[sq] == ATTACKER or (sq == self.tab.centre and self.tab.throne_counts)

    # -- one-move threats, for the horizon and for move ordering --

    def king_capture_squares(self) -> tuple[int, ...]:
        """Empty squares where an arriving attacker would capture the king."""
        k, tab, board = self.king, self.tab, self.board
        if k < 0:
            return ()
        if tab.king_two[k]:
            out: tuple[int, ...] = ()
            for a, b in tab.axes[k]:
                if board[a] == EMPTY and self.hostile_to_king(b):
                    out += (a,)
                if board[b] == EMPTY and self.hostile_to_king(a):
                    out += (b,)
            return out
        open_sides = [sq for sq in tab.king_ring[k] if not self.closes_ring(sq)]
        if len(open_sides) == 1 and board[open_sides[0]] == EMPTY:
            return (open_sides[0],)
        return ()

    def attacker_reaches(self, t: int) -> bool:
        """Whether some attacker can move to the empty square ``t`` now."""
        tab, board = self.tab, self.board
        for ray in tab.rays[t]:
            for sq in ray:
                if board[sq]:
                    if board[sq] == ATTACKER and tab.attacker_stop[tab.camp_of[sq]][t]:
                        return True
                    break
        return False

    def king_capture_in_one(self) -> bool:
        return any(self.attacker_reaches(t) for t in self.king_capture_squares())

    def open_corner_lines(self, sq: int) -> int:
        """How many corners a king on ``sq`` could move to now."""
        occupied = self.bits[0] | self.bits[1]
        return sum(not occupied & path for path in self.tab.corner_masks[sq])

    def open_goal_lines(self, sq: int) -> int:
        """How many goal squares (corners, and the safe squares beside them) a king on ``sq``
        could move to now, one per line."""
        occupied = self.bits[0] | self.bits[1]
        return sum(not occupied & path for path in self.tab.goal_masks[sq])

    def king_escape_unstoppable(self) -> bool:
        """The attackers to move cannot stop the king reaching a goal next move: he has open
        lines on two rays, or one whose squares no attacker can reach (the capture of the king
        is checked before this)."""
        tab, k = self.tab, self.king
        occupied = self.bits[0] | self.bits[1]
        open_paths = [path for path, mask in zip(tab.goal_lines[k], tab.goal_masks[k]) if not occupied & mask]
        if len(open_paths) != 1:
            return len(open_paths) > 1
        return not any(self.attacker_reaches(sq) for sq in open_paths[0] if sq not in tab.corners)

    def attacker_relevant(self) -> int:
        """Squares (a bitboard) where an attacker's quiet move can matter within a move or two: the
        squares the king can move to and the open lines from them to a goal (the blocks), the
        king's neighbours (the ring), the corner guards."""
        tab, board, k = self.tab, self.board, self.king
        if k < 0:  # no king (the search stops at his capture first): nothing to prune by
            return tab.full
        occupied = self.bits[0] | self.bits[1]
        out = tab.guard_all | tab.neighbour_mask[k]
        for ray in tab.rays[k]:
            for t in ray:
                if board[t]:
                    break
                out |= tab.bit[t]
                for path in tab.goal_masks[t]:
                    if not occupied & path:
                        out |= path
        return out

    def king_escape_in_one(self) -> bool:
        return self.king >= 0 and self.open_corner_lines(self.king) > 0

    def capture_squares(self) -> int:
        """Empty squares (a bitboard) where a piece of the side to move would capture something:
        beside an enemy other than the king with a hostile square beyond him (an own piece, or a
        hostile empty square), and for the attackers where one would capture the king."""
        tab, bits, side = self.tab, self.bits, self.side
        size, east_ok, west_ok = tab.size, tab.file_a_clear, tab.last_file_clear
        empty = tab.full & ~(bits[0] | bits[1])
        enemy = bits[1 - side]
        if side == ATTACKERS and self.king >= 0:
            enemy &= ~tab.bit[self.king]
        hostile = bits[side] | empty & tab.hostile_empty_mask
        # Where the next square one way is an enemy and the one after it hostile, each way.
        out = ((enemy & hostile >> 1 & west_ok) >> 1 & west_ok
               | (enemy & hostile << 1 & east_ok) << 1 & east_ok
               | (enemy & hostile >> size) >> size
               | (enemy & hostile << size) << size) & empty
        if side == ATTACKERS:
            for sq in self.king_capture_squares():
                out |= tab.bit[sq]
        return out


# -- evaluation ------------------------------------------------------------------


def evaluate(pos: Position) -> int:
    """Static score for the side to move (the search has already checked for one-move wins)."""
    att, dfn = pos.squares
    defenders = len(dfn) - (pos.king >= 0)
    score = len(att) * W_ATTACKER - defenders * W_DEFENDER
    a_bits = pos.bits[ATTACKERS]
    for weight, squares in pos.tab.guard_masks:
        score += weight * (a_bits & squares).bit_count()
    if W_MOBILITY:
        score += W_MOBILITY * _mobility(pos)
    if pos.king >= 0:
        score += sum(map(pos.tab.close_in[pos.king].__getitem__, att))
        score += _king_freedom(pos) + _king_pressure(pos)
        if defenders <= ROOM_FEW:
            score += W_ROOM * (pos.tab.n - _room(pos))
    score -= pos.tab.balance
    return score if pos.side == ATTACKERS else -score


def _mobility(pos: Position) -> int:
    """How many more squares the attackers' pieces could move to than the defenders'.

    Occluded fills by doubling (Kogge-Stone) on the bitboards: per direction, squares
    reachable through 1, 2, 4 and 8 empty squares, the empty chains shared by both sides.
    A run is at most 15 squares, enough for boards up to 16x16.
    """
    tab = pos.tab
    a0, d0 = pos.bits
    empty = ~(a0 | d0) & tab.full
    size = tab.size
    ra = rd = 0
    for s, p1 in ((size, empty), (1, empty & tab.file_a_clear)):  # towards higher squares
        s2, s4, s8 = s + s, 4 * s, 8 * s
        p2 = p1 & p1 << s
        p4 = p2 & p2 << s2
        p8 = p4 & p4 << s4
        a = a0 | p1 & a0 << s
        a |= p2 & a << s2
        a |= p4 & a << s4
        ra |= a | p8 & a << s8
        d = d0 | p1 & d0 << s
        d |= p2 & d << s2
        d |= p4 & d << s4
        rd |= d | p8 & d << s8
    for s, p1 in ((size, empty), (1, empty & tab.last_file_clear)):  # towards lower squares
        s2, s4, s8 = s + s, 4 * s, 8 * s
        p2 = p1 & p1 >> s
        p4 = p2 & p2 >> s2
        p8 = p4 & p4 >> s4
        a = a0 | p1 & a0 >> s
        a |= p2 & a >> s2
        a |= p4 & a >> s4
        ra |= a | p8 & a >> s8
        d = d0 | p1 & d0 >> s
        d |= p2 & d >> s2
        d |= p4 & d >> s4
        rd |= d | p8 & d >> s8
    plain = empty & tab.plain_mask
    return (ra & plain).bit_count() - (rd & plain).bit_count()


def _room(pos: Position) -> int:
    """Empty squares the defenders could ever reach, moving freely: the attackers win by
    walling in the last of them (TF-9), for the king cannot be taken on the edge (TF-10)."""
    tab = pos.tab
    empty = ~(pos.bits[0] | pos.bits[1]) & tab.full
    east, west, size = empty & tab.file_a_clear, empty & tab.last_file_clear, tab.size
    reach = 0
    front = pos.bits[DEFENDERS]
    while front:
        front = ((front << size | front >> size) & empty | (front << 1) & east | (front >> 1) & west) & ~reach
        reach |= front
    return reach.bit_count()


def _king_freedom(pos: Position) -> int:
    """How close the king is to escaping: open lines, two-move routes, mobility."""
    tab, board, k = pos.tab, pos.board, pos.king
    king_stop, goals, goal_masks = tab.king_stop, tab.goals, tab.goal_masks
    occupied = pos.bits[0] | pos.bits[1]
    mobility = routes = forks = open_now = 0
    for ray in tab.rays[k]:
        for t in ray:
            if board[t]:
                break
            if not king_stop[t]:
                continue  # a camp square: the king passes but cannot stop
            mobility += 1
            if t in goals:
                open_now += 1
                break  # one line (a goal beside a corner and the corner behind it are one)
            seen = 0  # open_goal_lines(t), in line
            for path in goal_masks[t]:
                if not occupied & path:
                    seen += 1
            if seen:
                routes += 1
                forks += seen > 1
    score = -(W_KING_MOBILITY * mobility + W_ROUTE_2 * routes + W_FORK_2 * forks)
    score -= W_KING_NEAR * (tab.size - tab.corner_distance[k])
    if open_now:
        score -= W_ESCAPE_THREAT if open_now == 1 else W_ESCAPE_FORK
    return score


def _king_pressure(pos: Position) -> int:
    """How close the attackers are to capturing the king under this variant's rule."""
    tab, board, k = pos.tab, pos.board, pos.king
    if tab.hof_rule and k != tab.centre:
        score = 0
        for a, b in tab.axes[k]:
            closed_a, closed_b = pos.hostile_to_king(a), pos.hostile_to_king(b)
            if closed_a != closed_b and board[b if closed_a else a] == EMPTY:
                score += W_AXIS_THREAT
        return score + W_ADJACENT * sum(board[sq] == ATTACKER for sq in tab.neighbours[k] if sq >= 0)
    if not tab.king_ring[k]:
        return 0  # TF-10: on the edge he cannot be surrounded
    # closes_ring over the four sides: the attackers there, and maybe the empty throne.
    return W_RING[(pos.bits[ATTACKERS] & tab.ring_mask[k]).bit_count() + tab.ring_throne[k]]


# -- search ----------------------------------------------------------------------

EXACT, LOWER, UPPER = 0, 1, 2
NULL_MIN_DEPTH, NULL_REDUCTION = 3, 2
# Late-move pruning for the attackers near the horizon: at an attackers' node this close to the leaves,
# only the first LMP_AFTER quiet moves are searched whatever they are, and after them only those to
# squares that matter soon (Position.attacker_relevant). The attackers' two dozen pieces give them
# twice the defenders' moves, nearly all far from the king; searching them all left the attackers two
# plies shallower than the defenders in the same time (docs/performance.md, "Tafl: the AI"). The pruned
# moves are still searched when every other move loses, so a forced loss (and the opponent's forced
# win, which ends the deepening) is never an artefact of the pruning.
LMP_AFTER, LMP_DEPTH = 4, 3
PRUNED = -1  # staged() yields it before the pruned moves: no move is a negative int
ORDER_TT = 1 << 30
ORDER_CAPTURE = 1 << 26
ORDER_KILLER = 1 << 24
ORDER_KING = 1 << 12  # scaled by how close the king's destination is to a corner


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True, slots=True)
class SearchInfo:
    move: tuple[str, str] | None  # the chosen option code; None when the game is over
    score: int  # for the side to move; beyond +-MATE_BOUND a forced win or loss
    depth: int  # the last depth searched to the end
    nodes: int
    elapsed: float  # seconds


@dataclass(frozen=True, slots=True)
class Line:
    """One of the best moves in an analysis, and the play the search expects after it."""

    moves: tuple[tuple[str, str], ...]  # from the position analysed, as deep as the table knows
    score: int  # of the first move, for the side to move; beyond +-MATE_BOUND a forced win or loss


class _Search:
    """One search from one root: owns the transposition table and ordering statistics."""

    def __init__(self, game: TaflGame, pos: Position, deadline: float,
                 stop: Callable[[], bool] = lambda: False, max_nodes: int | None = None) -> None:
        self.pos = pos
        self.deadline = deadline
        self.stop = stop
        # A budget of nodes instead of time (a review's): polled with the clock, so the search ends at
        # the same node however fast the machine is, and the result depends on the position alone.
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.quiet_limit: int = game.opts["quiet_moves"]
        self.repetition: str = game.opts["repetition"]
        self.stuck_draws = game.v.no_moves == "draw"  # Brandubh (TF-29); elsewhere no move loses (TF-9)
        # Occurrences of each position so far (TF-6): the game's, then the search path's.
        self.seen: dict[int, int] = {}
        for key, count in game.history.items():
            h = pos.tab.hash_of(key[:-1], key[-1])
            self.seen[h] = self.seen.get(h, 0) + count
        self.nodes = 0
        self.may_stop = False  # depth 1 always completes
        self.root_side = pos.side
        self.contempt = CONTEMPT[pos.side]
        self.noise: dict[int, int] = {}  # root move -> score offset (the beginner's deliberate errors)
        self.partial: tuple[int, int] | None = None  # (score, move) of the iteration in progress
        self.tt: dict[int, tuple[int, int, int, int]] = {}  # hash -> depth, flag, score, move
        self.killers = [[0, 0] for _ in range(MAX_DEPTH + 2)]
        self.history = [0] * (pos.tab.n << 8)  # move -> cutoff credit, indexed by the move int (from << 8 | to)

    def root(self, depth: int, moves: list[int]) -> tuple[int, int]:
        """Search every root move to ``depth``: (score, best move).

        ``partial`` holds the best so far once the first move is searched, so a
        search stopped in the middle of this depth can still use what it learnt.
        """
        pos, noise = self.pos, self.noise
        self.may_stop = depth > 1
        self.partial = None
        self.history = [h >> 1 for h in self.history]
        best, best_score = moves[0], -INFINITY
        for i, move in enumerate(moves):
            offset = noise.get(move, 0)
            pos.make(move)
            if i == 0:
                score = -self.negamax(depth - 1, -INFINITY, INFINITY, 1)
            else:
                alpha = best_score - offset  # this move must beat the best with its own offset
                score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self.negamax(depth - 1, -INFINITY, -alpha, 1)
            pos.unmake()
            if score + offset > best_score:
                best_score, best = score + offset, move
            self.partial = (best_score, best)
        return best_score, best

    def root_lines(self, depth: int, moves: list[int], count: int) -> list[tuple[int, int]]:
        """Every root move searched to ``depth``: the best ``count`` as (score, move), best first,
        their scores exact. A later move is first searched only to see whether it beats the
        ``count``-th best so far (a null window), and to its exact score only if it does."""
        pos = self.pos
        self.may_stop = depth > 1
        self.history = [h >> 1 for h in self.history]
        best: list[tuple[int, int]] = []
        for move in moves:
            pos.make(move)
            if len(best) < count:
                score = -self.negamax(depth - 1, -INFINITY, INFINITY, 1)
            else:
                alpha = best[-1][0]
                score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self.negamax(depth - 1, -INFINITY, -alpha, 1)
            pos.unmake()
            if len(best) < count or score > best[-1][0]:
                best.append((score, move))
                best.sort(key=lambda entry: -entry[0])  # stable: of equal scores the earlier stays first
                del best[count:]
        return best

    def line_after(self, move: int, limit: int) -> list[int]:
        """``move`` and the moves the transposition table expects after it, while they stay legal,
        the game goes on and no position comes back: at most ``limit`` moves in all."""
        pos, tt = self.pos, self.tt
        line = [move]
        pos.make(move)
        seen = {pos.hash}
        while len(line) < limit and pos.winner < 0:
            entry = tt.get(pos.hash)
            if entry is None or not entry[3] or not pos.may_play(entry[3]):
                break
            pos.make(entry[3])
            line.append(entry[3])
            if pos.hash in seen:
                break
            seen.add(pos.hash)
        for _ in line:
            pos.unmake()
        return line

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool = True) -> int:
        pos = self.pos
        self.nodes += 1
        if not self.nodes & (CHECK_EVERY - 1) and self.may_stop and (
                self.nodes >= self.max_nodes or perf_counter() > self.deadline or self.stop()):
            raise _OutOfTime
        if pos.winner >= 0:
            return -(MATE - ply)  # the opponent's last move won
        ended = self.rule_end(ply)
        if ended is not None:
            return ended
        if depth <= 0 or ply >= MAX_DEPTH:
            return self.leaf(ply)
        seen, key = self.seen, pos.hash
        seen[key] = seen.get(key, 0) + 1
        try:
            return self.expand(depth, alpha, beta, ply, null_ok)
        finally:
            seen[key] -= 1

    def rule_end(self, ply: int) -> int | None:
        """The score if repetition or the quiet-move rule ends the game here; else None."""
        pos = self.pos
        if self.repetition != "off" and self.seen.get(pos.hash, 0) >= 2:
            if self.repetition == "draw":
                outcome = self.draw_score()
            elif self.repetition == "defenders-lose":  # TF-23: whoever repeats
                outcome = MATE - ply if pos.side == ATTACKERS else -(MATE - ply)
            else:
                outcome = MATE - ply  # TF-6: the repeater (the side that just moved) loses
        elif self.quiet_limit and pos.quiet >= self.quiet_limit:
            outcome = self.draw_score()  # TF-5
        else:
            return None
        return outcome if pos.moves() else self.stuck(ply)  # no legal move is checked first

    def draw_score(self) -> int:
        """A draw, for the side to move: contempt counts it against the side searching."""
        return -self.contempt if self.pos.side == self.root_side else self.contempt

    def stuck(self, ply: int) -> int:
        """The side to move has no legal move: it loses (TF-9), or in Brandubh draws (TF-29)."""
        return self.draw_score() if self.stuck_draws else -(MATE - ply)

    def expand(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool) -> int:
        """The interior of :meth:`negamax`: transposition table, null move, then every move."""
        pos = self.pos
        entry = self.tt.get(pos.hash)
        tt_move = 0
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            draw_ahead = self.quiet_limit and self.quiet_limit - pos.quiet <= depth
            if e_depth >= depth and not draw_ahead:
                score = _from_tt(e_score, ply)
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return score

        if null_ok and depth >= NULL_MIN_DEPTH and beta < MATE_BOUND and self.null_move_fails_high(depth, beta, ply):
            return beta

        alpha_in, best, best_move = alpha, -INFINITY, 0
        killers = self.killers[ply]
        searched = 0
        if tt_move and pos.may_play(tt_move):
            # The table's move first, before any move is generated: it often cuts at once.
            pos.make(tt_move)
            quiet_move = pos.quiet > 0
            best = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            pos.unmake()
            best_move, searched = tt_move, 1
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    if quiet_move:
                        self.remember_cutoff(tt_move, depth, ply)
                    return self.store(depth, LOWER, best, ply, best_move)

        prune = depth <= LMP_DEPTH and pos.side == ATTACKERS
        for move in self.staged(tt_move, ply, prune):
            if move == PRUNED:  # the pruned moves follow: searched only if every move so far loses,
                if best > -MATE_BOUND:  # so that pruning never makes a forced loss (or a false mate) up
                    break
                continue
            if not searched:
                best_move = move
            pos.make(move)
            quiet_move = pos.quiet > 0
            if not searched:
                score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            else:
                # Late, quiet, non-killer moves are first tried a ply shallower (LMR).
                reduction = 1 if depth >= 3 and searched >= 4 and quiet_move and move not in killers else 0
                score = -self.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1)
                if score > alpha and (reduction or score < beta):
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            pos.unmake()
            searched += 1
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet_move:
                            self.remember_cutoff(move, depth, ply)
                        break

        if not searched:
            return self.stuck(ply)
        flag = LOWER if best >= beta else EXACT if best > alpha_in else UPPER
        return self.store(depth, flag, best, ply, best_move)

    def store(self, depth: int, flag: int, best: int, ply: int, best_move: int) -> int:
        """Record a searched node in the transposition table; return its score."""
        tt = self.tt
        if len(tt) >= TT_LIMIT:
            tt.clear()  # bounds memory on long searches; the next iteration refills it
        tt[self.pos.hash] = (depth, flag, _to_tt(best, ply), best_move)
        return best

    def null_move_fails_high(self, depth: int, beta: int, ply: int) -> bool:
        """If passing still scores ``beta`` in a shallower search, a real move will too.

        Zugzwang is rare in tafl; threats the pass ignores (an open line for the
        king, a capture of the king) show up as mate scores and defeat the cut.
        """
        pos = self.pos
        pos.pass_turn()
        score = -self.negamax(depth - 1 - NULL_REDUCTION, -beta, -beta + 1, ply + 1, False)
        pos.pass_turn()
        return score >= beta

    def leaf(self, ply: int) -> int:
        """Static score, after the one-move wins a static score cannot see."""
        pos = self.pos
        if pos.side == DEFENDERS and pos.king_escape_in_one():
            return MATE - ply - 1
        if pos.side == ATTACKERS and pos.king_capture_in_one():
            return MATE - ply - 1
        if pos.king >= 0 and self.escape_ahead():
            # The king reaches a goal and then the corner: the defenders to move go there; the
            # attackers to move cannot block two lines, or a line none of them can reach.
            return MATE - ply - 3 if pos.side == DEFENDERS else -(MATE - ply - 3)
        if len(pos.squares[pos.side]) <= 2 and not pos.moves():
            return self.stuck(ply)  # a nearly wiped-out side may be stuck
        return evaluate(pos)

    def escape_ahead(self) -> bool:
        """Whether the king's escape is certain in three plies (:meth:`leaf`), unless the
        quiet-move rule draws first."""
        pos = self.pos
        if self.quiet_limit and pos.quiet + 2 >= self.quiet_limit:
            return False
        if pos.side == DEFENDERS:
            return pos.open_goal_lines(pos.king) > 0
        return pos.king_escape_unstoppable()

    def staged(self, tt_move: int, ply: int, prune: bool = False) -> Iterator[int]:
        """The legal moves but ``tt_move`` (searched already), best first as :meth:`order` ranks
        them, made a stage at a time: the captures, the killers, and only if neither cut, the
        quiet rest. Nearly every node that is not searched to the end cuts on one of its first
        few moves, so most never list and sort all of theirs. With ``prune`` the quiet rest
        stops after LMP_AFTER moves but for those to relevant squares (late-move pruning): the
        others come after PRUNED, for the caller to search only if all else loses."""
        pos = self.pos
        captures = pos.capture_squares()
        killers = self.killers[ply]
        key = self._quiet_key()
        first = [m for m in pos.moves_to(captures) if m != tt_move]
        if first:
            if len(first) > 1:
                first.sort(key=lambda m: key(m) + ORDER_KILLER * (m in killers), reverse=True)
            yield from first
        second = [k for k in killers if k and k != tt_move and not captures >> (k & 255) & 1 and pos.may_play(k)]
        if second:
            if len(second) > 1:
                second.sort(key=key, reverse=True)
            yield from second
        rest = [m for m in pos.moves() if not captures >> (m & 255) & 1 and m != tt_move and m not in killers]
        rest.sort(key=key, reverse=True)
        if prune and len(rest) > LMP_AFTER:
            relevant = pos.attacker_relevant()
            late = rest[LMP_AFTER:]
            rest[LMP_AFTER:] = [m for m in late if relevant >> (m & 255) & 1]
            yield from rest
            yield PRUNED
            yield from (m for m in late if not relevant >> (m & 255) & 1)
            return
        yield from rest

    def _quiet_key(self) -> Callable[[int], int]:
        """A move's rank without the capture, killer and table bonuses: its history, and for a
        king's move how close it takes him to a corner."""
        history, pos = self.history, self.pos
        if pos.side == ATTACKERS:
            return history.__getitem__
        king, bonus = pos.king, pos.tab.king_order_bonus
        return lambda m: history[m] + bonus[m & 255] if m >> 8 == king else history[m]

    def order(self, moves: list[int], tt_move: int, ply: int) -> int:
        """Sort ``moves`` best-first in place; return the squares that capture (a bitboard)."""
        captures = self.pos.capture_squares()
        killers = self.killers[ply]
        key = self._quiet_key()

        def rank(move: int) -> int:
            score = key(move)
            if move == tt_move:
                score += ORDER_TT
            if captures >> (move & 255) & 1:
                score += ORDER_CAPTURE
            if move in killers:
                score += ORDER_KILLER
            return score

        moves.sort(key=rank, reverse=True)
        return captures

    def remember_cutoff(self, move: int, depth: int, ply: int) -> None:
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        self.history[move] += depth * depth


def _to_tt(score: int, ply: int) -> int:
    """Mate scores are stored relative to the node, not the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


# -- the controller --------------------------------------------------------------


class TaflAI:
    """A Tafl controller: alpha-beta search under a time budget per move.

    With ``max_depth`` set and a budget large enough to reach it, the result
    depends only on the game and ``seed`` (ties between equally ordered root
    moves are shuffled by a SplitMix64 seeded from ``seed`` and the position).
    """

    def __init__(self, time_budget: float = 1.0, max_depth: int | None = None, seed: int = 0,
                 stop: Callable[[], bool] | None = None, noise: int = 0, max_nodes: int | None = None) -> None:
        """``stop`` is polled during the search: when it returns True (the player quit),
        the search ends at once with the best move found so far. ``noise`` (in hundredths
        of an attacker) adds a seeded random offset below it to each root move's score:
        the weaker levels' mistakes (core/tafl/__init__.py, LEVELS). ``max_nodes`` ends each search after
        about that many nodes (whole iterations only count), whatever the clock says: a review's
        budget, so that its figures do not depend on the machine (core/review.py)."""
        self.time_budget = time_budget
        self.noise = max(0, noise)
        self.stop = stop or (lambda: False)
        self.max_depth = MAX_DEPTH if max_depth is None else max(1, min(max_depth, MAX_DEPTH))
        self.seed = seed
        self.max_nodes = max_nodes
        self.last: SearchInfo | None = None

    def choose(self, game: Game, decision: Decision) -> tuple[str, str]:
        assert isinstance(game, TaflGame), "the tafl AI plays tafl"
        info = self.search(game)
        assert info.move is not None, "no decision is pending in a finished game"
        return info.move

    def search(self, game: TaflGame) -> SearchInfo:
        """The best move by iterative deepening; at once when the game is over or the move forced."""
        start = perf_counter()
        legal = game.legal_moves()
        names = game.geo.names
        if game.result is not None or len(legal) <= 1:
            move = (names[legal[0][0]], names[legal[0][1]]) if legal else None
            self.last = SearchInfo(move, 0, 0, 0, perf_counter() - start)
            return self.last
        pos = Position.from_game(game)
        search = _Search(game, pos, start + self.time_budget, self.stop, self.max_nodes)
        moves = self._root_moves(search, [encode(f, t) for f, t in legal])
        if self.noise:
            rng = SplitMix64(self.seed ^ search.pos.hash ^ 0x5EED)
            search.noise = {m: rng.below(self.noise) for m in moves}
        best, score, depth = moves[0], 0, 0
        for d in range(1, self.max_depth + 1):
            # Search until the deadline: a stopped iteration still counts once its first move,
            # the previous best, is searched, since every later move had to beat it.
            try:
                score, best = search.root(d, moves)
            except _OutOfTime:
                if search.partial is not None:
                    score, best = search.partial
                break
            depth = d
            moves.remove(best)
            moves.insert(0, best)
            if abs(score) > MATE_BOUND:
                break
        f, t = decode(best)
        self.last = SearchInfo((names[f], names[t]), score, depth, search.nodes, perf_counter() - start)
        return self.last

    def analyse(self, game: TaflGame, count: int) -> list[Line]:
        """The ``count`` best moves (fewer when there are fewer) by iterative deepening within the
        budget, best first, each with its score and expected line; none when the game is over."""
        legal = game.legal_moves()
        if game.result is not None or not legal:
            return []
        pos = Position.from_game(game)
        search = _Search(game, pos, perf_counter() + self.time_budget, self.stop, self.max_nodes)
        moves = self._root_moves(search, [encode(f, t) for f, t in legal])
        count = max(1, min(count, len(moves)))
        lines: list[tuple[int, list[int]]] = []
        for d in range(1, self.max_depth + 1):
            try:
                best = search.root_lines(d, moves, count)
            except _OutOfTime:
                break  # the last whole depth stands: a stopped one has not ranked its later moves
            # Each line read now, from the table as this depth left it: a deeper search the clock stops
            # writes over it, and its lines would no longer be the ones these scores were given for.
            lines = [(score, search.line_after(move, d)) for score, move in best]
            ranked = [move for _, move in best]
            moves = ranked + [move for move in moves if move not in ranked]
            if abs(best[0][0]) > MATE_BOUND:
                break
        names = game.geo.names
        return [Line(tuple((names[f], names[t]) for f, t in map(decode, line)), score) for score, line in lines]

    def _root_moves(self, search: _Search, moves: list[int]) -> list[int]:
        """Root moves shuffled by the seeded generator, then put in search order."""
        rng = SplitMix64(self.seed ^ search.pos.hash)
        shuffled = [moves[i] for i in rng.permutation(len(moves))]
        search.order(shuffled, 0, 0)
        return shuffled


# Fixed middle-game positions for the benchmark (attackers to move): 20 plies of depth-2 play.
BENCH_MIDDLE = {
    "traditional": "/3t2tt3/1tt6t1/1t9/4tt5/t3TTT3t/t2T3T1Tt/t1T4KT1t/tT3T4t/4T6/1t4T2t1/3ttttt3/",
    "gild-9": "/3tt4/1T5t1/T6t1/3t1tt2/tt2K1t2/t3T1t2/1T1t1T3/2T4t1/4t4/",
    "gild-11": "/3ttt1t3/1t7t1/4T1t4/t4T4t/t1T3T1t2/t2TT2T2t/t3T1K1T1t/t4T1T2t/4t1T4/1tt6t1/3t1tt4/",
}


def benchmark(variant: str, seconds: float, position: str = "start") -> dict[str, float | int | str]:
    """Search a fixed position of the variant (``start``, or ``middle``: BENCH_MIDDLE) for
    ``seconds``: nodes, depth, speed."""
    game = TaflGame(variant) if position == "start" else TaflGame(variant, position=BENCH_MIDDLE.get(variant))
    info = TaflAI(time_budget=seconds).search(game)
    return {
        "variant": variant,
        "position": position,
        "nodes": info.nodes,
        "depth": info.depth,
        "seconds": round(info.elapsed, 3),
        "nodes_per_second": round(info.nodes / info.elapsed) if info.elapsed else 0,
    }
