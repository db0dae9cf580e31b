"""The information wall over every registered game (the toy game Hoard included): no seat's log,
view, prompt text or redacted export holds anything that seat may not see (issue 25).

What a seat may not see is found by content, from the game's own pictures: every string in the
full table's view (``view(TABLE)``: every hand, every face-down card, every deck's order) that the
seat's own view has never held so far is hidden from it; the names of those cards too, where a game
names its cards (a name no card the seat has seen shares). Each seat's log up to each step (its step
words and events), its view, its prompt text, and at the end its export (text and JSON) and the
prompt's whole transcript must hold none of them as a word.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core import games as core_games
from core.engine import Decision, Over, Viewer
from core.rng import SplitMix64
from core.visibility import events_seen, tell
from notation.export import export
from notation.reader import read_record_file
from notation.replay import Replay
from notation.runner import GameSetup, Runner, SeatPlan
from notation.seat_log import seat_log
from tui.console import Console
from tui.games import position_text
from wall_support import Wall, leaks

# (game, variant, seat kinds, seed): people in several seats wherever the game allows them.
CASES = [
    ("tafl", "brandubh", ("human", "human"), 3),
    ("taifa", "standard", ("human", "human", "bot", "random", "bot", "human"), 4),
    ("taifa", "el-cid", ("bot", "human", "bot", "human"), 5),
    ("kingdom", "multi-3", ("human", "human", "random"), 6),
    ("kingdom", "multi-4", ("human", "random", "human", "human"), 7),
    ("kingdom", "solo", ("human", "bot", "bot"), 8),
    ("hoard", "short", ("human", "human", "bot"), 9),
]


def play(game: str, variant: str, kinds: tuple[str, ...], seed: int, path: Path, most: int = 3000) -> tuple[Runner, Wall, list[str]]:
    """A seeded game with people answering at random; each point of view checked after each step.
    Returns the runner, what was hidden, and any leak found."""
    runner = Runner.start(GameSetup(game, variant, tuple(SeatPlan(k) for k in kinds), seed), path)
    rng = SplitMix64(seed)
    wall = Wall(len(kinds))
    wall.look(runner.game)
    logs: dict[Viewer, list[str]] = {v: [] for v in wall.seen}
    found: list[str] = []
    for _ in range(most):
        g, point = runner.game, runner.point
        if isinstance(point, Over):
            break
        if isinstance(point, Decision) and runner.waiting is not None:
            code = point.options[rng.below(len(point.options))]
            told = tell(g, point, code)
            step = runner.decide(code)
        else:
            step = runner.step()
            assert step is not None
            told = tell(g, point, step.value)
        wall.look(runner.game)
        wall.told(runner.game, [told.to(None), *(e.text for e in events_seen(step.events, None))])
        for viewer in wall.seen:
            logs[viewer].append(told.to(viewer))
            logs[viewer] += [e.text for e in events_seen(step.events, viewer)]
            # The log after every step; the view and the prompt's picture where a person is asked,
            # and every fourth step besides (drawing every seat's picture at every step is most of
            # the test's time, and a picture changes only as the steps do).
            texts = [("log", "\n".join(logs[viewer][-40:]))]
            if runner.waiting is not None or step.index % 4 == 0:
                texts += [("view", repr(runner.game.view(viewer))), ("prompt", position_text(runner.game, viewer))]
            for where, text in texts:
                bad = wall.leaks(runner.game, viewer, text)
                if bad:
                    found.append(f"step {step.index}, {where} of {viewer}: {bad[:5]}")
        if len(found) > 5:
            break
    runner.close()
    return runner, wall, found


@pytest.fixture(autouse=True)
def _hoard(hoard: Any) -> None:
    """Hoard is registered for every test here, so it is one of the registry's games."""


@pytest.mark.parametrize("game,variant,kinds,seed", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_no_seat_reads_what_it_may_not_see(game: str, variant: str, kinds: tuple[str, ...], seed: int,
                                           tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    runner, wall, found = play(game, variant, kinds, seed, path)
    assert not found, found
    # The game's whole record, exported for each seat and a spectator: none of what they never saw.
    replay = Replay(read_record_file(path))
    end = runner.game
    for viewer in wall.seen:
        secrets = wall.secrets(end, viewer)
        exported = {fmt: export(replay, fmt, viewer=viewer) for fmt in ("text", "json")}
        for fmt, text in exported.items():
            assert not leaks(text, secrets), (viewer, fmt, leaks(text, secrets)[:5])
        log = "\n".join(f"{i.text} " + " ".join(e.text for e in i.events) for i in seat_log(replay, viewer))
        assert not leaks(log, secrets), (viewer, leaks(log, secrets)[:5])
        if not core_games.info(game).perfect_information:  # the seed would deal every card again
            assert json.loads(exported["json"])["header"]["seed"] is None
            assert '[Seed "hidden"]' in exported["text"]


def test_every_registered_game_is_covered() -> None:
    assert set(core_games.names()) <= {c[0] for c in CASES}


@pytest.mark.parametrize("game,variant,kinds,seed", [c for c in CASES if c[0] != "tafl"],
                         ids=[f"{c[0]}-{c[1]}" for c in CASES if c[0] != "tafl"])
def test_the_prompt_of_one_person_tells_nothing_hidden_from_them(game: str, variant: str, kinds: tuple[str, ...],
                                                                seed: int, tmp_path: Path) -> None:
    """The whole transcript of a game at the prompt, one person at it (the rest random or bots): what it
    printed up to each question holds nothing hidden from the person at that moment."""
    person = kinds.index("human")
    kinds = tuple(k if i == person else ("bot" if k == "bot" else "random") for i, k in enumerate(kinds))
    runner = Runner.start(GameSetup(game, variant, tuple(SeatPlan(k) for k in kinds), seed), tmp_path / "p.fief")
    rng = SplitMix64(seed)
    lines: list[str] = []
    wall = Wall(len(kinds))
    found: list[str] = []
    hidden_at_some_point = False
    done = {"lines": 0, "steps": 0}

    def check() -> None:
        """The lines printed since the last check, against what is hidden from the person now."""
        nonlocal hidden_at_some_point
        wall.look(runner.game)
        for step in runner.history[done["steps"]:]:
            wall.told(runner.game, [e.text for e in events_seen(step.events, None)])
        secrets = wall.secrets(runner.game, person)
        hidden_at_some_point |= bool(secrets)
        text = "\n".join(lines[done["lines"]:])
        found.extend(f"{s}: ...{text[max(0, text.find(s) - 100):text.find(s) + 200]}" for s in leaks(text, secrets))
        done["lines"], done["steps"] = len(lines), len(runner.history)

    def read(prompt: str) -> str:
        check()
        point = runner.waiting
        if prompt.rstrip().endswith("(y/n)"):  # a choice that cannot be taken back: yes
            return "y"
        if prompt.startswith("--"):  # a pause: Enter
            return ""
        if isinstance(point, Decision):  # the person's question
            return str(rng.below(len(point.options)) + 1)
        return ""

    wall.look(runner.game)
    Console(runner, read, lines.append).play()
    check()
    assert hidden_at_some_point, "a game with hidden information hides something from the person"
    assert not found, found[:5]
