"""``fiefdom replay --cards FILE view R`` (and ``--map``): the data files given reach the viewer,
which opens the record on them, as ``replay verify`` with the same option reads it (issue 26)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tui import cli_replay
from tui.app import FiefdomApp
from tui.cli import app
from tui.screens.replay import ReplayScreen

ROOT = Path(__file__).parents[2]
cli = CliRunner()


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    cli_replay._DATA.clear()  # the data files of an earlier command line in this process
    result = cli.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def own_cards(tmp_path: Path) -> Path:
    path = tmp_path / "keeps.toml"
    packaged = (ROOT / "core" / "kingdom" / "data" / "cards.toml").read_text("utf-8")
    path.write_text(packaged.replace('name = "Castle"', 'name = "Keep"'), "utf-8")
    return path


class Seen:
    """What the viewer the command opened showed: its screen's record and what it read it with."""

    def __init__(self) -> None:
        self.screens: list[ReplayScreen] = []
        self.errors: list[str] = []


def headless(monkeypatch: pytest.MonkeyPatch, seen: Seen) -> None:
    """The command's app runs headless, long enough to open its record, instead of taking the terminal."""

    class Viewer(FiefdomApp):
        CSS_PATH = str(ROOT / "tui" / "app.tcss")  # a relative one is read beside this module

        def run(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
            async def look() -> None:
                async with self.run_test(size=(120, 40)) as pilot:
                    for _ in range(50):  # the viewer (under a question whose view to show, in play)
                        await pilot.pause()
                        viewers = [s for s in self.screen_stack if isinstance(s, ReplayScreen)]
                        if viewers and viewers[0].replay is not None:
                            break
                    seen.screens += viewers
                    seen.errors += [str(n.message) for n in self._notifications if n.severity == "error"]

            asyncio.run(look())

    monkeypatch.setattr("tui.app.FiefdomApp", Viewer)


def test_the_cards_given_to_replay_reach_the_viewer(tmp_path: Path, own_cards: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "keeps.fief"
    code, _, err = invoke("play", "kingdom", "--prompt", "-v", "multi-2", "--seat", "1=random", "--seat", "2=random",
                          "--seed", "3",
                          "--cards", own_cards, "--out", record)
    assert code == 0, err
    data = tmp_path / "data"  # no copy of the cards kept there: only the option can give them
    code, _, err = invoke("replay", "view", record, "--data-dir", data)
    assert code == 2 and "its own cards" in err and "--cards" in err
    seen = Seen()
    headless(monkeypatch, seen)
    code, _, err = invoke("replay", "--cards", own_cards, "view", record, "--data-dir", data)
    assert code == 0, err
    assert seen.errors == []
    (screen,) = seen.screens
    assert screen.replay is not None and screen.report is not None and screen.report.ok
    game = screen.replay.state_at(screen.replay.steps)
    assert {game.card(r.slots[0].card).name for r in game.s.realms} == {"Keep"}  # the given cards


def test_the_map_given_to_replay_reach_the_viewer(tmp_path: Path, own_map: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "own.fief"
    code, _, err = invoke("play", "taifa", "--prompt", "--map", own_map, "--out", record, stdin="quit\n")
    assert code == 0, err
    seen = Seen()
    headless(monkeypatch, seen)
    for given in (["--map", str(own_map)], ["--data", f"map={own_map}"]):
        code, _, err = invoke("replay", *given, "view", record, "--data-dir", tmp_path / "data")
        assert code == 0, (given, err)
    assert seen.errors == [] and len(seen.screens) == 2
    for screen in seen.screens:
        assert screen.replay is not None and screen.report is not None and screen.report.ok
        assert screen.replay.state_at(0).m.area(1).defence == 3  # Cantabria's on the given map
