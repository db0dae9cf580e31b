"""`fiefdom serve` in a real browser: tui/serve.py serves the app on a loopback port, headless
Chromium opens the page, the home screen is drawn in it, and a key pressed in the page opens the
help screen. Then one move of a hosted game: a Brandubh game hosted in the test's own event loop
(tests/network/support.py), its attackers' invitation typed into home's "Join a hosted game" in the
page, the defenders a scripted client, and the attackers' first option played by keys in the page.
Screenshots of the three are kept in the test's temporary folder (their paths are printed;
`pytest -s` shows them). Skipped where Debian's chromium package is not installed. And `serve`'s
refusals: a bad port, address or one in use is one line, before any line saying where to go."""

from __future__ import annotations

import asyncio
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import typer

from tests.network.support import Player, new_host, setup_of
from tui.serve import app_command, page_url, serve
from browser_support import PACKAGE, TERMINAL_SHOWN, Browser, Page, chromium_path, free_port, stop, until

HOME_TEXT = "play, record and review medieval tabletop games"  # the home screen's title (tui/screens/home.py)
HELP_TEXT = "Keys here"  # the help screen's first heading (tui/screens/help.py)
JOIN_TEXT = "Join a hosted game: paste the invitation"  # home's join dialog (tui/screens/dialogs.py)
PNG = b"\x89PNG\r\n\x1a\n"


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    """`serve` on 127.0.0.1:port with the default command (the home screen), its data folder under
    ``folder``; its output in folder/serve.log."""
    env = {key: value for key, value in os.environ.items() if key not in ("TEXTUAL_THEME", "NO_COLOR")}
    env["XDG_DATA_HOME"] = str(folder / "xdg")  # the app's data folder (platformdirs), never the user's
    with (folder / "serve.log").open("wb") as log:
        return subprocess.Popen([sys.executable, "-c", f"from tui.serve import serve; serve('127.0.0.1', {port})"],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env, start_new_session=True)


async def test_the_app_in_a_browser(tmp_path: Path) -> None:
    program = chromium_path()
    if program is None:
        pytest.skip(f"needs a browser: Debian's {PACKAGE} package (apt-get install {PACKAGE})")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    log = tmp_path / "serve.log"
    server = start_server(tmp_path, port)
    browser = None

    def server_gone() -> str | None:
        if server.poll() is None:
            return None
        return f"serve ended ({server.returncode}): {log.read_text('utf-8', 'replace')[-2000:]}"

    try:
        browser = Browser(program, tmp_path)
        async with aiohttp.ClientSession() as session:
            async def listening() -> bool:
                try:
                    async with session.get(url) as answer:
                        return answer.status == 200
                except aiohttp.ClientConnectionError:
                    return False

            await until(listening, f"server on {url}", alive=server_gone)
            page = await browser.page(session)
            try:
                await page.open(url)

                async def shows(text: str) -> str | None:
                    screen = await page.screen_text()
                    return screen if screen is not None and text in screen else None

                async def drawn() -> bool:
                    return bool(await page.evaluate(TERMINAL_SHOWN))

                alive = server_gone
                home = await until(lambda: shows(HOME_TEXT), "home screen in the page", alive=alive)
                assert "New game" in home and "Continue an unfinished game" in home, home
                await until(drawn, "terminal in full view", alive=alive)
                shot = await page.screenshot(tmp_path / "home.png")
                print(f"the home screen in Chromium: {shot}")
                assert shot.read_bytes().startswith(PNG)

                # A key typed in the page reaches the app: "?" opens the help screen.
                await page.evaluate("window.__terminals[0].focus()")
                await page.press("?", "Slash", 191, shift=True)
                await until(lambda: shows(HELP_TEXT), "help screen after '?'", alive=alive)
                shot = await page.screenshot(tmp_path / "help.png")
                print(f"the help screen in Chromium: {shot}")

                await page.press("Escape", "Escape", 27)  # back home
                await until(lambda: shows(HOME_TEXT), "home screen after Escape", alive=alive)
                shot = await one_hosted_move(page, tmp_path, shows, alive)
                print(f"one move of a hosted game in Chromium: {shot}")
            finally:
                await page.close()
    finally:
        if browser is not None:
            browser.close()
        stop(server)
    assert f"fiefdom in a browser: open {url} (Ctrl+C stops it)" in log.read_text("utf-8").splitlines()


