"""fiefdom's command line (typer). Every failure a user can cause is one line
on stderr and exit status 2; nothing here prints a traceback for bad input.

Standard output that cannot be written (a full disk: ``> /dev/full``; a closed
descriptor: ``>&-``; an I/O error) is one of those failures: one line on stderr,
``error: cannot write to standard output: <why>``, and exit 2, as for any other
write that fails (a record or an ``--out`` file). Not 1, which ``replay verify``
and ``replay export`` give a record that replays differently: a caller must not
read "differs" when nothing could be said. A reader that went away (``| head``)
is not an error: the command stops quietly with status 141 (128 + SIGPIPE), as
any program killed by the signal would. A command that reads standard input
finds it closed (``<&-``) in one line, exit 2, too. All of this is handled once,
in :func:`main` (:func:`guard_standard_streams`), for every command.

The generic commands live here (play, resume, simulate, replay); each game adds
its own through its tui plugin's ``cli`` (``fiefdom tafl ...``, ``fiefdom
simulate taifa``), imported when the command line is built. Game code itself is
imported inside the commands that need it, so starting stays light.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from typer._click import exceptions as click_errors  # typer 0.29 carries click inside (pinned in pyproject)
from typer._click.utils import PacifyFlushWrapper

from notation.wording import visible
from tui import games as tui_games
from tui.cli_replay import replay_app
from tui.session import default_data_dir
from tui.cli_support import DATA_HELP, data_pairs, fail, games_for, resume_at_prompt, takes_data_flags

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help text, no boxes
    help=f"Play, record and review tabletop games ({', '.join(tui_games.names())}).",
)
# The folder a user would look in, named in --help (the platform's, unless --data-dir says another).
DATA_DIR_HELP = f"Where autosaves, saved records and keymap.toml live; without it: {default_data_dir()}"
simulate_app = typer.Typer(no_args_is_help=True, add_completion=False, help="Play headless games and write records.")
app.add_typer(simulate_app, name="simulate")


@app.command("play")
def play(
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Start the app: new game, continue an unfinished one, open a record."""
    from tui.app import FiefdomApp

    try:
        app_ = FiefdomApp(data_dir)
    except OSError as err:
        fail(str(err))  # tui.session.DataDirError: the folder named, what is in the way
    app_.run()


@app.command("resume")
@takes_data_flags
def resume(
    file: Path = typer.Argument(..., help="An unfinished .fief record.", metavar="FILE", show_default=False),
    prompt: bool = typer.Option(False, "--prompt", help="Play on at the text prompt instead of the app."),
    data: list[str] = typer.Option([], "--data", help=DATA_HELP, metavar="KEY=FILE"),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    **flags: Any,
) -> None:
    """Carry on an unfinished game from its record, in the app or at the prompt (--prompt).

    At the prompt, bot, AI and random seats play by themselves and people type their
    choices; every step is added to FILE as it is played. A finished or damaged record
    is refused in one line and left as it is.
    """
    pairs = data_pairs(data, flags)
    games = games_for(file, pairs)
    if prompt:
        resume_at_prompt(file, games)
        return
    from notation.format import RecordError
    from tui.cli_support import check_resumable

    try:
        check_resumable(file, games)
    except RecordError as err:
        fail(f"{file}: {err}")
    except OSError as err:
        fail(f"{file}: {err.strerror or err}")
    from tui.app import FiefdomApp

    try:
        app_ = FiefdomApp(data_dir, resume_path=file, games=games)
    except OSError as err:
        fail(str(err))  # tui.session.DataDirError: the folder named, what is in the way
    app_.run()


def _add_games() -> None:
    """Each game's own commands, from its tui plugin (the module is light: its commands import the game)."""
    for name in tui_games.names():
        register = tui_games.plugin(name).load("cli")
        if register is not None:
            register(app, simulate_app)


_add_games()
app.add_typer(replay_app, name="replay")


# A write to standard output that failed (not a closed pipe): the status of every failed write.
WRITE_FAILED = 2
CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell shows for a program whose reader went away


class OutputError(Exception):
    """Standard output (or error) refused a write: a full disk, a closed descriptor, an I/O error;
    never a closed pipe (that stays BrokenPipeError). Not an OSError, so that no command's own
    handling of its files (``except OSError``) takes it for one of them: it reaches :func:`main`."""

    def __init__(self, err: OSError, stream: str = "standard output") -> None:
        self.strerror = err.strerror or str(err)
        self.stream = stream
        super().__init__(f"cannot write to {stream}: {self.strerror}")


