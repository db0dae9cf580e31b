"""What the generic commands and every game's own commands share: one-line errors, rule
options, a game's data files (``--data KEY=FILE`` and the flags games add for them),
record paths, and starting or resuming a game at the prompt.

Nothing here names a game: a game's data files come from its descriptor
(``GameDescriptor.data_files``), its extra flags from its CLI plugin.
"""

from __future__ import annotations

import contextlib

import inspect
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Optional

import typer

from core import games as core_games
from core.engine import RulesError
from notation.catalog import GameLookup
from notation.format import RecordError
from notation.wording import visible
from tui.session import read_data_file

if TYPE_CHECKING:
    from core.engine import Result
    from notation.runner import GameSetup, Runner, SeatPlan
    from tui.simulate import Batch, Tally


# A play command's --seed: by default a new one each game, so two games do not deal the same cards, roll
# the same dice or get the same AI replies; the prompt's first line shows it (console.py).
PLAY_SEED_HELP = "(default: a new random one each game, shown when it starts; give it to play the same game again)"


def play_seed(seed: int | None) -> int:
    """The seed a play command starts with: the one given, or a new random one."""
    from tui.session import new_seed

    return new_seed() if seed is None else seed


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr and exit ``code``: the message may quote a record or a file name, so
    it is made visible (a newline or an escape sequence in it is written out, never obeyed)."""
    typer.echo(f"error: {visible(message)}", err=True)
    raise typer.Exit(code)


def visible_lines(text: str) -> str:
    """Text of several lines (a position, a report) with each line made visible: the line
    breaks stay, every other character that could steer a terminal is written out."""
    return "\n".join(visible(line) for line in text.split("\n"))


MOST_SECONDS = 24 * 3600.0  # an AI's time per move or a benchmark: a day at most
MOST_DEPTH = 99  # an AI's search depth: far beyond what any search reaches


def check_seconds(value: float, flag: str) -> float:
    """A time in seconds from the command line: finite and at most a day (one line, exit 2, when not)."""
    if not math.isfinite(value) or value > MOST_SECONDS:
        fail(f"{flag} takes a number of seconds up to {MOST_SECONDS:.0f}, not {value}")
    return value


def check_depth(value: int | None, flag: str) -> int | None:
    """A search depth from the command line: at most MOST_DEPTH (one line, exit 2, when deeper)."""
    if value is not None and value > MOST_DEPTH:
        fail(f"{flag} takes a depth up to {MOST_DEPTH}, not {value if value < 10**12 else 'that'}")
    return value


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``--option name=value`` pairs; values are checked by the game itself."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            fail(f"--option takes name=value, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


# -- a game's data files ---------------------------------------------------------------

DATA_HELP = "A data file of the record's game, as KEY=FILE (its own map, say), repeatable."
DATA_FLAGS: dict[str, tuple[str, str]] = {}  # "--map" -> ("map", help): flags games add (add_data_flag)
_TAKERS: list[Callable[..., Any]] = []  # commands that take those flags (takes_data_flags)


def _flag_param(flag: str) -> str:
    return "data_" + flag.lstrip("-").replace("-", "_")


def _resign(func: Callable[..., Any]) -> None:
    """Give ``func`` a typer option for every data flag: its signature without ``**flags``, plus one
    keyword per flag (typer reads the signature when the command line is parsed)."""
    base: inspect.Signature = func.__fiefdom_signature__  # type: ignore[attr-defined]  # our mark (takes_data_flags)
    params = [p for p in base.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    for flag, (key, help_) in DATA_FLAGS.items():
        name = _flag_param(flag)
        func.__annotations__[name] = Optional[Path]
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Optional[Path],
                                        default=typer.Option(None, flag, help=help_, metavar="FILE")))
    func.__signature__ = base.replace(parameters=params)  # type: ignore[attr-defined]  # inspect (so typer) reads it


def takes_data_flags(func: Callable[..., Any]) -> Callable[..., Any]:
    """A command (its function ends in ``**flags``) that takes every game's data flags as well as ``--data``."""
    func.__fiefdom_signature__ = inspect.signature(func)  # type: ignore[attr-defined]  # our mark on a function
    _TAKERS.append(func)
    _resign(func)
    return func