async def one_hosted_move(page: Page, folder: Path, shows: Callable[[str], Awaitable[str | None]],
                          alive: Callable[[], str | None]) -> Path:
    """A Brandubh game of two people hosted here on 127.0.0.1: the attackers (who move first) joined
    from home in the page, the defenders by a client that never answers (so the game stays at their
    turn); the attackers' highlighted option played by keys in the page. The screenshot's path."""
    host = new_host(setup_of("tafl", "brandubh", ["human", "human"]), folder / "hosted.fief")
    attackers, defenders = (await host.open())[:2]
    serving = asyncio.get_running_loop().create_task(host.serve())
    other: Player | None = None

    def host_gone() -> str | None:
        if serving.done():
            return f"the host stopped: {serving.exception() if not serving.cancelled() else 'cancelled'}"
        return alive()

    async def at(condition: Callable[[], Any]) -> Any:
        return condition()

    try:
        await page.press("j", "KeyJ", 74)
        await until(lambda: shows(JOIN_TEXT), "home's join dialog after 'j'", alive=host_gone)
        await page.insert_text(attackers.url())
        typed = attackers.url().split("://", 1)[1]  # the box scrolls its start out of view
        await until(lambda: shows(typed), "the invitation in the box", alive=host_gone)
        await page.press("Enter", "Enter", 13)
        await until(lambda: at(lambda: attackers.seat in host.peers), "the page's seat at the host", alive=host_gone)
        other = await Player(defenders, play=False).join()

        async def asked() -> str | None:  # the status line says so and the options pane lists the options
            screen = await shows("attackers (human) your move")
            return screen if screen is not None and "attackers to move" in screen else None

        board = await until(asked, "the attackers asked in the page", alive=host_gone)
        assert "tafl brandubh · step 1 · nothing played yet" in board, board

        await page.press("o", "KeyO", 79)  # the options pane, its first option highlighted
        await page.press("Enter", "Enter", 13)
        played = await until(lambda: at(lambda: host.driver is not None and host.driver.entries),
                             "the attackers' move at the host", alive=host_gone)
        assert [e.seat for e in played] == [attackers.seat], played
        await other.until(lambda: len(other.client.log) == 1 and other.client.ask is not None)
        move = played[0].text
        listed = [words.split()[0] for line in board.splitlines() if (words := line.partition("▊ ")[2].strip())]
        assert listed[0] == move, board  # the first option listed (highlighted) is the one played
        screen = await until(lambda: shows("defenders (human) to move"), "the defenders' turn in the page",
                             alive=host_gone)
        # The status line, and the move in the log (the moves or the events, whichever a low page shows).
        assert f"step 2 · last: {move}" in screen and (f"1. {move}" in screen or f"Attackers: {move}" in screen), (
            move, screen)
        return await page.screenshot(folder / "hosted-move.png")
    except AssertionError:
        print(f"the page's terminal then:\n{await page.screen_text()}")
        raise
    finally:
        if other is not None:
            other.leave()
        await host.stop()
        await asyncio.wait_for(serving, 30)


@pytest.mark.parametrize(("bind", "port", "says"), [
    ("127.0.0.1", 0, "error: --port takes a TCP port from 1 to 65535, not 0"),
    ("127.0.0.1", 65536, "error: --port takes a TCP port from 1 to 65535, not 65536"),
    (" ", 8000, "error: --bind takes an address to listen on, such as 127.0.0.1"),
    ("no-such-host.invalid", 8000, "error: --bind: 'no-such-host.invalid' is not an address to listen on ("),
])
def test_serve_refuses_a_bad_address_in_one_line(bind: str, port: int, says: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as stopped:
        serve(bind, port)
    assert stopped.value.exit_code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(says) and err.count("\n") == 1, err


def test_serve_refuses_a_port_in_use_before_saying_where_to_go(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(typer.Exit) as stopped:
            serve("127.0.0.1", port)
    assert stopped.value.exit_code == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: cannot serve on 127.0.0.1 port {port}: Address already in use\n"


def test_the_address_to_open() -> None:
    assert page_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert page_url("::1", 8080) == "http://[::1]:8080/"
    assert page_url("0.0.0.0", 80) == f"http://{socket.gethostname()}:80/"
    assert page_url("localhost", 8000) == "http://localhost:8000/"
    assert shlex.split(app_command())[::3] == [sys.executable, "play"]  # this interpreter, `fiefdom play`
