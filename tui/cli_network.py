"""``fiefdom host`` and ``fiefdom join``: a game played over the network, each person at their own terminal.

``host`` owns the game (notation/host.py): it prints an invitation per person's seat and one for
spectators, deals the seed with the people's clients, plays the AI, bot and random seats, and
writes the record. ``join`` plays a seat (or watches) from an invitation, in the app or at the
text prompt (``--prompt``). Every failure is one line, exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from core.engine import RulesError
from notation.format import RecordError
from tui.cli_support import (AI_DEPTH_HELP, AI_TIME_HELP, OPTION_HELP, SEAT_HELP, VARIANT_HELP, data_pairs, fail,
                             games_for, takes_data_flags, visible_lines)

BIND_HELP = "The address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 or :: for every network)."
PORT_HELP = "The port to listen on (default: any free one; a resumed game takes its own again)."


def register(app: typer.Typer) -> None:
    app.command("host")(takes_data_flags(host))
    app.command("join")(join)
    app.command("serve")(serve)


def serve(
    bind: str = typer.Option("127.0.0.1", "--bind", help="The address to listen on (default 127.0.0.1: this "
                             "machine only; anyone who reaches the port plays on this machine)."),
    port: int = typer.Option(8000, "--port", help="The port to listen on."),
    command: Optional[str] = typer.Option(None, "--command", help="The command each page runs (default: the app)."),
) -> None:
    """The app in a web browser (textual-serve): for a player without Python, who pastes a hosted
    game's invitation under "Join a hosted game", or plays here."""
    from tui.serve import serve as serve_pages

    serve_pages(bind, port, command)


def host(
    game: Optional[str] = typer.Argument(None, help="The game, as for fiefdom play.", metavar="GAME",
                                         show_default=False),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help=VARIANT_HELP),
    seat: list[str] = typer.Option([], "--seat", help=SEAT_HELP, metavar="NAME=KIND"),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE"),
    data: list[str] = typer.Option([], "--data", help="A data file of the game's own, as KEY=FILE.",
                                   metavar="KEY=FILE"),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Deal from this seed instead of dealing it with "
                                       "the players (the record then proves nothing about the deal)."),
    ai_time: Optional[float] = typer.Option(None, "--ai-time", min=0.001, help=AI_TIME_HELP),
    ai_depth: Optional[int] = typer.Option(None, "--ai-depth", min=1, help=AI_DEPTH_HELP),
    bind: str = typer.Option("127.0.0.1", "--bind", help=BIND_HELP),
    port: int = typer.Option(0, "--port", min=0, max=65535, help=PORT_HELP),
    pace: Optional[float] = typer.Option(None, "--pace", min=0, help="Seconds between the steps bots and the AI "
                                         "play (default 0.5; 0: at once)."),
    clock: Optional[str] = typer.Option(None, "--clock", help="A clock per person: base+increment, like 10m+5s "
                                        "or 5+3 (minutes+seconds)."),
    on_time: str = typer.Option("lose", "--on-time", help="When a clock runs out: lose, or ai (the AI plays on)."),
    resume: Optional[Path] = typer.Option(None, "--resume", help="Host an unfinished hosted game again from its "
                                          "record: the same invitations work.", metavar="FILE"),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the record (default: an autosave "
                                       "in the data folder)."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Where autosaves live (as for play)."),
    **flags: Any,
) -> None:
    """Host a game: one invitation per person's seat (and one for spectators) to give to the players.

    Each person joins with `fiefdom join URL`; the seed is dealt by every person's client and the
    host together, so nobody can choose it; AI, bot and random seats play here. The record is
    written as the game goes; if the host stops, `fiefdom host --resume FILE` carries on.
    """
    from notation.clock import ClockRule
    from notation.host import HostSettings, speed_of

    try:
        rule = ClockRule.parse(clock, on_time) if clock is not None else None
    except RulesError as err:
        fail(f"--clock: {err}")
    if resume is not None:
        if game is not None:
            fail("--resume carries on a record: give no GAME with it")
        made = _resumed(resume, bind, port, pace, rule, data, flags)
    else:
        if game is None:
            fail("name the GAME to host (fiefdom host kingdom), or --resume FILE")
        made = _new(game, variant, seat, option, data, flags, seed, ai_time, ai_depth, out, force, data_dir,
                    HostSettings(bind=bind, port=port, speed=speed_of(pace), clock=rule))
    _serve(made)


