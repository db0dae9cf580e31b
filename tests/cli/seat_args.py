"""The command-line tests' shorthand for ``--seat``: the kinds of the seats in order, as ``--seat N=KIND``."""

from __future__ import annotations


def seats(*kinds: str) -> list[str]:
    """``seats("random", "ai")``: ``--seat 1=random --seat 2=ai``."""
    return [arg for number, kind in enumerate(kinds, start=1) for arg in ("--seat", f"{number}={kind}")]
