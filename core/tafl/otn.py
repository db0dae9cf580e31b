"""OpenTafl move notation: reading typed moves and explaining refusals.

A move is ``e1-e4``; a king's move is prefixed ``K``; captures follow an
``x`` separated by ``/`` (``e1-e4xe5/d4``), a captured king as ``xKe4``.
Input may leave out the dash (``e1e4``) or the capture part; if a capture
part is given it must be exactly what the move captures.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.engine import RulesError
from core.tafl.board import ATTACKER, EMPTY, KING, SIDE_NAMES, SIDE_OF

if TYPE_CHECKING:
    from core.tafl.rules import TaflGame

# Matched against the text with everything but a leading king prefix lower-cased,
# so a captured king reads "xkc3" here: a "k" before a file letter is that prefix.
_SQUARE = r"[a-z][0-9]{1,2}"
_MOVE = re.compile(
    rf"^(?P<king>K)?(?P<f>{_SQUARE})-?(?P<t>{_SQUARE})"
    rf"(?:x(?P<caps>k?{_SQUARE}(?:[/x]k?{_SQUARE})*))?[+#!?]*$"
)
_PIECE_WORDS = {ATTACKER: "an attacker", 2: "a defender", KING: "the king"}


def parse_move(game: "TaflGame", text: str) -> tuple[int, int]:
    """The (from, to) squares of a typed move; RulesError says exactly what is wrong."""
    raw = text.strip()
    m = _MOVE.match(raw[:1] + raw[1:].lower() if raw[:1] == "K" else raw.lower())
    if not m:
        raise RulesError(f"{raw!r} is not a move: write it like e1-e4 (king moves may be written Kf6-f9)")
    g = game.geo
    try:
        f, t = g.square(m["f"]), g.square(m["t"])
        said = sorted(g.square(c) for c in re.findall(_SQUARE, m["caps"] or ""))
    except RulesError as err:
        raise RulesError(f"{raw}: {err}") from None
    why = explain_illegal(game, f, t)
    if why:
        raise RulesError(f"{raw}: {why}")
    if m["king"] and game.board[f] != KING:
        raise RulesError(f"{raw}: {g.names[f]} holds {_PIECE_WORDS[game.board[f]]}, not the king")
    if m["caps"] is not None:
        actual = sorted(game.captures_of(f, t))
        if said != actual:
            real = "/".join(g.names[s] for s in actual) or "nothing"
            raise RulesError(f"{raw}: that move captures {real}")
    return f, t


def explain_illegal(game: "TaflGame", f: int, t: int) -> str | None:
    """Why f->t is not legal now, in one line; None if it is legal."""
    g, board = game.geo, game.board
    names = g.names
    if game.result is not None:
        return "the game is over"
    piece = board[f]
    side = SIDE_NAMES[game.to_move]
    if piece == EMPTY:
        return f"there is no piece on {names[f]}"
    if SIDE_OF[piece] != game.to_move:
        return f"{names[f]} holds {_PIECE_WORDS[piece]}; it is the {side}' move"
    if f == t:
        return "a piece must move at least one square"
    fr, fc = divmod(f, g.size)
    tr, tc = divmod(t, g.size)
    if fr != tr and fc != tc:
        return "pieces move in a straight line along a rank or a file"
    if board[t] != EMPTY:
        return f"{names[t]} is occupied"
    for ray in g.rays[f]:
        if t in ray:
            for sq in ray[: ray.index(t)]:
                if board[sq] != EMPTY:
                    return f"{names[sq]} is in the way"
    if game.is_legal(f, t):
        return None
    if t == g.centre:
        return f"only the king may stop on the {game.v.centre} (it may be crossed when empty)"
    if t in g.corners:
        return "only the king may stop on a corner"
    if g.camp_of[t]:
        if piece != ATTACKER:
            return "only attackers may stop in a base camp (any piece may cross one)"
        if g.camp_of[f]:
            return "an attacker in its camp may move within that camp, never into another"
        return "an attacker that has left its camp may never return, nor enter another"
    return "that move is not legal"
