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

The generic commands live here (play, resume, simulate, replay): ``play GAME`` and
``simulate GAME`` serve every registered game, built from its descriptor alone (its
variants, seats, option specs, data files and AI levels). Each game adds only what is
its own through its tui plugin's ``cli`` (``fiefdom tafl analyse``, ``fiefdom taifa
map``), imported when the command line is built. Game code itself is imported inside
the commands that need it, so starting stays light.
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

from core import games as core_games
from core.engine import RulesError
from notation.wording import visible
from tui import games as tui_games
from tui.cli_network import register as register_network
from tui.cli_replay import replay_app
from tui.cli_tournament import register as register_tournament
from tui.session import default_data_dir
from tui.cli_support import (AI_DEPTH_HELP, AI_TIME_HELP, CLUSTER_HELP, DATA_HELP, JOBS_HELP, OPTION_HELP,
                             PLAY_SEED_HELP, SEAT_HELP, VARIANT_HELP, data_pairs, fail, games_for, resume_at_prompt, takes_data_flags)

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help text, no boxes
    help=f"Play, record and review tabletop games ({', '.join(core_games.names())}).",
)
# The folder a user would look in, named in --help (the platform's, unless --data-dir says another).
DATA_DIR_HELP = f"Where autosaves, saved records and keymap.toml live; without it: {default_data_dir()}"
GAME_HELP = f"The game: {', '.join(core_games.names())}."
NEW_GAME_DATA_HELP = "A data file of the game's own, as KEY=FILE (its own map, say), repeatable."


@app.command("play")
@takes_data_flags
def play(
    game: Optional[str] = typer.Argument(None, help=GAME_HELP + " Without it: the home screen.", metavar="GAME",
                                         show_default=False),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help=VARIANT_HELP),
    seat: list[str] = typer.Option([], "--seat", help=SEAT_HELP, metavar="NAME=KIND"),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE"),
    data: list[str] = typer.Option([], "--data", help=NEW_GAME_DATA_HELP, metavar="KEY=FILE"),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed for the game's chance and its AI and "
                                       "random seats " + PLAY_SEED_HELP),
    prompt: bool = typer.Option(False, "--prompt", help="Play at the text prompt instead of the app."),
    table_dice: bool = typer.Option(False, "--table-dice",
                                    help="Type the dice thrown on a real table (shuffles and picks stay seeded)."),
    ai_time: Optional[float] = typer.Option(None, "--ai-time", min=0.001, help=AI_TIME_HELP),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help=AI_DEPTH_HELP),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the record (default: an autosave "
                                       "in the data folder)."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists (never a data file)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
    **flags: Any,
) -> None:
    """Start the app (new game, continue an unfinished one, open a record), or with GAME that game at once.

    With GAME, every seat is its default unless --seat says otherwise (a person, the AI at one of
    its levels, the rulebook's bot, a random mover); the game starts in the app, or at the text
    prompt with --prompt, and every step is recorded as it is played.
    """
    if game is None:
        given = {"--variant": variant, "--seat": seat, "--option": option, "--data": data, "--seed": seed,
                 "--prompt": prompt, "--table-dice": table_dice, "--ai-time": ai_time, "--ai-depth": ai_depth,
                 "--out": out, "--force": force, **{flag: flags.get(_param) for flag, _param in _data_flag_params()}}
        named = [flag for flag, value in given.items() if value not in (None, False, [])]
        if named:
            fail(f"{named[0]} is for a new game: name the GAME (fiefdom play GAME {named[0]} ...)")
        _run_app(data_dir)
        return
    from tui.cli_support import new_game, play_at_prompt, play_seed, start_runner

    chosen = new_game(game, variant, seat, option, data, flags, play_seed(seed), people=True, ai_time=ai_time,
                      ai_depth=ai_depth, chance="manual" if table_dice else "seeded")
    runner = start_runner(chosen.setup, out, force, chosen.games, data_dir=data_dir, inputs=chosen.inputs)
    if prompt:
        play_at_prompt(runner)
        return
    path = runner.path
    runner.close()  # the app carries the new record on, as `fiefdom resume` does
    _run_app(data_dir, resume_path=path, games=chosen.games)


def _data_flag_params() -> list[tuple[str, str]]:
    from tui.cli_support import DATA_FLAGS, _flag_param

    return [(flag, _flag_param(flag)) for flag in DATA_FLAGS]


def _run_app(data_dir: Optional[Path], **kwargs: Any) -> None:
    from tui.app import FiefdomApp

    try:
        app_ = FiefdomApp(data_dir, **kwargs)
    except OSError as err:
        fail(str(err))  # tui.session.DataDirError: the folder named, what is in the way
    app_.run()


