"""Tafl rules: the traditional 11x11 game, the Tafl-Gild tournament rules, and the
published Copenhagen, Fetlar and Brandubh rulesets.

Sections cited: ``trad setup.N / play.N / win.N`` are the numbered rules of
tafl-traditional.txt; ``gild SETUP / BASIC MOVES / CAPTURE / OBJECT`` are the
headings of tafl-gild.txt; ``cph``, ``fetlar``, ``brandubh`` and ``setupgroup``
cite the published pages listed at the top of docs/rulings/tafl.md; ``TF-N``
are our rulings there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache, partial
from itertools import compress
from operator import itemgetter
from typing import Any

from core.engine import Code, Decision, Event, LazyDecision, Over, Result, RulesError
from core.tafl.board import (
    ATTACKER, DEFENDER, EMPTY, KING, SIDE_NAMES, SIDE_OF, Geometry, parse_position,
)
from core.tafl.movegen import MoveTables, allows, has_moves, line_codes, moves_for, ranks_of, tables as move_tables
from core.tafl.variants import Variant, variant as get_variant

RULES_REVISION = 1

ATTACKERS, DEFENDERS = 0, 1
PROMPTS = tuple(f"{name} to move" for name in SIDE_NAMES)
SIDE_TITLES = tuple(name.capitalize() for name in SIDE_NAMES)
SIDE_BYTES = (b"\0", b"\1")  # the side to move, as the last byte of a repetition key

# The rule each kind of event cites, by the variant's cite prefix (docs/rulings/tafl.md, top).
RULES: dict[str, dict[str, str]] = {
    "trad": {"move": "trad play.1", "piece": "trad play.3", "square": "trad play.4", "king": "trad play.5",
             "king_taken": "trad win.2; TF-8", "corner": "trad win.3", "no_moves": "trad win.1",
             "quiet": "trad win.4; TF-5"},
    "gild": {"move": "gild BASIC MOVES", "piece": "gild CAPTURE", "square": "gild BASIC MOVES",
             "camp": "gild BASIC MOVES; TF-11", "king": "gild CAPTURE", "king_two": "gild CAPTURE; TF-13",
             "king_taken": "gild OBJECT", "corner": "gild OBJECT", "no_moves": "trad win.1; TF-9",
             "quiet": "TF-5"},
    "cph": {"move": "cph 4", "piece": "cph 5a", "square": "cph 3; cph 5a", "king": "cph king; TF-20",
            "king_taken": "cph king", "corner": "cph win", "shieldwall": "cph 5b; TF-21",
            "edge_fort": "cph exit fort; TF-22", "encircled": "cph encirclement; TF-24",
            "no_moves": "cph no move", "repetition": "cph repetition; TF-23", "quiet": "TF-5"},
    "fetlar": {"move": "fetlar 6", "piece": "fetlar 7", "square": "fetlar 3; fetlar 4; fetlar 7",
               "king": "fetlar 7; TF-20", "king_taken": "fetlar 5", "corner": "fetlar 5",
               "encircled": "fetlar 7b; TF-24", "no_moves": "fetlar 8; TF-25", "quiet": "TF-5"},
    "brandubh": {"move": "brandubh Movement", "piece": "brandubh Capturing",
                 "square": "brandubh Capturing; TF-28", "king_two": "brandubh Capturing; TF-28",
                 "king": "setupgroup v2; TF-28", "king_taken": "brandubh Aim", "corner": "brandubh Aim",
                 "no_moves": "brandubh Draw; TF-29", "quiet": "TF-5"},
}


class TaflGame:
    """A Tafl game in progress. Seat 0 is the attackers, seat 1 the defenders."""

    game = "tafl"
    seats: tuple[str, ...] = SIDE_NAMES
    # What was worked out for the position, None until asked (see _clear_caches).
    _legal: list[tuple[int, int]] | None  # the legal moves
    _point: Decision | None  # the Decision listing them

    def __init__(
        self,
        variant: str = "traditional",
        options: dict[str, Any] | None = None,
        position: str | None = None,
        to_move: int = ATTACKERS,
    ) -> None:
        v = get_variant(variant)
        self.v: Variant = v
        self.variant = v.name
        self.opts = v.options(options)
        self.geo = v.geometry
        self._mt = move_tables(v.name)
        board, codes = _setup(v.name, position or v.start)
        self.board: list[int] = list(board)
        # The board as bytes, kept in step by _play (the only place a move changes the board): the
        # repetition key and the position's text are cut from it without converting the list.
        self._bytes = bytearray(board)
        # Each line's code (core/tafl/movegen.py), kept in step by _play too: the move generator's
        # caches are looked up by them.
        self._codes = list(codes)
        if to_move not in (ATTACKERS, DEFENDERS):
            raise RulesError("to_move is 0 (attackers) or 1 (defenders)")
        self.to_move = to_move
        self.quiet = 0  # moves in a row without a capture (TF-5)
        self.ply = 0
        # Positions since the last capture and how often each arose (TF-6); a
        # position from before a capture can never recur, so a capture clears it.
        self.history: dict[bytes, int] = {}
        # An order-independent hash of ``history``, for the digest (see history_hash): brought up
        # to date only when asked, from the counts each key had then, kept in ``_hash_from``.
        self._hash = 0
        self._hash_from: dict[bytes, int] = {}
        self._clear_caches()
        self._count_position()
        self.result: Result | None = None
        self.last: tuple[int, int, tuple[int, ...]] | None = None  # from, to, captured squares
        if not has_moves(self._codes, self.to_move, self._mt):
            self._finish_no_moves()

    # -- the engine contract ---------------------------------------------------

    @property
    def options(self) -> dict[str, Any]:
        return self.opts

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset()  # tafl has no rulebook bot

    def point(self) -> Decision | Over:
        if self.result is not None:
            return Over(self.result)
        if self._point is None:  # asked again before a move: the same (frozen) Decision
            # The moves are listed when the options are first read: a replay or verify only asks
            # whether the record's move is among them (allows), one line's look-up. The lines' codes
            # are copied, so the point stays this position's whatever the game does next.
            codes, side = self._codes[:], self.to_move
            self._point = LazyDecision(side, PROMPTS[side], partial(_listed, codes, side, self._mt),
                                       partial(_allowed, codes, side, self._mt))
        return self._point

    def apply(self, code: Code) -> list[Event]:
        if self.result is not None:
            raise RulesError("the game is over")
        rank = _rank_of(self._mt, code)  # a code as point() lists them; None: refused below
        if rank is not None and allows(self._codes, self.to_move, self._mt, rank):
            return self._play(*self._mt.move_at[rank])  # type: ignore[misc]  # a code's rank: a move, never None
        # Anything else is parsed (square names as a person may write them), or refused.
        move = self._move_of(code)
        if not self.is_legal(*move):
            raise RulesError(f"{self.describe(code)}: not a legal move for the {SIDE_NAMES[self.to_move]}")
        return self._play(*move)

    def resolve(self, outcome: Any) -> list[Event]:
        raise RulesError("tafl has no chance points")

    def clone(self) -> "TaflGame":
        c = TaflGame.__new__(TaflGame)
        c.v, c.variant, c.opts, c.geo, c._mt = self.v, self.variant, self.opts, self.geo, self._mt
        c.board = self.board[:]
        c._bytes = self._bytes[:]
        c._codes = self._codes[:]
        c.to_move, c.quiet, c.ply = self.to_move, self.quiet, self.ply
        c.history = dict(self.history)
        c._hash, c._hash_from = self._hash, dict(self._hash_from)
        c.result, c.last = self.result, self.last
        # The caches are never changed in place, only replaced: shared until either side moves.
        c._legal, c._point = self._legal, self._point
        return c

    def canonical(self) -> Any:
        result = None
        if self.result is not None:
            result = [list(self.result.winners), self.result.reason, self.result.rule]
        return {
            "game": "tafl",
            "variant": self.variant,
            "options": self.opts,
            "position": self.position(),
            "to_move": self.to_move,
            "quiet": self.quiet,
            "ply": self.ply,
            # Digesting the hash keeps checkpoints O(1) however long the game.
            "history": [len(self.history), self.history_hash],
            "result": result,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        # Perfect information: every seat sees everything.
        return {
            "variant": self.variant,
            "size": self.geo.size,
            "board": tuple(self.board),
            "to_move": self.to_move,
            "last": self.last,
            "result": self.result,
        }

    def describe(self, code: Code) -> str:
        f, t = self._move_of(code)
        prefix = "K" if self.board[f] == KING else ""
        return f"{prefix}{self.geo.names[f]}-{self.geo.names[t]}"

    def parse(self, text: str) -> Code:
        from core.tafl.otn import parse_move  # local: otn needs this class

        f, t = parse_move(self, text)
        return (self.geo.names[f], self.geo.names[t])

    # -- queries ---------------------------------------------------------------

    def position(self) -> str:
        return self._mt.position(bytes(self._bytes))

    def legal_moves(self) -> list[tuple[int, int]]:
        if self._legal is None:  # in scan order (core/tafl/movegen.py ranks_of)
            ranks = [] if self.result is not None else ranks_of(self._codes, self.to_move, self._mt)
            self._legal = list(map(self._mt.move_at.__getitem__, ranks))  # type: ignore[arg-type]  # moves': no None
        return self._legal

    def _clear_caches(self) -> None:
        """Forget what was worked out for the position: the board or the side to move changed."""
        self._legal = self._point = None

    def is_legal(self, f: int, t: int) -> bool:
        """Whether f->t is among :meth:`legal_moves`: one look-up in its line's cached moves, as
        ``point().allows`` answers (no rank: not a straight move from square to square)."""
        rank = self._mt.rank.get((f, t))
        return rank is not None and self.result is None and allows(self._codes, self.to_move, self._mt, rank)

    def captures_of(self, f: int, t: int) -> tuple[int, ...]:
        """Squares the move f->t would capture (the move is assumed legal)."""
        piece = self.board[f]
        self.board[f] = EMPTY
        self.board[t] = piece
        try:
            return tuple(sq for sq, _ in self._captures(t, piece))
        finally:
            self.board[t] = EMPTY
            self.board[f] = piece

    def _move_of(self, code: Code) -> tuple[int, int]:
        if not (isinstance(code, tuple) and len(code) == 2 and isinstance(code[0], str) and isinstance(code[1], str)):
            raise RulesError(f"{code!r} is not a tafl move code (from, to)")
        a, b = code[0], code[1]
        index = self._mt.index  # the names as written; anything else is parsed, or refused, by square()
        f, t = index.get(a), index.get(b)
        return (self.geo.square(a) if f is None else f), (self.geo.square(b) if t is None else t)

    # -- movement (trad play.1, gild BASIC MOVES) -------------------------------

    def _moves_for(self, side: int, first_only: bool = False) -> list[tuple[int, int]]:
        # Any piece may pass over the empty centre and camps (TF-7): see core/tafl/movegen.py.
        return moves_for(self.board, side, self._mt, first_only)

    # -- capture (trad play.3-5, gild CAPTURE) -------------------------------------

    def _hostile(self, sq: int, victim_side: int) -> str | None:
        """Why ``sq`` is hostile to a piece of ``victim_side``, or None.

        An occupied square is hostile when it holds an enemy (the king is armed,
        trad play.2, gild CAPTURE); an empty corner, centre or camp square is
        hostile to every piece (trad play.4, gild BASIC MOVES, TF-4, TF-11, TF-20),
        except Brandubh's throne without the strong king (TF-28).
        """
        piece = self.board[sq]
        g = self.geo
        if piece != EMPTY:
            return "piece" if SIDE_OF[piece] != victim_side else None
        if sq in g.corners:
            return "corner"
        if sq == g.centre:
            return self.v.centre if self._throne_hostile() else None
        if g.camp_of[sq]:
            return "camp"
        return None

    def _captures(self, t: int, piece: int) -> list[tuple[int, str]]:
        """(square, rule) for each piece captured by ``piece`` arriving on ``t``."""
        board, g = self.board, self.geo
        side = SIDE_OF[piece]
        out: list[tuple[int, str]] = []
        for d, n in enumerate(g.neighbours[t]):
            if n < 0:
                continue
            victim = board[n]
            if victim == EMPTY or SIDE_OF[victim] == side:
                continue
            if victim == KING:
                rule = self._king_captured(n, d)
                if rule:
                    out.append((n, rule))
                continue
            far = g.neighbours[n][d]
            if far < 0:
                continue
            why = self._hostile(far, SIDE_OF[victim])
            if why:
                out.append((n, self._capture_rule(why)))
        if self.v.shieldwall and -1 in g.neighbours[t]:
            taken = {sq for sq, _ in out}
            rule = RULES[self.v.cite]["shieldwall"]
            out.extend((sq, rule) for sq in shieldwall_captures(g, board, t, side) if sq not in taken)
        return out

    def _capture_rule(self, why: str) -> str:
        cites = RULES[self.v.cite]
        if why == "piece":
            return cites["piece"]
        return cites["camp"] if why == "camp" else cites["square"]  # a camp (TF-11); the centre or a corner

    def _throne_hostile(self) -> bool:
        """Whether the empty centre is hostile (TF-4); in Brandubh only with the strong king (TF-28)."""
        return self.v.throne_hostile or self.opts.get("strong_king_at_throne", False)

    def _king_captured(self, k: int, d: int) -> str | None:
        """Rule under which the king on ``k``, just closed on from direction ``d``, falls."""
        g, board, mode = self.geo, self.board, self.v.king_capture
        cites = RULES[self.v.cite]
        if mode == "two" and self.opts.get("strong_king_at_throne", False) and (
            k == g.centre or g.centre in g.neighbours[k]
        ):
            mode = "four-or-three-by-throne"  # TF-28: on and beside the throne (setupgroup v2)
        if mode == "two" or (mode == "hof-four-else-two" and k != g.centre):
            # Between the attacker that moves and, beyond the king, another attacker or a hostile
            # empty square: a camp (gild, TF-13), a corner or the hostile throne (Brandubh, TF-28).
            # The hof and the corners are hostile to the gild king "except for the king".
            far = g.neighbours[k][d]
            if far < 0:
                return None
            if board[far] == ATTACKER:
                return cites["king_two"]
            if board[far] == EMPTY and (g.camp_of[far] if mode != "two" else
                                        far in g.corners or far == g.centre and self._throne_hostile()):
                return cites["king_two"]
            return None
        # Four sides: traditional everywhere (trad play.5), gild on the hof; three and the empty
        # throne where the throne counts (TF-3 option; Copenhagen and Fetlar always, TF-20).
        throne_counts = mode == "four-or-three-by-throne" or (
            self.v.centre == "throne" and self.opts.get("throne_counts_for_king", False))
        for n in g.neighbours[k]:
            if n < 0:
                return None  # TF-10: the board edge is not a side
            if board[n] == ATTACKER:
                continue
            if n == g.centre and board[n] == EMPTY and throne_counts:
                continue  # TF-3
            return None
        return cites["king"]

    # -- playing a move ------------------------------------------------------------

    def _play(self, f: int, t: int) -> list[Event]:
        board, names, raw, codes, lines = self.board, self.geo.names, self._bytes, self._codes, self._mt.square_lines
        piece = board[f]
        mover = self.to_move
        board[f] = raw[f] = EMPTY
        board[t] = raw[t] = piece
        row, at, column, down = lines[f]  # the lines through f and t, and the squares' weights in their codes
        codes[row] -= piece * at
        codes[column] -= piece * down
        row, at, column, down = lines[t]
        codes[row] += piece * at
        codes[column] += piece * down
        captured = self._captures(t, piece)
        self.ply += 1
        self.to_move = 1 - mover
        self._legal = self._point = None  # _clear_caches(), inline: every move
        if not captured:  # most moves
            self.quiet += 1
            self.last = (f, t, ())
            # The move's event depends on the move and the piece alone: made once, then shared (frozen).
            key = (f * len(board) + t) * 4 + piece
            event = self._mt.quiet_events.get(key)
            if event is None:
                event = self._mt.quiet_events[key] = self._move_event(f, t, piece, captured, -1, mover)
            events = [event]
            after = self._after_move(mover, False, t, piece)
            if after:
                events += after
            return events
        king_sq = next((sq for sq, _ in captured if board[sq] == KING), -1)
        for sq, _ in captured:
            row, at, column, down = lines[sq]
            codes[row] -= board[sq] * at
            codes[column] -= board[sq] * down
            board[sq] = raw[sq] = EMPTY
        self.quiet = 0
        self.history.clear()
        self._hash_from.clear()
        self._hash = 0
        self.last = (f, t, tuple(sq for sq, _ in captured))
        events = [self._move_event(f, t, piece, captured, king_sq, mover)]
        for sq, rule in captured:
            what = "the king" if sq == king_sq else ("an attacker" if mover else "a defender")
            events.append(Event("capture", f"{names[sq]} captured ({what})", rule, (names[sq],)))
        events.extend(self._after_move(mover, king_sq >= 0, t, piece))
        return events

    def _move_event(self, f: int, t: int, piece: int, captured: list[tuple[int, str]], king_sq: int,
                    mover: int) -> Event:
        names = self.geo.names
        record = self.record(f, t, piece, captured, king_sq)
        return Event("move", f"{SIDE_TITLES[mover]}: {record}", RULES[self.v.cite]["move"],
                     (record, names[f], names[t]))

    def record(self, f: int, t: int, piece: int, captured: list[tuple[int, str]], king_sq: int) -> str:
        """The move in OpenTafl notation with its captures, e.g. ``d7-d3xKc3``."""
        names = self.geo.names
        text = ("K" if piece == KING else "") + f"{names[f]}-{names[t]}"
        if captured:
            text += "x" + "/".join(("K" if sq == king_sq else "") + names[sq] for sq, _ in captured)
        return text

    def _after_move(self, mover: int, king_taken: bool, t: int, piece: int) -> list[Event]:
        cites = RULES[self.v.cite]
        if king_taken:
            return self._end((ATTACKERS,), "the king is captured", cites["king_taken"])
        if piece == KING and t in self.geo.corners:
            return self._end((DEFENDERS,), "the king reached a corner", cites["corner"])
        if mover == DEFENDERS and self.v.edge_fort and edge_fort(self.geo, self.board, self.v.shieldwall):
            return self._end((DEFENDERS,), "the king stands in an exit fort on the edge", cites["edge_fort"])
        if mover == ATTACKERS and self.v.encirclement and not self._defender_on_edge() and \
                encircled(self.geo, self.board):
            return self._end((ATTACKERS,), "every defender is encircled", cites["encircled"])
        if not has_moves(self._codes, self.to_move, self._mt):  # up to the first line with a move
            return self._finish_no_moves()
        seen = self._count_position()
        rep = self.opts["repetition"]
        if seen >= 3 and rep != "off":
            if rep == "draw":
                return self._end((), "the same position arose a third time", "TF-6")
            if rep == "defenders-lose":
                return self._end((ATTACKERS,), "perpetual repetition: a position arose a third time",
                                 cites.get("repetition", "TF-23"))
            return self._end((1 - mover,), f"the {SIDE_NAMES[mover]} repeated a position a third time", "TF-6")
        limit = self.opts["quiet_moves"]
        if limit and self.quiet >= limit:
            moves = "move" if limit == 1 else "moves"
            return self._end((), f"{limit} {moves} in a row without a capture", cites["quiet"])
        return []

    def _defender_on_edge(self) -> bool:
        """Whether a defender or the king stands on the edge, read from the edge lines' codes: then
        no one is encircled (encircled() would find him there), with no walk over the board."""
        codes, mt = self._codes, self._mt
        top, bottom, left, right = mt.edge_lines
        return bool((codes[top] | codes[bottom] | codes[left] | codes[right]) & mt.high_bits)

    def _finish_no_moves(self) -> list[Event]:
        stuck = self.to_move
        winners = () if self.v.no_moves == "draw" else (1 - stuck,)  # Brandubh: a draw (TF-29)
        return self._end(winners, f"the {SIDE_NAMES[stuck]} have no legal move", RULES[self.v.cite]["no_moves"])

    def _end(self, winners: tuple[int, ...], reason: str, rule: str) -> list[Event]:
        self.result = Result(winners, reason, rule)
        self._clear_caches()  # recomputed as no moves now that the game is over
        if winners:
            text = f"{SIDE_NAMES[winners[0]].capitalize()} win: {reason}"
        else:
            text = f"Draw: {reason}"
        return [Event("result", text, rule, (tuple(winners), reason))]

    def _count_position(self) -> int:
        """Count the current position once more; returns how often it has now arisen."""
        key = bytes(self._bytes) + SIDE_BYTES[self.to_move]  # the board, the side to move
        history = self.history
        old = history.get(key, 0)
        history[key] = old + 1
        self._hash_from.setdefault(key, old)  # the count the hash last saw
        return old + 1

    @property
    def history_hash(self) -> int:
        """The sum of ``_entries_hash(history.items())``, mod 2**128: the repetition
        history in the digest, at O(1) a checkpoint however long the game.

        Brought up to date here from the keys counted since it was last asked (a game no one
        digests never hashes), so it has the value an update at every move would give."""
        hash_from = self._hash_from
        if hash_from:
            now = _entries_hash(zip(hash_from, map(self.history.__getitem__, hash_from)))
            was = _entries_hash(filter(_SEEN, hash_from.items()))  # keys counted before: their old share out
            self._hash = (self._hash + now - was) % _HASH_MOD
            hash_from.clear()
        return self._hash


# -- a position's options, listed when read (TaflGame.point) ----------------------


def _listed(codes: list[int], side: int, mt: MoveTables) -> tuple[Code, ...]:
    """The option codes of ``side``'s legal moves on the board whose lines have ``codes``, in scan order."""
    ranks = ranks_of(codes, side, mt)
    # itemgetter of two or more indexes gives a tuple, in C: the fastest way to list them. Legal
    # moves' ranks are none of code_at's Nones (core/tafl/movegen.py, moves_for).
    return itemgetter(*ranks)(mt.code_at) if len(ranks) > 1 else \
        tuple(map(mt.code_at.__getitem__, ranks))  # type: ignore[arg-type]  # no None