def add_data_flag(flag: str, key: str, help_: str) -> None:
    """A game's own flag for one of its data files (``--map FILE`` for ``--data map=FILE``). Two games
    whose data files share a key share the flag (Taifa's decks and Take the Kingdom's cards are both
    ``cards``): its help says both; a flag taken for another key is a mistake in a game's plugin."""
    if flag in DATA_FLAGS:
        known, said = DATA_FLAGS[flag]
        if known != key:
            raise ValueError(f"{flag} is already the flag of data file {known!r}, not {key!r}")
        help_ = f"{said.rstrip('.')}; or {help_[0].lower()}{help_[1:]}"
    DATA_FLAGS[flag] = (key, help_)
    for func in _TAKERS:
        _resign(func)


def data_pairs(data: Sequence[str], flags: dict[str, Any] | None = None) -> list[tuple[str, Path]]:
    """``--data KEY=FILE`` options and data flags as (key, path) pairs; a bad one is one line."""
    pairs = []
    for item in data:
        key, sep, path = item.partition("=")
        if not sep or not key.strip() or not path.strip():
            fail(f"--data takes KEY=FILE, got {item!r}")
        pairs.append((key.strip(), Path(path.strip())))
    for flag, (key, _) in DATA_FLAGS.items():
        given = (flags or {}).get(_flag_param(flag))
        if given is not None:
            pairs.append((key, Path(given)))
    return pairs


def load_data(game: str, pairs: Sequence[tuple[str, Path]]) -> dict[str, Any]:
    """The user's own data files for ``game`` (key -> loaded data); one line, exit 2, when one is unusable."""
    from tui.cli_choices import canonical

    if not pairs:
        return {}
    gi = core_games.info(game)
    files = {f.key: f for f in gi.data_files}
    loaded = {}
    for key, path in pairs:
        key = canonical(key, files)  # --data MAP=FILE is map=FILE
        if key not in files:
            takes = f"it takes {', '.join(files)}" if files else "it takes none"
            fail(f"{gi.title} has no data file {key!r} ({takes})")
        loaded[key] = load_file(path, files[key].load)
    return loaded


def load_file(path: Path, load: Callable[[str], Any]) -> Any:
    """A user's data file (a map, decks) loaded by ``load``; one line, exit 2, when it cannot be
    (not a regular file, unreadable, or refused by the game's checks)."""
    try:
        return read_data_file(path, load)
    except RulesError as err:
        fail(str(err))


class _Named(Exception):
    pass


def record_game(path: Path) -> str | None:
    """The game a record's header names (None when the file cannot be read that far)."""
    named: list[str] = []

    def probe(game: str) -> Any:
        named.append(game)
        raise _Named

    try:
        from notation.files import read_regular
        from notation.reader import read_record_file

        read_record_file(read_regular(path), games=probe)
    except (RecordError, OSError):
        pass
    return named[0] if named else None


def data_lookup(game: str, pairs: Sequence[tuple[str, Path]]) -> GameLookup:
    """The registry, with the data files given (``--data``, a game's flags) for a new game of ``game``."""
    data = load_data(game, pairs)
    return core_games.lookup({game: data}) if data else core_games.info


def data_lookup_any(pairs: Sequence[tuple[str, Path]]) -> GameLookup:
    """The registry, with the data files given for every game whose files they are (a folder of records
    may hold several games: those of the others read as they are, and a record that needs files it
    was not given says so); one line, exit 2, when they are no game's. Loaded once, for every record,
    in whatever process reads it."""
    if not pairs:
        return core_games.info
    from tui.cli_choices import canonical

    loaded: dict[str, dict[str, Any]] = {}
    why = ""
    for name in core_games.names():
        files = {f.key: f for f in core_games.info(name).data_files}
        keys = [canonical(key, files) for key, _ in pairs]
        if not all(key in files for key in keys):
            continue
        try:  # Taifa's decks and Take the Kingdom's cards are both "cards": the file says whose it is
            loaded[name] = {key: read_data_file(path, files[key].load) for key, (_, path) in zip(keys, pairs)}
        except RulesError as err:
            why = why or str(err)
    if not loaded:
        fail(why or f"no game takes the data files {', '.join(key for key, _ in pairs)}")
    return core_games.lookup(loaded)


def games_for(path: Path, pairs: Sequence[tuple[str, Path]]) -> GameLookup:
    """The registry, with the data files given for the game of the record at ``path``."""
    if not pairs:
        return core_games.info
    game = record_game(path)
    if game is None or game not in core_games.names():
        return core_games.info  # reading the record will say what is wrong with it
    return core_games.lookup({game: load_data(game, pairs)})


# -- records -----------------------------------------------------------------------------


