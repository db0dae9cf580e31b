"""Time controls for a hosted game: a clock per person's seat, base time plus an increment.

The host keeps the clocks (notation/host.py): a seat's runs while it is asked, stops when it
decides (the increment added), and each decision's record carries the time left. When one runs
out the seat loses (it resigns) or the AI plays it from there, as the host chose.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass

from core.engine import RulesError

ON_TIME = ("lose", "ai")  # what running out does
_PART = re.compile(r"(\d+(?:\.\d+)?)([hms]?)", re.ASCII)
_UNIT = {"h": 3600.0, "m": 60.0, "s": 1.0, "": 60.0}  # a bare number is minutes, as players say "5+3"
MAX_SECONDS = 24 * 3600.0


def seconds(text: str, bare: str) -> float:
    """``90s``, ``5m``, ``1h``, ``1m30s``; a bare number in ``bare``'s unit."""
    text = text.strip().lower()
    parts = list(_PART.finditer(text))
    if not text or "".join(p.group(0) for p in parts) != text:
        raise RulesError(f"a time looks like 5m, 90s or 1m30s, not {text[:20]!r}")
    total = sum(float(p.group(1)) * _UNIT[p.group(2) or bare] for p in parts)
    if total > MAX_SECONDS:
        raise RulesError("a clock holds at most 24 hours")
    return total


def clock_text(seconds: float) -> str:
    """Time left as a clock shows it: ``4:05``, ``1:02:03``."""
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02}:{s % 60:02}" if s >= 3600 else f"{s // 60}:{s % 60:02}"


@dataclass(frozen=True)
class ClockRule:
    """``base`` seconds for each seat, ``increment`` added after each of its decisions."""

    base: float
    increment: float = 0.0
    on_time: str = "lose"

    @classmethod
    def parse(cls, text: str, on_time: str = "lose") -> "ClockRule":
        """``10m+5s``, ``5+3`` (minutes + seconds, as chess writes it), ``90s``; RulesError in one line."""
        base, _, inc = text.partition("+")
        rule = cls(seconds(base, "m"), seconds(inc, "s") if inc else 0.0, on_time)
        if rule.base <= 0:
            raise RulesError("a clock needs some time: 5m, 90s, 10m+5s")
        if on_time not in ON_TIME:
            raise RulesError(f"when a clock runs out the seat can {' or '.join(ON_TIME)}, not {on_time!r}")
        return rule

    def text(self) -> str:
        inc = f"+{self.increment:g}s" if self.increment else ""
        return f"{self.base:g}s{inc}, on time: {self.on_time}"


class Clocks:
    """Every person's clock, in seconds left; one runs at a time."""

    def __init__(self, rule: ClockRule, seats: Iterable[int]) -> None:
        self.rule = rule
        self.left = {seat: rule.base for seat in seats}
        self.running: int | None = None
        self.since = 0.0

    def start(self, seat: int) -> None:
        if seat in self.left and self.running != seat:
            self.stop_without_increment()
            self.running, self.since = seat, time.monotonic()

    def stop_without_increment(self) -> None:
        if self.running is not None:
            self.left[self.running] = self.now(self.running)
            self.running = None

    def decided(self, seat: int) -> int | None:
        """``seat`` decided: its clock stops, the increment added; the time left in ms (None: no clock)."""
        if seat not in self.left:
            return None
        if self.running == seat:
            self.stop_without_increment()
        self.left[seat] += self.rule.increment
        return int(self.left[seat] * 1000)

    def undo(self, seat: int) -> None:
        """A decision refused after :meth:`decided`: the increment taken back, the clock running again."""
        if seat in self.left:
            self.left[seat] -= self.rule.increment
            self.start(seat)

    def now(self, seat: int) -> float:
        """``seat``'s time left at this moment (never below 0)."""
        left = self.left[seat]
        if self.running == seat:
            left -= time.monotonic() - self.since
        return max(0.0, left)

    def words(self) -> list[list[int | bool]]:
        """[seat, ms left, running] for each clock, as the table message sends them."""
        return [[seat, int(self.now(seat) * 1000), seat == self.running] for seat in sorted(self.left)]

    def restore(self, seat: int, ms: int) -> None:
        """A resumed game: ``seat``'s time as its last decision's record left it."""
        if seat in self.left:
            self.left[seat] = ms / 1000