def _allowed(codes: list[int], side: int, mt: MoveTables, code: object) -> bool:
    """Whether ``code`` is one of :func:`_listed`'s codes, without listing them."""
    rank = _rank_of(mt, code)
    return rank is not None and allows(codes, side, mt, rank)


def _rank_of(mt: MoveTables, code: object) -> int | None:
    """The rank of the move ``code`` names as :func:`_listed` lists codes; None for any other object."""
    try:
        return mt.rank_of_code.get(code)  # type: ignore[call-overload]  # any object: a code or not
    except TypeError:  # unhashable: no code at all
        return None


# -- setup -----------------------------------------------------------------


@lru_cache(maxsize=64)
def _setup(variant: str, position: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board of ``position`` in ``variant``, checked, and its lines' codes: worked out once per
    position (most games start from their variant's), a refusal raised anew each time (RulesError)."""
    v = get_variant(variant)
    g = v.geometry
    board = parse_position(position, v.size)
    for sq, piece in enumerate(board):
        if piece in (ATTACKER, DEFENDER) and (sq == g.centre or sq in g.corners):
            raise RulesError(f"{g.names[sq]}: only the king may stand on the {v.centre} or a corner")
        if piece in (DEFENDER, KING) and g.camp_of[sq]:
            raise RulesError(f"{g.names[sq]}: only attackers may stand in a base camp (gild BASIC MOVES)")
    if KING in board and board.index(KING) in g.corners:
        raise RulesError("the king already stands on a corner")
    return tuple(board), tuple(line_codes(bytes(board), move_tables(v.name)))


# -- the published rulesets' extra rules, on a bare board (the AI's search board uses them too) --


def shieldwall_captures(g: Geometry, board: list[int], t: int, side: int) -> list[int]:
    """Pieces taken by a shieldwall that ``side``'s piece on the edge square ``t`` brackets (cph 5b, TF-21).

    A row of two or more enemies along the edge, each with a piece of ``side`` directly
    in front of it, closed at the far end by a piece of ``side`` or a corner. The king
    may stand in the row, but is not taken by it.
    """
    nb = g.neighbours[t]
    inward = next((d for d in range(4) if nb[d ^ 1] < 0), -1)  # directions pair up as 0/1, 2/3
    if inward < 0 or t in g.corners:
        return []
    out: list[int] = []
    for d in ((2, 3) if inward < 2 else (0, 1)):
        row: list[int] = []
        sq = nb[d]
        while sq >= 0 and board[sq] != EMPTY and SIDE_OF[board[sq]] != side:
            front = board[g.neighbours[sq][inward]]
            if front == EMPTY or SIDE_OF[front] != side:
                break
            row.append(sq)
            sq = g.neighbours[sq][d]
        else:
            closed = sq >= 0 and (sq in g.corners or SIDE_OF[board[sq]] == side)
            if len(row) >= 2 and closed:
                out.extend(s for s in row if board[s] != KING)
    return out


def edge_fort(g: Geometry, board: list[int], shieldwall: bool) -> bool:
    """Whether the king stands in an exit fort the attackers cannot break (cph exit fort, TF-22).

    The king is on the edge and can move; the empty squares he reaches (the fort's inside)
    touch no attacker; and every defender walling them in is safe for good: it stays safe
    while, on each line through it, one neighbour is off the board, inside, or another safe
    defender, and (with the shieldwall rule) no row of defenders along the edge through it
    can be shieldwalled (cph 5b).
    """
    k = board.index(KING)
    if -1 not in g.neighbours[k] or not any(n >= 0 and board[n] == EMPTY for n in g.neighbours[k]):
        return False
    inside, stack = {k}, [k]
    while stack:
        for n in g.neighbours[stack.pop()]:
            if n < 0 or n in inside:
                continue
            if board[n] == ATTACKER:
                return False
            if board[n] == EMPTY:
                inside.add(n)
                stack.append(n)
    wall = {n for sq in inside for n in g.neighbours[sq] if n >= 0 and board[n] == DEFENDER}
    # Safe squares, shrunk until stable: inside squares (not a corner or the throne, hostile
    # when empty) and the defenders no sequence of attacker moves can take.
    safe = {sq for sq in inside if sq not in g.corners and sq != g.centre}
    safe |= {sq for sq, p in enumerate(board) if p == DEFENDER}
    changed = True
    while changed:
        changed = False
        for w in [sq for sq in safe if board[sq] == DEFENDER]:
            nb = g.neighbours[w]
            open_line = any(a >= 0 and b >= 0 and a not in safe and b not in safe
                            for a, b in ((nb[0], nb[1]), (nb[2], nb[3])))
            if open_line or (shieldwall and -1 in nb and not _edge_row_safe(g, board, w, safe, inside)):
                safe.discard(w)
                changed = True
    return wall <= safe


def _edge_row_safe(g: Geometry, board: list[int], w: int, safe: set[int], inside: set[int]) -> bool:
    """Whether the row of defenders along the edge through ``w`` can never be shieldwalled."""
    nb = g.neighbours[w]
    inward = next(d for d in range(4) if nb[d ^ 1] < 0)
    for d in ((2, 3) if inward < 2 else (0, 1)):
        sq = w
        while sq >= 0 and board[sq] in (DEFENDER, KING):
            if g.neighbours[sq][inward] in safe:
                return True  # no attacker can ever stand in front of this one
            sq = g.neighbours[sq][d]
        if sq in inside:
            return True  # an end no attacker can close
    return False


_DEFENDS = tuple(piece in (DEFENDER, KING) for piece in (EMPTY, ATTACKER, DEFENDER, KING))  # by piece


def encircled(g: Geometry, board: list[int]) -> bool:
    """Whether no defender can reach the edge through empty squares (cph encirclement, fetlar 7b, TF-24)."""
    seen = set(compress(range(len(board)), map(_DEFENDS.__getitem__, board)))  # the defenders' squares, found in C
    stack = list(seen)
    while stack:
        nb = g.neighbours[stack.pop()]
        if -1 in nb:
            return False
        for n in nb:
            if n not in seen and board[n] != ATTACKER:
                seen.add(n)
                stack.append(n)
    return True


_HASH_MOD = 1 << 128
_SEEN = itemgetter(1)  # of a (key, count it had) pair: true when the hash counted the key before


_COUNTS = tuple(count.to_bytes(4, "big") for count in range(16))  # the common counts, made once


_ENTRY = hashlib.blake2b(digest_size=16)  # empty: each entry's hash starts as a copy of it


def _entries_hash(entries: Iterable[tuple[bytes, int]], _new: Any = _ENTRY.copy, _int: Any = int.from_bytes) -> int:
    """The sum of blake2b-128 of each key and its count (4 bytes, big-endian), as integers.

    One loop for all the entries a digest brings up to date (no call a key), and each hash a copy of
    one made once: no arguments to parse (3.9 K instructions an entry instead of 6.4 K)."""
    total = 0
    for key, count in entries:
        h = _new()
        h.update(key)
        h.update(_COUNTS[count] if count < 16 else count.to_bytes(4, "big"))
        total += _int(h.digest(), "big")
    return total