def output_path(out: Path, force: bool, inputs: Sequence[Path | None] = ()) -> Path:
    """``out`` if a command may write it (one line, exit 2, when not): an existing file only with
    ``force``, and never one of the command's own input files (``inputs``), even with it."""
    from notation.files import OutputRefused, check_output

    try:
        check_output(out, replace=force, inputs=[p for p in inputs if p is not None])
    except OutputRefused as err:
        fail(str(err))
    return out


def start_runner(setup: GameSetup, out: Path | None, force: bool, games: GameLookup, *, data_dir: Path | None,
                 inputs: Sequence[Path | None] = ()) -> Runner:
    """A new game at the prompt, journaled to ``out`` (checked by :func:`output_path`, replaced only with
    ``force``) or a new autosave in the data folder; one line, exit 2, when it cannot start."""
    from notation.format import RecordError
    from notation.runner import Runner
    from tui.session import DataDirError, data_dir as data_folder, new_autosave

    path = out
    try:
        if out is None:  # an autosave: a name nobody else has, taken whatever starts at the same second
            return new_autosave(data_folder(data_dir), setup.game, setup.variant,
                                lambda name: Runner.start(setup, name, games=games))
        path = output_path(out, force, inputs)
        return Runner.start(setup, path, games=games, replace=force)
    except (RulesError, RecordError, DataDirError) as err:  # RecordInPlay: --force over a game in play
        fail(str(err))
    except FileExistsError:  # it appeared since the check
        fail(f"{path} exists; give --force to replace it")
    except OSError as err:
        fail(f"cannot write the record {path}: {err.strerror or err}")


def check_resumable(path: Path, games: GameLookup) -> None:
    """RecordError, in one line, unless the record at ``path`` can be carried on: it reads, has no
    result, its steps replay, and it verifies (a torn last record and a result never written are
    what resume repairs). Writes nothing."""
    from notation.reader import read_record_file
    from notation.runner import Runner, check_playable, read_unfinished
    from notation.verify import verify

    recording = read_unfinished(path, games)
    check_playable(recording.header)
    whole = read_record_file(recording.data, games=games) if recording.torn else recording
    report = verify(whole, games=games)
    if report.ok:
        return
    dry = Runner(whole.header, games, None, whole)  # RecordError when a step does not follow
    if dry.result is None:  # over, with its result never written, is what resume finishes
        raise RecordError(f"cannot resume: {report.verdict}")


def run_batch(batch: Batch, games: GameLookup = core_games.info) -> Tally:
    """A ``simulate`` command's games (tui.simulate.run), with what can go wrong in one line (batch_errors)."""
    from tui.simulate import run

    with batch_errors():
        return run(batch, games)


@contextlib.contextmanager
def batch_errors() -> Iterator[None]:
    """What can go wrong in a batch of games (simulate, tournament), in one line, exit 2: the rules
    refuse the setup, a record may not be replaced, the folder cannot be written, the cluster cannot
    be used. A closed pipe (``| head``) is not one of them: typer ends the command quietly."""
    from notation.files import OutputRefused
    from notation.tasks import ClusterError

    try:
        yield
    except BrokenPipeError:
        raise
    except (RulesError, OutputRefused, ClusterError) as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write records: {err}")


def play_at_prompt(runner: Runner) -> None:
    """Play a runner's game at the prompt and print how it ended (or where the record is);
    one line on stderr, exit 2, when there is no input and a person is to decide."""
    from tui.console import NoInput, play

    try:
        typer.echo(visible_lines(play(runner)))
    except NoInput as err:
        fail(str(err))


def resume_at_prompt(path: Path, games: GameLookup) -> None:
    """Carry on the record at ``path`` at the prompt; one line, exit 2, file untouched, when it cannot be."""
    from notation.runner import Runner

    try:
        check_resumable(path, games)
        runner = Runner.resume(path, games=games)
    except RecordError as err:
        fail(f"{path}: {err}")
    except RulesError as err:
        fail(f"{path}: {err}")
    except OSError as err:
        fail(f"{path}: {err.strerror or err}")
    play_at_prompt(runner)


# -- a new game from the command line, built from its descriptor ------------------------------

SEAT_HELP = ("Who plays a seat, as NAME=KIND (the seat's name or number; a kind the seat allows: "
             "human, ai, bot, random, or a level of the game's AI), repeatable. Unnamed seats keep their default.")
VARIANT_HELP = "The game's variant or scenario (default: its first)."
OPTION_HELP = "A rule option as name=value (the game's docs/rulings/<game>.md), repeatable."
AI_TIME_HELP = "An AI seat's time per decision, in seconds (default: the game's)."
AI_DEPTH_HELP = "Cap an AI seat's search depth."
JOBS_HELP = ("Processes to share the work among (default: every core, or FIEFDOM_JOBS); "
             "what is written and printed does not depend on it.")
