"""One walk over a record: each step applied once, for every reader that needs it.

Building a replay, verifying and resuming are readers of the same pass (:class:`RecordReader`),
in the manner of python-chess's ``read_game(..., Visitor=...)``: the walk reads the records
in order, asks each reader to look at a step before it is applied (a verifier derives its
seeded outcome again), applies it to the one game, and shows each reader what came of it.
Opening a record in the viewer thus applies each step once, not once to replay it and again
to verify it.

    comment(index, record)                       a comment record
    before_step(step, index, record, point)      before step ``step`` is applied
    after_step(step, index, record, point, events)
    refused(step, index, message)                the rules refused the step: the walk ends
    checkpoint(index, record, offset)            a checkpoint or the result record
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

from core.engine import Event, Game, Point, RulesError
from notation.apply import apply_step
from notation.format import Tag
from notation.reader import Recording


class RecordReader:
    """A reader of the walk; every method does nothing unless overridden."""

    def comment(self, index: int, record: Any) -> None:
        pass

    def before_step(self, step: int, index: int, record: Any, point: Point) -> None:
        pass

    def after_step(self, step: int, index: int, record: Any, point: Point, events: list[Event]) -> None:
        pass

    def refused(self, step: int, index: int, message: str) -> None:
        pass

    def checkpoint(self, index: int, record: Any, offset: int) -> None:
        pass


def walk_record(recording: Recording, game: Game, readers: Sequence[RecordReader], *, every: int = 512,
                done: Callable[[], bool] = lambda: False) -> Generator[float, None, int]:
    """Apply ``recording``'s steps to ``game`` (at its start) for ``readers``; yields the part walked
    (0..1) every ``every`` records, and returns the steps applied. Ends early when ``done()``."""
    records, offsets = recording.records, recording.offsets
    size = len(records)
    steps = 0
    step_tags = (Tag.DECISION, Tag.CHANCE)
    for index, (tag, record) in enumerate(zip(records.tags, records)):  # in order: each decoded once
        if index % every == every - 1:
            yield index / size
            if done():
                break
        if tag in step_tags:
            point = game.point()
            for reader in readers:
                reader.before_step(steps + 1, index, record, point)
            try:
                _, events = apply_step(game, record, point, worded=False)  # type: ignore[arg-type]  # a step's tag
            except RulesError as err:
                for reader in readers:
                    reader.refused(steps + 1, index, str(err))
                break
            steps += 1
            for reader in readers:
                reader.after_step(steps, index, record, point, events)
        elif tag == Tag.COMMENT:
            for reader in readers:
                reader.comment(index, record)
        else:
            for reader in readers:
                reader.checkpoint(index, record, offsets[index])
    return steps