class _GuardedOutput:
    """Standard output or error (text, or its binary ``buffer``) whose failed writes raise
    OutputError; everything else is the stream's own."""

    def __init__(self, stream: Any, name: str = "standard output") -> None:
        self._stream = stream
        self._name = name

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    @property
    def buffer(self) -> Any:
        return _GuardedOutput(self._stream.buffer, self._name)

    def _guard(self, call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(err, self._name) from None

    def write(self, data: Any) -> Any:
        return self._guard(self._stream.write, data)

    def writelines(self, lines: Any) -> None:
        self._guard(self._stream.writelines, lines)

    def flush(self) -> None:
        self._guard(self._stream.flush)


class _ClosedOutput(io.TextIOBase):
    """Standard output when its descriptor was closed (``>&-``, Python's sys.stdout is None):
    writing anything fails as writing to a closed descriptor does, instead of vanishing."""

    encoding = "utf-8"
    errors = "strict"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            raise OutputError(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        return 0


def guard_standard_streams() -> None:
    """Make every failure of standard output an OutputError (see the module's words).

    A closed descriptor 0, 1 or 2 is first given /dev/null, so that no file this process opens
    later takes its number (a record written by way of ``print``); the closed output then fails
    at its first write, as it would in any other program, and a closed input reads as missing
    (Python's sys.stdin stays None), which the commands that read it refuse in one line."""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, mode)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    elif not isinstance(sys.stdout, (_GuardedOutput, _ClosedOutput)):
        sys.stdout = _GuardedOutput(sys.stdout)  # type: ignore[assignment]
    if sys.stderr is not None and not isinstance(sys.stderr, _GuardedOutput):  # closed: errors go unsaid
        sys.stderr = _GuardedOutput(sys.stderr, "standard error")  # type: ignore[assignment]


def _drop_output(stream: Any = None) -> None:
    """Whatever is still buffered for standard output (or ``stream``) goes nowhere (to /dev/null),
    so that the interpreter's last flush cannot fail again and add "Exception ignored" to the one line."""
    try:
        fd = (sys.stdout if stream is None else stream).fileno()
    except (AttributeError, OSError, ValueError):  # no descriptor: a stand-in, nothing to flush at exit
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


def main() -> None:
    """Entry point: a wrong argument is one line, and a bug too, with the traceback behind FIEFDOM_DEBUG=1.

    Standard output is flushed here, before the exit, so that a write the buffer held back fails
    while it can still be said in one line (the interpreter's own flush at exit would print
    "Exception ignored" and end with status 120)."""
    given = sys.stdout, sys.stderr
    guard_standard_streams()
    try:
        try:
            _run()
        finally:
            sys.stdout.flush()
    except OutputError as err:
        _drop_output()
        if err.stream == "standard error":
            _drop_output(sys.stderr)
        else:
            try:
                typer.echo(f"error: {err}", err=True)
            except (OSError, OutputError):  # standard error fails too: the status says it
                pass
        raise SystemExit(WRITE_FAILED) from None
    except BrokenPipeError:  # output piped into a reader that stopped (`| head`): nothing to say
        _drop_output()
        raise SystemExit(CLOSED_PIPE) from None
    finally:
        if isinstance(sys.stdout, (_GuardedOutput, _ClosedOutput)):
            sys.stdout = given[0]  # as they were (the process ends here; a test calling main goes on)
        if isinstance(sys.stderr, _GuardedOutput):
            sys.stderr = given[1]


def _run() -> None:
    """The command line, run: always ends in SystemExit with the command's status."""
    try:
        # Named here: click would take "python -m pkg" for the name when started with -m (tests).
        code = app(prog_name="fiefdom", standalone_mode=False)  # usage errors come here, said in one line
    except click_errors.NoArgsIsHelpError as err:  # `fiefdom simulate` alone: the command's help, as asked
        err.show()
        raise SystemExit(err.exit_code) from None
    except click_errors.UsageError as err:
        typer.echo(usage_line(err), err=True)
        raise SystemExit(err.exit_code) from None
    except click_errors.ClickException as err:
        typer.echo(f"error: {visible(err.format_message())}", err=True)
        raise SystemExit(err.exit_code) from None
    except typer.Abort:  # end of input at a typer prompt
        typer.echo("aborted", err=True)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        code = 130
    except (BrokenPipeError, OutputError):
        raise  # standard output failed: main() says so
    except SystemExit as end:  # typer ends a command whose reader stopped with 1, its output made quiet
        if end.code == 1 and isinstance(sys.stdout, PacifyFlushWrapper):
            raise SystemExit(CLOSED_PIPE) from None  # as for a closed pipe anywhere else (128 + SIGPIPE)
        raise
    except Exception as err:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("FIEFDOM_DEBUG"):
            raise
        typer.echo(f"fiefdom: internal error: {type(err).__name__}: {err} "
                   "(run with FIEFDOM_DEBUG=1 for details, and please report it)", err=True)
        raise SystemExit(3) from None
    if code == 130:  # a Ctrl-C (typer turns one in a command into this code, without a word)
        typer.echo("interrupted", err=True)
    raise SystemExit(code if isinstance(code, int) else 0)


def usage_line(err: click_errors.UsageError) -> str:
    """A wrong argument or option in one line, naming the command and where its help is (typer's own
    message is four: the usage, a hint, a blank line and the error)."""
    message = visible(err.format_message())
    if err.ctx is None:
        return f"error: {message}"
    return f"error: {err.ctx.command_path}: {message} (see '{err.ctx.command_path} --help')"