CLUSTER_HELP = ("Run the work on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT; "
                "pip install 'fiefdom[cluster]'; docs/cluster.md): the results come back here.")


def jobs_for(jobs: int | None, cluster: str | None) -> int:
    """How many processes a command's ``--jobs`` asks for (default: every core); with ``--cluster``
    the cluster's workers do the work, and --jobs is refused in one line."""
    from notation.tasks import default_jobs

    if cluster is not None:
        if jobs is not None:
            fail("--jobs is for this machine's cores; with --cluster the cluster's workers play")
        if not cluster.strip():
            fail("--cluster takes the Dask scheduler's address, tcp://HOST:PORT")
        return 1
    return default_jobs() if jobs is None else jobs


def game_name(game: str) -> str:
    """A registered game's name as the registry spells it; one line, exit 2, for any other."""
    from tui.cli_choices import canonical

    name = canonical(game, core_games.names())
    try:
        core_games.info(name)
    except RulesError as err:
        fail(str(err))
    return name


def _seat_at(name: str, seats: Sequence[str]) -> int | None:
    """The seat ``--seat`` names: by its name (any letter case) or its number from 1; None if none."""
    from tui.cli_choices import canonical

    word = canonical(name, seats)
    if word in seats:
        return seats.index(word)
    if name.strip().isdigit() and 1 <= int(name.strip()) <= len(seats):
        return int(name.strip()) - 1
    return None


def _seat_index(name: str, seats: Sequence[str]) -> int:
    index = _seat_at(name, seats)
    if index is None:
        fail(f"no seat {name.strip()[:40]!r} (seats: {', '.join(seats)}, or their numbers 1 to {len(seats)})")
    return index


def seated_variant(gi: core_games.GameDescriptor, given: Sequence[str]) -> str:
    """The variant a new game takes when none is named: the first whose seats include every seat
    ``--seat`` names (``--seat "Player 3=ai"`` is a game of three at least), else the first."""
    names = [item.partition("=")[0] for item in given]
    for variant in gi.variant_keys():
        seats = [s.name for s in gi.seat_specs(variant)]
        if all(_seat_at(name, seats) is not None for name in names):
            return variant
    return gi.variant_keys()[0]


def seat_plans(gi: core_games.GameDescriptor, variant: str, given: Sequence[str], *, people: bool,
               ai_time: float | None = None, ai_depth: int | None = None) -> tuple[tuple[SeatPlan, ...], str]:
    """The seats of a new game from ``--seat NAME=KIND`` (and the seats as typed, ``ai,beginner``):
    every seat named keeps the kind given, the others their default; without ``people`` (a simulated
    game) a seat whose default is a person goes to the rulebook bot, the AI or a random mover, the
    first the seat allows. A kind is a seat kind the seat allows, or a level of the game's AI
    (``beginner``: the AI at that strength). One line, exit 2, for anything wrong."""
    from notation.runner import SeatPlan
    from tui.cli_choices import canonical

    specs = gi.seat_specs(variant)
    names = [s.name for s in specs]
    levels = [key for key, _ in gi.ai_levels]

    def default(spec: core_games.SeatSpec) -> str:
        if people or spec.default != "human":
            return spec.default
        return next((k for k in ("bot", "ai", "random") if k in spec.kinds), spec.default)

    words = [default(s) for s in specs]
    for item in given:
        name, sep, kind = item.partition("=")
        if not sep or not name.strip() or not kind.strip():
            fail(f"--seat takes NAME=KIND, got {item[:60]!r}")
        index = _seat_index(name, names)
        spec = specs[index]
        allowed = [*spec.kinds, *(levels if "ai" in spec.kinds else ())]
        kind = canonical(kind, allowed).strip()
        if kind not in allowed:
            fail(f"{spec.name} may be {', '.join(allowed)}, not {kind[:40]!r}")
        if kind == "human" and not people:
            fail("a simulated game has no person in it: give a seat ai, bot or random")
        words[index] = kind
    if ai_time is not None:
        check_seconds(ai_time, "--ai-time")
    check_depth(ai_depth, "--ai-depth")
    # A batch's AI works to a count, not the clock, unless a time is given: its records then do not
    # depend on the machine, its load or the number of processes (GameDescriptor.batch_limit).
    batch = gi.batch_limit if not people and ai_time is None else None
    base = batch or gi.ai_limit

    def plan(word: str) -> SeatPlan:
        level = word if word in levels else None
        if word != "ai" and level is None:
            return SeatPlan(word)
        if ai_time is None and ai_depth is None and level is None and batch is None:
            return SeatPlan("ai")  # the game's own limit
        return SeatPlan("ai", replace(base, seconds=base.seconds if ai_time is None else ai_time,
                                      depth=base.depth if ai_depth is None else ai_depth, level=level))

    return tuple(plan(w) for w in words), ",".join(words)


