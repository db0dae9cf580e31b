"""``fiefdom join URL`` in the app: the play screen for a seat of a hosted game (issue 29)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.widgets import RichLog

from tests.network.support import Player, hosted, new_host, setup_of
from tui.app import FiefdomApp
from tui.screens.dialogs import ConfirmDialog
from tui.screens.remote_play import RemotePlayScreen
from tui.widgets.options import OptionsPane
from tui.widgets.side_panes import MoveList


async def wait_for(pilot, condition, what: str, most: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + most
    while not condition():
        assert loop.time() < end, f"waited {most:g} s for {what}"
        await pilot.pause(0.02)


async def drawn(pilot: Any, app: FiefdomApp) -> RemotePlayScreen:
    """The hosted game's screen, once its first table is drawn."""
    await wait_for(pilot, lambda: isinstance(app.screen, RemotePlayScreen) and app.screen.drawn, "the table")
    screen = app.screen
    assert isinstance(screen, RemotePlayScreen)
    return screen


async def test_a_hosted_game_played_in_the_app_then_resigned(tmp_path: Path) -> None:
    """A seat of a Take the Kingdom game played in the app, by its options pane, against a client
    and a random seat; then resigned from the command (the host records it; the others hear of it)."""
    host = new_host(setup_of("kingdom", "multi-3", ["human", "human", "random"]), tmp_path / "g.fief")
    invitations, serving = await hosted(host)
    other = await Player(invitations[1], seed=2).join()
    app = FiefdomApp(tmp_path / "data", join=invitations[0])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await drawn(pilot, app)
        assert screen.active_bindings["q"].binding.description == "Quit"  # `fiefdom join URL`: q leaves for the shell
        driver = screen.remote_driver
        moves = 0
        while driver.client.result is None and moves < 8:
            await wait_for(pilot, lambda: driver.client.result is not None or driver.question() is not None,
                           "a question or the end")
            if driver.client.result is not None:
                break
            asked = driver.question()
            pane = screen.query_one("#options", OptionsPane)
            await wait_for(pilot, lambda: pane.listed is not None and len(pane.listed) > 0, "the options listed")
            pane.focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: driver.question() != asked or driver.client.result is not None,
                           "the choice taken")
            moves += 1
        await wait_for(pilot, lambda: len(screen.query_one(MoveList).lines) > 0, "the move list")
        screen.action_resign()
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: driver.client.result is not None, "the end")
        await other.until(lambda: other.client.result is not None)
        assert driver.client.result.winners == (1, 2) and "resigned" in driver.client.result.reason
        await wait_for(pilot, lambda: len(driver.entries) == len(host.driver.entries), "the whole log")
        await wait_for(pilot, lambda: "the deal checked" in "\n".join(
            line.text for line in screen.query_one("#events", RichLog).lines), "the deal's check in the log")
        assert "resigned" in str(screen.query_one("#status").render())
    other.leave()
    await asyncio.wait_for(serving, 30)
    assert moves == 8


async def test_join_from_home_a_pasted_invitation_a_bad_one_said_and_a_game_watched(tmp_path: Path) -> None:
    """Home's "Join a hosted game": a text that is no invitation is said in one line; a spectator's
    invitation watches two clients play Brandubh to the end (the spectator is never asked)."""
    from textual.widgets import Input, Static

    from tui.screens.dialogs import JoinDialog

    host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), tmp_path / "t.fief")
    invitations, serving = await hosted(host)
    app = FiefdomApp(tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinDialog), "the invitation's box")
        box = app.screen.query_one("#join-url", Input)
        box.value = "fief://127.0.0.1/1"
        await pilot.press("enter")
        error = app.screen.query_one("#join-error", Static)
        await wait_for(pilot, lambda: "looks like" in str(error.render()), "the one line")
        box.value = invitations[-1].url()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RemotePlayScreen), "the hosted game's screen")
        screen = app.screen
        assert isinstance(screen, RemotePlayScreen)
        lobby = screen.query_one("#lobby", Static)
        await wait_for(pilot, lambda: "waiting for attackers, defenders" in str(lobby.render()), "the lobby")
        players = [await Player(inv, seed=i).join() for i, inv in enumerate(invitations[:-1])]
        await wait_for(pilot, lambda: screen.drawn, "the table")
        driver = screen.remote_driver
        await wait_for(pilot, lambda: driver.client.result is not None, "the end of the game")
        assert driver.question() is None and driver.client.seat is None
        await wait_for(pilot, lambda: len(driver.entries) == len(host.driver.entries), "every move")
        await wait_for(pilot, lambda: len(screen.query_one(MoveList).lines) > 0, "the move list")
        for p in players:
            await p.until(lambda p=p: p.client.result is not None)
            p.leave()
    await asyncio.wait_for(serving, 30)