@app.command("simulate", no_args_is_help=True)
@takes_data_flags
def simulate(
    game: str = typer.Argument(..., help=GAME_HELP, metavar="GAME", show_default=False),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help=VARIANT_HELP),
    seat: list[str] = typer.Option([], "--seat", help=SEAT_HELP + " A seat a person plays by default goes "
                                   "to the rulebook bot, else the AI, else a random mover.", metavar="NAME=KIND"),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE"),
    data: list[str] = typer.Option([], "--data", help=NEW_GAME_DATA_HELP, metavar="KEY=FILE"),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed for the whole run; each game gets its own."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="How many games to play."),
    ai_time: Optional[float] = typer.Option(None, "--ai-time", min=0.001, help=AI_TIME_HELP),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help=AI_DEPTH_HELP),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each game as a .fief record into this folder."),
    force: bool = typer.Option(False, "--force", help="Replace records of an earlier run with the same names."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, max=256, help=JOBS_HELP),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP, metavar="ADDRESS"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No line for each game: the summary only."),
    **flags: Any,
) -> None:
    """Play headless games of GAME; print each game's result, the wins per seat, the reasons and the speed.

    A bot seat is played by the rulebook's bot (rules, not a player); ai is the game's AI (or one
    of its levels); random picks any legal option (for fuzzing). The games are shared out among
    --jobs processes (or a cluster's workers) and taken back in order: the records and every line
    but the time are the same for any --jobs: an AI seat works to a count of nodes, not the clock,
    unless --ai-time is given. Records carry the run's start time, or SOURCE_DATE_EPOCH's when it
    is set.
    """
    from tui.cli_support import SIMULATE_WORDS, SimulateWords, jobs_for, new_game, run_batch
    from tui.progress import Progress
    from tui.simulate import Batch, summary

    chosen = new_game(game, variant, seat, option, data, flags, seed, people=False, ai_time=ai_time,
                      ai_depth=ai_depth)
    setup = chosen.setup
    words = SIMULATE_WORDS.get(setup.game, SimulateWords())
    own = words.tally() if words.tally is not None else None
    with Progress(games, "games", quiet=quiet) as progress:
        batch = Batch(setup, games, out, progress.line, noun=words.noun, force=force, inputs=chosen.inputs,
                      observe=words.observe if own is not None else None, add=own.add if own is not None else None,
                      jobs=jobs_for(jobs, cluster), cluster=cluster,
                      **({"reason": words.reason} if words.reason is not None else {}))
        tally = run_batch(batch, chosen.games)
    names = [s.name for s in chosen.games(setup.game).seat_specs(setup.variant)]
    typer.echo(summary(batch, tally, chosen.seats, names, own.lines(names) if own is not None else ()))


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


@app.command("games")
def games_command(
    game: Optional[str] = typer.Argument(None, help=GAME_HELP + " Without it: every game, in one line each.",
                                         metavar="GAME", show_default=False),
) -> None:
    """What `play GAME` and `simulate GAME` take: each game's variants, seats, options, data files, AI levels."""
    from tui.cli_support import describe_game, game_name

    if game is None:
        for name in core_games.names():
            try:
                gi = core_games.info(name)
            except RulesError as err:  # another package's game that cannot be imported: said, the list goes on
                typer.echo(visible(f"{name:<10} {err}"))
                continue
            typer.echo(visible(f"{name:<10} {gi.title}: {gi.variant_word}s {', '.join(gi.variant_keys())}"))
        return
    typer.echo(describe_game(core_games.info(game_name(game))))


def _add_games() -> None:
    """Each game's own commands, from its tui plugin (the module is light: its commands import the game)."""
    for name in tui_games.names():
        register = tui_games.plugin(name).load("cli")
        if register is not None:
            register(app)


_add_games()
app.add_typer(replay_app, name="replay")
register_network(app)
register_tournament(app)


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
        sys.stdout = _GuardedOutput(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, _GuardedOutput):  # closed: errors go unsaid
        sys.stderr = _GuardedOutput(sys.stderr, "standard error")


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


def short_usage() -> str:
    """``fiefdom`` alone: the commands people start with (the games named by the registry)."""
    return f"""usage: fiefdom COMMAND [ARGS]...   (fiefdom --help lists every command)

  fiefdom play                     the app: a new game, one to continue, a record to open
  fiefdom play GAME --prompt       a game at the text prompt; GAME is {', '.join(core_games.names())}
  fiefdom replay view FILE         step through a recorded game
  fiefdom host GAME                play together, each at their own terminal (fiefdom join URL)"""


def _run() -> None:
    """The command line, run: always ends in SystemExit with the command's status."""
    if len(sys.argv) <= 1:  # `fiefdom` alone: the commands people start with, not the whole help
        typer.echo(short_usage())
        raise SystemExit(0)
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
