"""Short texts shared by replay, verify and export: outcomes and results as people read them."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from core.engine import Result

# Unicode categories that can steer a terminal or hide text: controls (C0, DEL, C1: ESC,
# CSI...), format characters (bidi overrides, zero-width), separators that break lines,
# unpaired surrogates, unassigned code points.
HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))
_HIDDEN = HIDDEN_CATEGORIES
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def visible(text: str) -> str:
    """``text`` safe to print: every character that could control a terminal or hide text is
    written out (``\\x1b``, ``\\n``, ``\\u202e``), so text read from a record, a stranger's
    input, can never forge a line or move the cursor. Plain text comes back unchanged."""
    if text.isprintable():  # the common case: no work
        return text
    out = []
    for ch in text:
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif unicodedata.category(ch) in _HIDDEN:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 record``, ``2 records``: a number and its noun, singular for one."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def winners_text(result: Result, seat_names: Sequence[str]) -> str:
    """``attackers won``, ``draw``: who won, in the game's own seat names (made visible)."""
    if not result.winners:
        return "draw"
    names = [seat_names[w] if 0 <= w < len(seat_names) else f"seat {w}" for w in result.winners]
    return visible(" and ".join(names) + " won")


def result_text(result: Result, seat_names: Sequence[str]) -> str:
    """``attackers won: the king is captured (gild OBJECT)``, on one line: a record's reason and
    rule are a stranger's text, made visible here so every message quoting them is safe."""
    rule = f" ({result.rule})" if result.rule else ""
    return visible(f"{winners_text(result, seat_names)}: {result.reason}{rule}")


def braced(text: str) -> str:
    """``{text}`` on one line: braces hold events and comments in a text export, so the
    text's own braces become parentheses."""
    return "{" + " ".join(text.replace("{", "(").replace("}", ")").split()) + "}"