async def test_the_clocks_show_in_the_status_line(tmp_path: Path) -> None:
    """A hosted game with a time control: every person's clock in the status line, the running one
    counting down between the host's tables."""
    import re

    from textual.widgets import Static

    from notation.clock import ClockRule

    host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), tmp_path / "c.fief",
                    clock=ClockRule(120.0, 2.0))
    invitations, serving = await hosted(host)
    other = await Player(invitations[1], play=False).join()
    app = FiefdomApp(tmp_path / "data", join=invitations[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RemotePlayScreen) and app.screen.drawn, "the table")
        status = app.screen.query_one("#status", Static)
        await wait_for(pilot, lambda: re.search(r"attackers 1:5\d · defenders 2:00$", str(status.render())),
                       "both clocks, the attackers' running")
    other.leave()
    await host.stop()
    await asyncio.wait_for(serving, 30)


async def test_the_app_comes_back_by_itself_to_a_host_resumed(tmp_path: Path) -> None:
    """The host stops mid-game (its connections cut); the app says it is trying again, and when the
    host is resumed from its record on the same port, it is back at its question with the whole log."""
    from textual.widgets import Static

    from notation.host import Host, HostSettings
    from notation.runner import Runner

    path = tmp_path / "r.fief"
    host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), path)
    invitations, serving = await hosted(host)
    other = await Player(invitations[1], seed=3).join()
    app = FiefdomApp(tmp_path / "data", join=invitations[0])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await drawn(pilot, app)
        driver = screen.remote_driver
        pane = screen.query_one("#options", OptionsPane)
        for _ in range(2):
            await wait_for(pilot, lambda: driver.question() is not None and pane.listed, "a question")
            asked = driver.question()
            pane.focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: driver.question() != asked, "the move taken")
        await wait_for(pilot, lambda: driver.question() is not None, "the third question")
        steps = len(host.driver.entries)
        await host.stop()
        await asyncio.wait_for(serving, 30)
        error = screen.query_one("#error", Static)
        await wait_for(pilot, lambda: "trying again" in str(error.render()), "the app saying it tries again")

        runner = Runner.resume(path)
        again = Host(HostSettings.load(path), runner.header, None, runner=runner, say=lambda _: None)
        assert (await again.open())[0].url() == invitations[0].url()
        serving = asyncio.get_running_loop().create_task(again.serve())
        other = await Player(invitations[1], seed=4).join()
        await wait_for(pilot, lambda: driver.question() is not None and len(driver.entries) == steps,
                       "back at the question with the whole log")
        await wait_for(pilot, lambda: str(error.render()) == "", "the line about trying again cleared")
        log = [line.text for line in screen.query_one("#events", RichLog).lines]
        assert sum("Attackers:" in line for line in log) == 2  # written again once, not twice
        await screen.remote_driver.resign(0)
        await wait_for(pilot, lambda: driver.client.result is not None, "the end")
    await other.until(lambda: other.client.result is not None)
    other.leave()
    await asyncio.wait_for(serving, 30)
