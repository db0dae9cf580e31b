"""fiefdom's command line (typer). Every failure a user can cause is one line
on stderr and exit status 2; nothing here prints a traceback for bad input.

The generic commands live here (play, resume, simulate, replay); each game adds
its own through its tui plugin's ``cli`` (``fiefdom tafl ...``, ``fiefdom
simulate taifa``), imported when the command line is built. Game code itself is
imported inside the commands that need it, so starting stays light.
"""

from __future__ import annotations

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
        fail(f"cannot use the data folder {data_dir}: {err.strerror or err}")
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
        fail(f"cannot use the data folder {data_dir}: {err.strerror or err}")
    app_.run()


def _add_games() -> None:
    """Each game's own commands, from its tui plugin (the module is light: its commands import the game)."""
    for name in tui_games.names():
        register = tui_games.plugin(name).load("cli")
        if register is not None:
            register(app, simulate_app)


_add_games()
app.add_typer(replay_app, name="replay")


def main() -> None:
    """Entry point: a wrong argument is one line, and a bug too, with the traceback behind FIEFDOM_DEBUG=1."""
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
    except BrokenPipeError:  # output piped into a reader that stopped (`| head`): nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(141) from None
    except SystemExit as end:  # typer ends a command whose reader stopped with 1, its output made quiet
        if end.code == 1 and isinstance(sys.stdout, PacifyFlushWrapper):
            raise SystemExit(141) from None  # as for a closed pipe anywhere else (128 + SIGPIPE)
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