def _new(game: str, variant: str | None, seat: list[str], option: list[str], data: list[str], flags: dict[str, Any],
         seed: int | None, ai_time: float | None, ai_depth: int | None, out: Path | None, force: bool,
         data_dir: Path | None, settings: Any) -> Any:
    from notation.host import Host
    from notation.runner import GameSetup, Runner
    from tui.cli_support import new_game, start_runner

    chosen = new_game(game, variant, seat, option, data, flags, seed if seed is not None else 1, people=True,
                      ai_time=ai_time, ai_depth=ai_depth)
    setup: GameSetup = chosen.setup
    people = [i for i, plan in enumerate(setup.seats) if plan.kind == "human"]
    if not people:
        fail("nobody to invite: give a seat to a person (--seat NAME=human)")
    try:
        header, _ = setup.start(chosen.games(setup.game), chosen.games)
    except RulesError as err:
        fail(str(err))
    settings = type(settings).new(people, bind=settings.bind, port=settings.port, speed=settings.speed,
                                  clock=settings.clock)

    def begin(dealt: GameSetup) -> Runner:
        return start_runner(dealt, out, force, chosen.games, data_dir=data_dir, inputs=chosen.inputs)

    return Host(settings, header, begin, setup=setup, dealt=seed is None,
                data=data_texts(setup.game, data, flags))


def data_texts(game: str, data: list[str], flags: dict[str, Any]) -> dict[str, str]:
    """The user's own data files given (``--data``, a game's flags) as texts, for the clients to build
    the game with (the game has checked them already); one line, exit 2, when one cannot be read."""
    from core import games as core_games
    from notation.protocol import DATA_BYTES
    from tui.cli_choices import canonical

    keys = [f.key for f in core_games.info(game).data_files]
    texts = {}
    for key, path in data_pairs(data, flags):
        key = canonical(key, keys)
        try:
            with open(path, encoding="utf-8") as f:
                texts[key] = f.read(DATA_BYTES + 1)
        except (OSError, UnicodeDecodeError) as err:
            fail(f"{path}: {getattr(err, 'strerror', None) or err}")
        if len(texts[key].encode("utf-8")) > DATA_BYTES:
            fail(f"{path}: larger than a hosted game sends ({DATA_BYTES // 1024 // 1024} MiB)")
    return texts


def _resumed(path: Path, bind: str, port: int, pace: float | None, rule: Any, data: list[str],
             flags: dict[str, Any]) -> Any:
    from notation.host import Host, HostSettings, speed_of
    from notation.runner import Runner
    from tui.cli_support import check_resumable

    try:
        settings = HostSettings.load(path)
        games = games_for(path, data_pairs(data, flags))
        check_resumable(path, games)
        runner = Runner.resume(path, games=games)
    except (RecordError, RulesError) as err:
        fail(f"{path}: {err}")
    except OSError as err:
        fail(f"{path}: {err.strerror or err}")
    if bind != "127.0.0.1":
        settings.bind = bind
    if port:
        settings.port = port
    if pace is not None:
        settings.speed = speed_of(pace)
    if rule is not None:
        settings.clock = rule
    return Host(settings, runner.header, None, runner=runner, data=data_texts(runner.header.game, data, flags))


def _serve(made: Any) -> None:
    async def run() -> None:
        try:
            invitations = await made.open()
        except OSError as err:
            fail(f"cannot listen on {made.settings.bind}:{made.settings.port}: {err.strerror or err}")
        names = made.header.seats
        for inv in invitations:
            who = "spectators" if inv.seat is None else names[inv.seat].name
            typer.echo(visible_lines(f"{who}: {inv.url()}"))
        typer.echo("waiting for the players (Ctrl+C stops; the record keeps every step)", err=True)
        await made.serve()

    import asyncio  # here: every other command starts without it

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        path = made.path
        typer.echo("stopped" + (f"; fiefdom host --resume {path} carries on" if path else ""), err=True)


def join(
    url: str = typer.Argument(..., help="The invitation: fief://HOST:PORT/SEAT?t=TOKEN.", metavar="URL",
                              show_default=False),
    prompt: bool = typer.Option(False, "--prompt", help="Play at the text prompt instead of the app."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Where the app's settings live (as for play)."),
) -> None:
    """Join a hosted game with the invitation its host gave you: your seat, or watch (a spectator's)."""
    from core import games as core_games
    from notation.protocol import Invitation, ProtocolError
    from tui.console import NoInput

    try:
        invitation = Invitation.parse(url)
    except ProtocolError as err:
        fail(str(err))
    if prompt:
        from tui.remote_console import NotJoined, join_at_prompt

        try:
            typer.echo(visible_lines(join_at_prompt(invitation, core_games.info)))
        except (NoInput, NotJoined) as err:
            fail(str(err))
        return
    from tui.app import FiefdomApp

    try:
        app_ = FiefdomApp(data_dir, join=invitation)
    except OSError as err:
        fail(str(err))
    app_.run()
