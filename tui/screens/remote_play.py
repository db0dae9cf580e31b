"""A hosted game's seat in the app (``fiefdom join URL``): the play screen, fed by the host.

The host plays the game (notation/host.py). :class:`RemoteDriver` stands where the play driver
stands for a local game: it tells the screen what the host sent (the seat's view, as a game rebuilt
from it, notation/remote_game.py; its log; its question) and sends the host what the person chose.
The same boards, options, typed moves, move list and event log draw it; what the host decides
(pace, takeback, who plays a seat) is the host's, and the screen says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from rich.text import Text
from textual.screen import Screen
from textual.widgets import RichLog, Static

from core.engine import Code, Decision, Game, Result
from core.match import Step
from core.visibility import Told
from notation.client import HostGone, SeatClient
from notation.clock import clock_text
from notation.driver import Note, PlayDriver
from notation.format import Header
from notation.protocol import Invitation
from notation.remote_game import RemoteGame, code_of
from notation.replay import StepInfo
from notation.seat_table import events_of
from notation.runner import Runner
from notation.wording import visible
from tui.games import plugin
from tui.screens.play import PlayScreen, note_text
from tui.widgets.keys_footer import KeysFooter
from tui.widgets.redraw import set_content

NOT_HERE = "the host decides that in a hosted game"
RETRY = 2.0  # seconds between attempts to reach a host that has gone


class RemoteRunner:
    """The part of a runner the play screen reads, from what the host sent."""

    def __init__(self, client: SeatClient, game: RemoteGame) -> None:
        assert client.header is not None
        self.client = client
        # A game of perfect information is played along here whole: it is the board's own kind of game.
        self.game: Any = game.drawn
        self.remote = game
        self.header: Header = client.header
        self.games = client.games
        self.gi = game.gi
        self.path = None
        self.history: list[Step] = []

    @property
    def point(self) -> Any:
        return self.remote.point()

    @property
    def waiting(self) -> Decision | None:
        point = self.remote.point()
        return point if isinstance(point, Decision) and self.client.ask is not None else None

    @property
    def result(self) -> Result | None:
        return self.client.result

    @property
    def people(self) -> list[int]:
        return [self.client.seat] if self.client.seat is not None else []

    def seat_kind(self, seat: int) -> str:
        return self.header.seats[seat].kind


class RemoteDriver(PlayDriver):
    """A hosted game's seat, with the play driver's face (see the module's docstring)."""

    def __init__(self, invitation: Invitation, view: "RemotePlayScreen", games: Any) -> None:
        # Not the driver's own set-up: there is no runner here. What the screen reads is set below.
        self.view = view
        self.table = view  # the screen, as itself (the driver's ``view`` is any DriverView)
        self.client = SeatClient(invitation, games, on_update=self.took)
        self.remote: RemoteGame | None = None
        self.entries: list[StepInfo] = []
        self.notes: list[Note] = []
        self.speed, self.skipping, self.thinking = 0, False, False
        self.viewer: int | None = invitation.seat
        self.frame: Game | None = None
        self.frames_due: list[Any] = []
        self.ended = self.closed = False
        self.own_screens = True
        self.halted = False
        self.generation = 0
        self.lobby_said: Any = None
        self.problems_said = 0
        self.task: asyncio.Task[None] | None = None

    @property
    def runner(self) -> Runner:  # type: ignore[override]  # the part of a runner the screen reads
        assert self.remote is not None
        return cast(Runner, RemoteRunner(self.client, self.remote))

    # -- the connection ------------------------------------------------------------------------

    def start(self) -> None:
        """Connect (once); after that, the table drawn again (the screen with its board is ready)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())
        else:
            self.table.changed()

    async def _run(self) -> None:
        """The connection, and again whenever it is lost (a host stopped and resumed, a network gone
        for a while): every RETRY seconds with the same invitation, until the game is over or the
        person leaves. A host that said goodbye (``bye``: the seat joined elsewhere, too many bad
        messages) is not called again."""
        inv = self.client.invitation
        said = ""
        while not self.closed and self.client.result is None:
            self.client.gone = None
            try:
                await self.client.connect()
                said = ""
                await self.client.run()
            except HostGone as err:
                why = str(err)
            except (OSError, asyncio.TimeoutError) as err:
                why = f"cannot reach the host at {inv.host}:{inv.port}: {getattr(err, 'strerror', None) or err}"
            else:
                why = "the connection ended"
            if self.closed or self.client.result is not None:
                return
            if self.client.gone is not None:  # the host said why it closed: not called again
                self.table.gone(why)
                return
            if why != said:
                said = why
                self.table.gone(f"{why}; trying again every {RETRY:g} s (q leaves)")
            await asyncio.sleep(RETRY)

    def took(self, kind: str) -> None:
        """A message from the host, taken in: the screen told what changed. A table this screen
        cannot draw ends the connection with one line, never a traceback."""
        try:
            self._took(kind)
        except Exception as err:  # noqa: BLE001 - a hostile or newer host's table: said, and left
            self.close()
            self.table.gone(f"cannot draw what the host sent ({type(err).__name__}: {err})")

    def _took(self, kind: str) -> None:
        c = self.client
        if c.problems[self.problems_said:]:
            self.table.problem(f"host: {c.problems[-1]}")
            self.problems_said = len(c.problems)
        if kind == "lobby" and c.header is not None and self.lobby_said != (c.here, c.people):
            self.lobby_said = (list(c.here), list(c.people))
            missing = [c.header.seats[s].name for s in c.people if s not in c.here]
            self.table.waiting(("waiting for " + ", ".join(missing)) if missing else "everyone is here: dealing")
        if kind != "table" or c.header is None:
            return
        first = self.remote is None
        if self.remote is None:
            self.remote = RemoteGame(c)
        self.remote.update()
        rewound = c.rewound  # the log sent again from further back (joined again): written again whole
        c.rewound = False
        if rewound or len(c.log) < len(self.entries):
            del self.entries[min(c.rewound_to, len(c.log)) if rewound else len(c.log):]
        new = c.log[len(self.entries):]
        names = c.header.seats
        for entry in new:
            step, kind_, seat, text, _, value = entry
            name = names[seat].name if seat is not None and 0 <= seat < len(names) else "chance"
            self.entries.append(StepInfo(step, -1, kind_, seat, name, code_of(value), text,
                                         tuple(events_of(entry)), None, Told(text), c.seat))
        self.notes = [Note(after, text, style) for after, text, style in c.notes]
        if first:
            self.table.ready()
        elif rewound:
            self.table.rewrite()
        else:
            self.table.logged([e for entry in new for e in events_of(entry)])
        self.table.changed()
        if c.result is not None and not self.ended:
            self.ended = True
            self.table.over()

    # -- what the screen asks ------------------------------------------------------------------

    def think_apart(self) -> None:
        pass

    @property
    def paced(self) -> bool:
        return False

    @property
    def busy(self) -> bool:
        return self.client.busy

    def solo_seat(self) -> int | None:
        return self.client.seat

    def view_seat(self) -> int | None:
        return self.client.seat

    def hand_over_due(self) -> int | None:
        return None

    def question(self) -> tuple[int, int] | None:
        ask = self.client.ask
        return (ask["n"][0], ask["n"][1]) if ask is not None and self.client.result is None else None

    def why_not_choose(self) -> str | None:
        return None if self.question() is not None else "wait: this seat is not asked now"

    def resigner(self) -> int | None:
        return self.client.seat if self.client.result is None else None

    def note(self, text: str, style: str = "italic") -> Note:
        note = Note(len(self.entries), visible(text), style)
        self.notes.append(note)
        self.table.noted(note)
        return note

    # -- what the person does ------------------------------------------------------------------

    def play(self, code: Code, clock: int | None = None) -> bool:
        why = self.why_not_choose()
        if why is not None or self.remote is None:
            self.table.problem(why or "wait: the table has not come yet")
            return False
        point = self.remote.point()
        if not isinstance(point, Decision) or tuple(code) not in point.options:
            self.table.problem("not one of the options")
            return False
        self.client.decide(code)
        self.table.problem("")
        return True

    def type_dice(self, outcome: Any) -> bool:
        self.table.problem(NOT_HERE)
        return False

    def skip(self) -> None:
        self.table.problem(NOT_HERE)

    def set_speed(self, delta: int) -> None:
        self.table.problem(NOT_HERE)

    async def takeback(self) -> int:
        self.table.problem("no takeback in a hosted game")
        return 0

    async def resign(self, seat: int) -> bool:
        self.client.resign()
        return True

    async def reseat(self, seat: int, kind: str) -> bool:
        self.table.problem(NOT_HERE)
        return False

    async def halt(self) -> None:
        pass

    async def leave(self) -> None:
        self.close()

    def close(self) -> None:
        self.closed = True
        self.client.close()


class RemotePlayScreen(PlayScreen):
    """The play screen for one seat of a hosted game (or a spectator's)."""

    def __init__(self, invitation: Invitation, games: Any) -> None:
        Screen.__init__(self)  # not the local screen's: no runner here; the board comes with the first table
        self.invitation = invitation
        self.remote_driver = RemoteDriver(invitation, self, games)
        self.driver = self.remote_driver
        self.board_class = None
        self.score_word = "scores"
        self.board_ready = False
        self.begin_drawing()

    def compose(self) -> Any:
        if self.remote_driver.remote is None:  # the board comes with the first table (its game is built from it)
            yield from self.waiting_room()
            return
        yield from super().compose()

    def waiting_room(self) -> Any:
        yield Static(visible(f"joining {self.invitation.host}:{self.invitation.port}…"), id="lobby")
        yield KeysFooter()

    @property
    def drawn(self) -> bool:
        return self.board_ready

    def ready(self) -> None:
        """The first table: the screen composed again with the game's board."""
        remote = self.remote_driver.remote
        assert remote is not None
        self.board_class = plugin(remote.gi.name).load("board")
        self.score_word = remote.gi.score_word
        self.run_worker(self._recompose(), exclusive=True)

    async def _recompose(self) -> None:
        await self.recompose()
        self.call_after_refresh(self._composed)

    def _composed(self) -> None:
        self.board_ready = True
        self.on_mount()
        if self.remote_driver.client.clock_rule is not None:
            self.set_interval(1.0, self.tick)

    def waiting(self, text: str) -> None:
        if not self.board_ready:
            self.query_one("#lobby", Static).update(visible(text))
        else:
            self.show_error(text)

    def gone(self, why: str) -> None:
        if self.board_ready:
            self.show_error(why)
            self.query_one("#events", RichLog).write(Text(visible(why), style="bold red"))
        else:
            self.query_one("#lobby", Static).update(Text(visible(why), style="bold red"))

    def rewrite(self) -> None:
        """The event log written again from the whole log (after joining again)."""
        if self.board_ready and self.is_attached:
            self.show_error("")  # the connection is back
            self.rewrite_log()

    def changed(self) -> None:
        if self.board_ready and self.is_attached:
            self.refresh_all()

    def logged(self, events: Any) -> None:
        if self.board_ready:
            super().logged(events)

    def noted(self, note: Note) -> None:
        if self.board_ready:
            self.query_one("#events", RichLog).write(note_text(note))

    def problem(self, text: str) -> None:
        if self.board_ready:
            self.show_error(text)

    def over(self) -> None:
        """The end, in the log: who won, the seed (now it deals nothing more) and the deal's check."""
        c = self.remote_driver.client
        log = self.query_one("#events", RichLog)
        if c.seed is not None:
            log.write(Text(f"it was seed {c.seed}", style="dim"))
        if c.deal_check:
            log.write(Text(visible(c.deal_check), style="bold" if "does not" in c.deal_check else "dim"))
        self.refresh_all()

    def commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        if self.remote_driver.resigner() is None:
            return []
        return [("Resign", "Give up this game: every other seat wins", self.action_resign)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action not in ("skip", "speed", "takeback")

    def status_text(self) -> Text:
        """The status line, and each person's clock when the game has a time control (the running
        one in bold, counting down between the host's tables)."""
        line = super().status_text()
        c = self.remote_driver.client
        if c.clocks and c.header is not None:
            for seat, _, running in c.clocks:
                left = c.clock_left(seat)
                name = c.header.seats[seat].name
                line.append(" · ")
                line.append(visible(f"{name} {clock_text(left or 0.0)}"), style="bold" if running else "dim")
        return line

    def tick(self) -> None:
        """Once a second: the running clock drawn again."""
        c = self.remote_driver.client
        if self.board_ready and c.clocks and any(running for _, _, running in c.clocks):
            set_content(self.query_one("#status", Static), self.status_text())

    def move_word(self, seat: int) -> str:
        return "your move" if seat == self.remote_driver.client.seat else "to move"

    def seed_line(self) -> Text:
        h = self.remote_driver.client.header
        return Text(visible(f"{h.game} {h.variant}, hosted" if h else "hosted game"), style="dim")

