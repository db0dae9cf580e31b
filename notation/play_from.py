"""Play from here: a new game that starts with a record's first steps (the replay viewer's
"play from here"; the runner plays it with :meth:`notation.runner.Runner.start_from`).

Below the screens, so that any table (the app, the prompt, a networked host) branches a game
the same way: the seat that decides next is a person's, every other person's seat goes to the
AI where the game allows one, the rest stay as they were, and the header is new (this app's
version, a new creation time) and names the record and step it came from (notation/variations.py).
"""

from __future__ import annotations

import dataclasses

from core.engine import Decision
from core.match import Step
from notation.catalog import app_version, utc_now
from notation.format import FORMAT_VERSION, Header
from notation.replay import Replay
from notation.runner import SeatPlan
from notation.variations import parent_of


def next_decider(replay: Replay, step: int) -> int | None:
    """The seat that decides at or after position ``step``: the next decision in the record,
    else the one the position asks for."""
    for n in range(step + 1, replay.steps + 1):
        info = replay.step_record(n)
        if info.kind == "decision":
            return info.seat
    point = replay.state_at(step).point()
    return point.seat if isinstance(point, Decision) else None


def from_here(replay: Replay, step: int) -> tuple[Header, list[Step]]:
    """The header of a game played on from position ``step`` of ``replay``, and the steps it starts with.
    The header names its parent (``Header.parent``): this record, up to ``step``."""
    h = replay.header
    gi = replay.games(h.game)
    specs = gi.seat_specs(h.variant)
    you = next_decider(replay, step)
    seats = []
    for i, seat in enumerate(h.seats):
        plan = SeatPlan.of(seat)
        if i == you and i < len(specs) and "human" in specs[i].kinds:
            plan = SeatPlan("human")
        elif plan.kind == "human" and i < len(specs) and "ai" in specs[i].kinds:
            plan = SeatPlan("ai")
        seats.append(plan.seat(seat.name, gi) if plan != SeatPlan.of(seat) else seat)
    header = dataclasses.replace(h, seats=tuple(seats), app=app_version(), created=utc_now(), format=FORMAT_VERSION,
                                 parent=parent_of(replay.recording, step))
    steps = [Step(i.step, i.kind, i.seat, i.value, i.events) for i in replay.step_infos(1, step)]
    return header, steps
