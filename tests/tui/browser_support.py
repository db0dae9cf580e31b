"""A real headless Chromium for the browser test (test_browser.py), driven through its own DevTools
protocol over a WebSocket (aiohttp's client, which textual-serve brings): no browser driver, no
download. Imported by name (tests/tui is on sys.path).

The page textual-serve serves draws the terminal with xterm.js on a canvas (WebGL or 2D), so no
text is in the DOM; the page keeps its terminal in a closure. A script that runs before the page's
own keeps a reference to every xterm ``Terminal`` as it is built (its constructor assigns
``_addonManager``, caught once by a setter on Object.prototype), and :meth:`Page.screen_text`
reads the lines the terminal holds, which are what its renderer draws.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

T = TypeVar("T")

PACKAGE = "chromium"  # Debian's
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",  # the page's web font fails at once
    "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--window-size=1280,800",
]

# Keeps every xterm.js Terminal the page builds in window.__terminals (see the module's docstring).
KEEP_TERMINALS = """
Object.defineProperty(Object.prototype, "_addonManager", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "_addonManager", {value, writable: true, configurable: true, enumerable: true});
    (window.__terminals = window.__terminals || []).push(this);
  },
});
"""

# The lines the page's terminal shows, or null before it is built.
SCREEN_TEXT = """(() => {
  const term = (window.__terminals || [])[0];
  if (!term) return null;
  const buffer = term.buffer.active, lines = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines.join("\\n");
})()"""

# The terminal in full view: textual.js marks the body on the app's first output, and the terminal
# fades in (CSS opacity) from then on.
TERMINAL_SHOWN = """(() => {
  const el = document.querySelector(".textual-terminal");
  return !!document.body && document.body.classList.contains("-first-byte") && !!el && getComputedStyle(el).opacity === "1";
})()"""

# Resolves once the browser has drawn two more frames (what the terminal holds is on screen).
TWO_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def chromium_path() -> str | None:
    """Chromium's program, or None when it is not installed."""
    return shutil.which("chromium") or next((p for p in ("/usr/bin/chromium",) if os.access(p, os.X_OK)), None)


def free_port() -> int:
    """A TCP port free on the loopback address just now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen[Any]) -> None:
    """End ``process`` and every program it started (its own process group, start_new_session=True):
    SIGTERM, then SIGKILL after five seconds."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 10.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    if process.poll() is None:
        process.wait(10.0)


async def until(check: Callable[[], Awaitable[T | None]], what: str, timeout: float = 60.0,
                alive: Callable[[], str | None] | None = None) -> T:
    """Polls ``check`` until it gives something true, or fails after ``timeout`` seconds naming
    ``what``; ``alive`` (None while all is well, else why not) stops the wait at once."""
    end = time.monotonic() + timeout
    while True:
        result = await check()
        if result:
            return result
        gone = alive() if alive is not None else None
        if gone is not None:
            raise AssertionError(f"waiting for {what}: {gone}")
        if time.monotonic() > end:
            raise AssertionError(f"no {what} after {timeout:.0f} s")
        await asyncio.sleep(0.1)


class Page:
    """One page of the browser, over its DevTools WebSocket: commands, their answers."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            future = self.waiting.pop(data.get("id", -1), None)  # events (no id) are not used
            if future is not None and not future.done():
                future.set_result(data)
        for future in self.waiting.values():  # the browser went away
            if not future.done():
                future.set_exception(ConnectionError("the browser closed its DevTools connection"))

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """A DevTools command's result (an AssertionError when the browser answers with an error)."""
        key = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[key] = future
        await self.ws.send_str(json.dumps({"id": key, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 30.0)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        return dict(answer.get("result", {}))

    async def open(self, url: str) -> None:
        """Goes to ``url``, keeping the terminals its page builds (:data:`KEEP_TERMINALS`)."""
        await self.send("Page.enable")
        await self.send("Page.addScriptToEvaluateOnNewDocument", source=KEEP_TERMINALS)
        await self.send("Page.navigate", url=url)

    async def close(self) -> None:
        await self.ws.close()
        await self.reader

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"in the page: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def screen_text(self) -> str | None:
        """The text on the page's terminal, its lines joined by newlines (None before there is one)."""
        text = await self.evaluate(SCREEN_TEXT)
        return None if text is None else str(text)

    async def press(self, key: str, code: str, key_code: int, shift: bool = False) -> None:
        """One key pressed and released where the page's focus is, as a keyboard would: ``key`` and
        ``code`` as KeyboardEvent names them ("?", "Slash"; "ArrowDown" twice), its Windows key code."""
        modifiers = 8 if shift else 0
        typed = {"text": key, "unmodifiedText": key} if len(key) == 1 else {}  # a character's key types it
        await self.send("Input.dispatchKeyEvent", type="keyDown", key=key, code=code, windowsVirtualKeyCode=key_code,
                        modifiers=modifiers, **typed)
        await self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=key_code,
                        modifiers=modifiers)

    async def insert_text(self, text: str) -> None:
        """``text`` typed where the page's focus is at once, as a paste or an input method gives it
        (xterm.js passes it on to the app as the keys' characters)."""
        await self.send("Input.insertText", text=text)

    async def screenshot(self, path: Path) -> Path:
        """A PNG of the page as drawn, once the browser has drawn two more frames."""
        await self.evaluate(TWO_FRAMES)
        shot = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))
        return path


class Browser:
    """Headless Chromium on a fresh profile under ``folder``, its DevTools on a loopback port."""

    def __init__(self, program: str, folder: Path) -> None:
        self.profile = folder / "profile"
        self.log = folder / "chromium.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([program, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)

    def gone(self) -> str | None:
        if self.process.poll() is None:
            return None
        return f"chromium ended ({self.process.returncode}): {self.log.read_text('utf-8', 'replace')[-2000:]}"

    async def page(self, session: aiohttp.ClientSession) -> Page:
        """The browser's first page, connected (waits for the browser to be listening)."""
        port_file = self.profile / "DevToolsActivePort"

        async def port() -> int | None:
            lines = port_file.read_text("utf-8").split() if port_file.exists() else []
            return int(lines[0]) if lines and lines[0].isdigit() else None

        devtools = await until(port, "chromium's DevTools port", alive=self.gone)

        async def page_target() -> str | None:
            async with session.get(f"http://127.0.0.1:{devtools}/json/list") as answer:
                targets = await answer.json()
            return next((t["webSocketDebuggerUrl"] for t in targets if t.get("type") == "page"), None)

        url = await until(page_target, "a page in chromium", alive=self.gone)
        return Page(await session.ws_connect(url, max_msg_size=0))

    def close(self) -> None:
        stop(self.process)
