"""A bot's quiet round keeps no copy of its starting state (core/procedure.py ``_quiet``, issue 32):
play, positions, clones and frames are what they are when every unit keeps one."""

from __future__ import annotations

from typing import Any

import pytest

from core.chance import SeededChance
from core.digest import digest
from core.engine import Over
from core.taifa.game import TaifaGame


class Copying(TaifaGame):
    """Taifa as it was: every unit keeps a copy of the state it began in."""

    def _quiet(self, unit: Any) -> bool:
        return False


def played(cls: type[TaifaGame], variant: str, seed: int) -> list[tuple[bytes, int, list[Any]]]:
    """Each step's position digest, how many units it began (frames) and their pictures' positions."""
    g = cls(variant)
    chance = SeededChance(seed)
    out = []
    while not isinstance(g.point(), Over):
        events = g.resolve(chance.outcome(g.point()))
        frames = g.frames()
        out.append((digest(g), len(events), [(before, digest(f)) for before, f in frames]))
    return out


@pytest.mark.parametrize("variant", ["standard", "el-cid"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_quiet_rounds_change_no_position_nor_frame(variant: str, seed: int) -> None:
    quiet = played(TaifaGame, variant, seed)
    assert quiet == played(Copying, variant, seed)
    assert any(len(frames) > 1 for _, _, frames in quiet)  # steps that ran quiet rounds


def test_a_clone_plays_on_as_the_game() -> None:
    g = TaifaGame("standard")
    chance = SeededChance(7)
    for _ in range(60):
        g.resolve(chance.outcome(g.point()))
        c = g.clone()
        assert digest(c) == digest(g)
        assert c.point() == g.point()


def test_a_unit_said_quiet_that_asks_is_refused() -> None:
    class Wrong(TaifaGame):
        def _quiet(self, unit: Any) -> bool:
            return unit[0] == "turn_start"  # its first shuffle is a question

    with pytest.raises(RuntimeError, match="quiet"):
        Wrong("standard")
