"""``fiefdom serve``: the app in a web browser, for a player without Python (textual-serve).

Each browser tab that opens the page starts its own app, the home screen, as a program of
this same interpreter (``fiefdom play`` with no game); the page draws it with xterm.js and
sends the keys and the mouse back over a WebSocket. The app runs on the machine that serves
it, on that machine's data folder: every player of one server shares its autosaves and records.

The command's options (registered in tui/cli.py):

- ``--bind ADDRESS``: the address to listen on (default ``127.0.0.1``, this machine only;
  ``0.0.0.0`` for every network it is on: anyone who reaches the port plays on this machine);
- ``--port PORT``: the TCP port, 1 to 65535 (default 8000);
- ``--command TEXT``: the shell command that starts the app for each page instead (another
  ``fiefdom play`` line, say with ``--data-dir``).

It prints one line, the address to open, and serves until Ctrl+C. A bad address or port, or
one that cannot be listened on (in use, not this machine's), is one line and exit status 2.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import socket
import sys
from typing import Any, NoReturn

from notation.protocol import reachable_name
from tui.cli_support import fail

MOST_PORT = 65535

# The app's home screen, as `fiefdom play` starts it, with this interpreter (a `fiefdom` script may
# not be on the PATH, nor belong to this installation). The program's name in its messages stays "fiefdom".
_START_APP = "import sys; sys.argv[0] = 'fiefdom'; from tui.cli import main; main()"


def app_command() -> str:
    """The shell command each page starts: ``fiefdom play`` (the home screen) with this interpreter."""
    return shlex.join([sys.executable, "-c", _START_APP, "play"])


def page_url(bind: str, port: int) -> str:
    """The address a person opens for a server on ``bind``: the machine's name for every address
    (``0.0.0.0``, ``::``), an IPv6 address in brackets."""
    host = reachable_name(bind)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def check_address(bind: str, port: int) -> None:
    """A port from 1 to 65535 on an address of this machine that is free to listen on (as the server
    will: every address the name resolves to, SO_REUSEADDR), else one line (exit 2). Checked before
    anything is printed, so the line with the address is never followed by a failure to listen there."""
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= MOST_PORT:
        fail(f"--port takes a TCP port from 1 to {MOST_PORT}, not {port!r}")
    if not bind.strip():
        fail("--bind takes an address to listen on, such as 127.0.0.1 (this machine) or 0.0.0.0 (every network)")
    try:
        found = socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        fail(f"--bind: {bind!r} is not an address to listen on ({reason})")
    for family, kind, proto, _name, address in found:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
        except OSError as err:
            _cannot_listen(bind, port, err)


def _cannot_listen(bind: str, port: int, err: OSError) -> NoReturn:
    fail(f"cannot serve on {bind} port {port}: {err.strerror or err}")


def serve(bind: str = "127.0.0.1", port: int = 8000, command: str | None = None) -> None:
    """Serve the app on ``http://bind:port/`` until Ctrl+C (or SIGTERM); each page that opens
    starts ``command`` (default: :func:`app_command`, the home screen). One line says where to
    go; a bad or busy address is one line on standard error and exit 2 (:func:`tui.cli_support.fail`)."""
    check_address(bind, port)
    from textual_serve.server import Server

    url = page_url(bind, port)

    class _Server(Server):
        def initialize_logging(self) -> None:
            # textual-serve's own warnings and errors (an app that fails to start), one line each;
            # not a line for every request.
            logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")

        async def on_startup(self, app: Any) -> None:
            print(f"fiefdom in a browser: open {url} (Ctrl+C stops it)", flush=True)

        async def handle_index(self, request: Any) -> Any:
            # The page names the WebSocket and its files by the address the browser asked for, so a
            # page opened as localhost, by the machine's name or from another machine connects back.
            # No await before the page is made: no other request sees this one's address.
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    server = _Server(app_command() if command is None else command, host=bind, port=port, title="fiefdom")
    asyncio.set_event_loop(asyncio.new_event_loop())  # the loop Server.serve asks for (none is current yet)
    try:
        server.serve()
    except OSError as err:  # taken since it was checked
        _cannot_listen(bind, port, err)