def describe_game(gi: core_games.GameDescriptor) -> str:
    """``fiefdom games GAME``: the words `play GAME` and `simulate GAME` take, from the descriptor
    (each seat's kinds with its default marked ``*``, each option's values and default). Visible:
    a game from another package may name anything."""
    lines = [f"{gi.name}: {gi.title} (rules revision {gi.revision})"]
    if gi.ai_levels:
        lines.append(f"AI levels (a seat kind where ai is): {', '.join(key for key, _ in gi.ai_levels)}")
    if gi.data_files:
        lines.append("data files (--data KEY=FILE): " + "; ".join(f"{f.key}: {f.help}" for f in gi.data_files))
    for key, title in gi.variants:
        lines.append(f"--variant {key}: {title}")
        seats = "; ".join(f"{n} {s.name}: {'/'.join(k + ('*' if k == s.default else '') for k in s.kinds)}"
                          for n, s in enumerate(gi.seat_specs(key), start=1))
        lines.append(f"  seats (--seat NAME=KIND or NUMBER=KIND, * the default): {seats}")
        for o in gi.option_specs(key):
            if o.type == "choice":
                values = "|".join(map(str, o.choices))
            elif o.type == "bool":
                values = "true|false"
            else:
                values = "whole number" + (f" {o.minimum}..{o.maximum}" if o.maximum is not None else "")
            default = str(o.default).lower() if o.type == "bool" else o.default
            lines.append(f"  -o {o.name}={values} (default {default}; {o.ruling}): {o.help}")
    return "\n".join(visible(line) for line in lines)


@dataclass(frozen=True)
class NewGame:
    """A game a command line asked for: its setup, the registry with the user's data files, those
    files (never to be written over), and the seats as typed."""

    setup: GameSetup
    games: GameLookup
    inputs: tuple[Path, ...]
    seats: str


def new_game(game: str, variant: str | None, seat: Sequence[str], option: Sequence[str], data: Sequence[str],
             flags: dict[str, Any], seed: int, *, people: bool, ai_time: float | None = None,
             ai_depth: int | None = None, chance: str = "seeded") -> NewGame:
    """``fiefdom play GAME`` and ``fiefdom simulate GAME``: the game's setup from its descriptor alone
    (variants, seats, option specs, data files, AI levels); one line, exit 2, for a bad argument."""
    from notation.runner import GameSetup
    from tui.cli_choices import canonical, rule_options

    game = game_name(game)
    pairs = data_pairs(data, flags)
    games = data_lookup(game, pairs)
    gi = games(game)
    variant = seated_variant(gi, seat) if variant is None else canonical(variant, gi.variant_keys())
    try:
        gi.check_variant(variant)
        options = gi.options_of(variant, rule_options(game, variant, list(option)))
    except RulesError as err:
        fail(str(err))
    if chance == "manual" and not gi.has_chance:
        fail(f"{gi.title} throws no dice: --table-dice is for a game that does")
    plans, words = seat_plans(gi, variant, seat, people=people, ai_time=ai_time, ai_depth=ai_depth)
    setup = GameSetup(game, variant, plans, seed, options, chance=chance)
    return NewGame(setup, games, tuple(path for _, path in pairs), words)


@dataclass(frozen=True)
class SimulateWords:
    """What a game adds to ``fiefdom simulate``'s summary, from its CLI plugin (all optional): what a
    step is called (``moves``), how a result's reason is tallied (without its counts), and a tally
    of its own: ``observe(game, result)``, a module-level function, says what a game showed as it
    ended (run where the game was played, perhaps another process: what it returns is pickled);
    ``tally()`` makes the tally, whose ``add`` takes each game's observation in the games' order and
    ``lines(seat_names)`` gives its lines of the summary."""

    noun: str = "steps"
    reason: Callable[[Result], str] | None = None
    observe: Callable[[Any, Result], Any] | None = None
    tally: Callable[[], Any] | None = None


SIMULATE_WORDS: dict[str, SimulateWords] = {}


def add_simulate_words(game: str, words: SimulateWords) -> None:
    SIMULATE_WORDS[game] = words
