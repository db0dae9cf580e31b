"""The text prompt: any game played at a plain terminal, a view of its play driver
(notation/driver.py), which applies and tells every step.

A person's seat is asked at the prompt: the current Decision's options are
listed by ``game.describe`` and chosen by number or typed in the game's own
words (``game.parse``). Bots, AI and random seats play by themselves, dice
thrown on a real table (chance ``manual``) are typed in, and the runner
journals every step as it happens, so leaving at any point (``quit``, Ctrl+C,
the input ending) keeps the record, which ``fiefdom resume --prompt`` carries on.

A game adds its own touches with a :class:`ConsoleExtras` (its plugin's
``console`` field): what to show above a person's options, a note after an
option, extra commands, which events start a round or a turn (the prompt
pauses there after a person's action, so its outcome is read before the next
seats' events scroll it away, and before every new turn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.engine import Chance, Code, Decision, Event, Game, Result, RulesError
from core.match import Step
from core.visibility import warning as warning_for
from core.visibility import events_seen
from notation.driver import PlayDriver
from notation.runner import Runner
from notation.table_dice import parse_outcome
from notation.wording import visible
from tui import games as tui_games
from tui.cli_support import visible_lines

QUIT_WORDS = ("quit", "exit")
TAKEBACK_WORDS = ("takeback", "undo")


def _never(item: Event | Decision) -> str | None:
    return None


@dataclass(frozen=True)
class Command:
    """A word a person may type instead of an option: it prints what ``show`` returns for their seat."""

    word: str
    help: str
    show: Callable[[Any, int], str]  # (game, seat) -> text


@dataclass(frozen=True)
class ConsoleExtras:
    """What a game adds to the prompt (its tui plugin's ``console``); every field may be left out.

    * ``header(game, seat)``: shown above a person's options (default: the game's plain-text view);
    * ``about(game, code)``: a note after an option in the list, a line's worth (an area's
      defence, holder and the dice each side would throw), without its separator;
    * ``unavailable(game, decision)``: lines under a person's options saying why a kind of action
      is not among them ("no Troop cards: no attack");
    * ``commands``: extra words, each printing something for the seat (Taifa's map, hand, all);
    * ``typing``: examples of options in words, for help (``attack Toledo, done, pass``);
    * ``quiet``: event kinds not printed (Taifa's shuffles);
    * ``begins(item)``: "turn" when an event starts a new turn, "round" when an event or an
      automatic seat's decision starts another seat's round, else None: where the prompt pauses;
    * ``result(game, result)``: the closing lines (default: who won, why, the scores);
    * ``list_limit``: more options than this are not listed unless asked (``list``).
    """

    header: Callable[[Any, int], str] | None = None
    about: Callable[[Any, Code], str] | None = None
    unavailable: Callable[[Any, Decision], list[str]] | None = None
    commands: tuple[Command, ...] = ()
    typing: str = ""
    quiet: frozenset[str] = frozenset()
    begins: Callable[[Event | Decision], str | None] = _never
    result: Callable[[Any, Result], str] | None = None
    list_limit: int = 40


class Quit(Exception):
    """The person typed quit."""


class _NoInput(Exception):
    """The input ended (EOF, or no standard input at all)."""


class NoInput(Exception):
    """Nobody can answer: the input ended before a person answered anything (one line)."""


def _event_line(event: Event) -> str:
    return visible(f"  {event.text}  [{event.rule}]" if event.rule else f"  {event.text}")


def extras_for(game: str) -> ConsoleExtras:
    """The game's extras, or none (a game with no console plugin still plays at the prompt)."""
    found = tui_games.plugin(game).load("console")
    return found if found is not None else ConsoleExtras()


def option_notes(extras: ConsoleExtras, game: Game, decision: Decision) -> tuple[list[str], list[str]]:
    """The game's note after each of ``decision``'s options ("" for none) and its lines on the
    kinds of action missing from them, as the prompt and the app's options pane show them. A
    game rebuilt from a seat's view (a hosted game's client) may not tell them: then none."""
    about, unavailable = extras.about, extras.unavailable
    try:
        notes = [about(game, code) for code in decision.options] if about else []
        missing = unavailable(game, decision) if unavailable else []
    except Exception:  # noqa: BLE001 - a note is extra: the options are listed without it, never a traceback
        return [""] * len(decision.options), []
    return notes or [""] * len(decision.options), missing


def _read_input(prompt: str) -> str:
    return input(prompt)


class Asker:
    """A person asked at the prompt: the options listed, a line read and turned into one of them,
    help, and the question asked once before a choice the game warns about. The local prompt
    (:class:`Console`) and a hosted game's client (tui/remote_console.py) both ask this way."""

    extras: ConsoleExtras
    quit_help = "stop here (Ctrl+C too); the record keeps every step, fiefdom resume --prompt goes on"
    more_help: tuple[str, ...] = ()  # lines of the prompt's own words, for help

    def __init__(self, read: Callable[[str], str], write: Callable[[str], None]) -> None:
        self.read_line = read
        # Everything printed keeps its line breaks and nothing else that could steer the terminal;
        # a name or an event (from a record, a user's data file) is made visible whole where it is worded.
        self.write: Callable[[str], None] = lambda text: write(visible_lines(text))

    @property
    def game(self) -> Game:
        raise NotImplementedError

    def read(self, prompt: str) -> str:
        try:
            line = self.read_line(prompt)
        except (EOFError, OSError, RuntimeError, ValueError):  # EOF, or stdin closed or missing
            raise _NoInput from None
        if line.strip().lower() in QUIT_WORDS:
            raise Quit
        return line

    def _confirmed(self, code: Code) -> bool:
        """A choice the game warns about (one that cannot be taken back) asks once: y plays it,
        anything else plays nothing and the question is asked again."""
        question = warning_for(self.game, code)
        if not question:
            return True
        answer = self.read(f"  {visible(question)} (y/n) ").strip().lower()
        if answer in ("y", "yes"):
            return True
        self.write("  nothing played")
        return False

    def _put(self, decision: Decision) -> str:
        """The question put to a person: their table in short, the prompt, the options; their seat's name."""
        game, seat = self.game, decision.seat
        name = visible(game.seats[seat])
        self.write("")
        header = self.extras.header(game, seat) if self.extras.header else tui_games.position_text(game, seat)
        if header:
            self.write(header)
        self.write(f"{name}: {visible(decision.prompt)}")
        self._options(decision, everything=False)
        return name

    def _options(self, decision: Decision, everything: bool) -> None:
        options = decision.options
        if not everything and len(options) > self.extras.list_limit:
            example = self.game.describe(options[0])
            self.write(f"  {len(options)} options: type one (like {example}), or list to see them all")
            return
        notes, missing = option_notes(self.extras, self.game, decision)
        cells = [visible(f"{i:>3}. {self.game.describe(code)}{f' - {note}' if note else ''}")
                 for i, (code, note) in enumerate(zip(options, notes), 1)]
        width = max(map(len, cells)) + 2
        across = max(1, 78 // width) if len(cells) > 12 else 1  # many short options: in columns
        for row in range(0, len(cells), across):
            self.write(" " + "".join(cell.ljust(width) for cell in cells[row:row + across]).rstrip())
        for line in missing:  # under the options' words, unnumbered: nothing to choose
            self.write(visible(f"      {line}"))

    def _choice(self, line: str, decision: Decision) -> Code | None:
        """The option a line names (a number or the game's words); None after printing help or a refusal."""
        word = line.strip().lower()
        commands = {c.word: c for c in self.extras.commands}
        if word in ("help", "?"):
            self.write(self.help())
        elif not word:  # Enter alone: the question again
            self.write(visible(f"{self.game.seats[decision.seat]}: {decision.prompt}"))
            self._options(decision, everything=False)
        elif word == "list":
            self._options(decision, everything=True)
        elif word in commands:
            self.write(commands[word].show(self.game, decision.seat))
        elif word.isascii() and word.isdigit():  # ASCII: "²" is a digit to isdigit, not to int
            n = int(word) if len(word) <= 9 else 0  # never convert thousands of digits
            if 1 <= n <= len(decision.options):
                return decision.options[n - 1]
            self.write(f"  {word if len(word) <= 9 else word[:8] + '…'}: choose 1..{len(decision.options)}")
        else:
            try:
                code = self.game.parse(line)
            except RulesError as err:
                self.write(f"  {err}")
                return None
            if code in decision.options:
                return code
            self.write(f"  {line.strip()}: not a legal option here")
        return None

    def result_text(self, result: Result) -> str:
        """Who won and why (the game's own words when it has them), and the scores."""
        if self.extras.result is not None:
            return self.extras.result(self.game, result)
        seats = self.game.seats
        names = " and ".join(seats[w] for w in result.winners)
        who = f"{names} {'wins' if len(result.winners) == 1 else 'win'}" if names else "draw"
        text = visible(f"{who}: {result.reason} [{result.rule}]")
        if result.scores:
            text += "\nscores: " + visible(", ".join(f"{n} {s}" for n, s in zip(seats, result.scores)))
        return text

    def help(self) -> str:
        typing = f" ({self.extras.typing})" if self.extras.typing else ""
        lines = [f"Type the number of an option or its words{typing}.",
                 "  list   every option          help   this text",
                 *(f"  {c.word:<6} {c.help}" for c in self.extras.commands),
                 *self.more_help,
                 f"  quit   {self.quit_help}"]
        return "\n".join(lines)


class Console(Asker):
    """Plays a :class:`Runner`'s game at the prompt until it is over or the person leaves."""

    more_help = ("  undo   take back your last move (takeback too), as far as the rules of takeback allow",)

    def __init__(self, runner: Runner, read: Callable[[str], str] = _read_input,
                 write: Callable[[str], None] = print, extras: ConsoleExtras | None = None) -> None:
        super().__init__(read, write)
        self.driver = PlayDriver(runner)  # played step by step: the prompt's pace is the person's Enter
        self.extras = extras if extras is not None else extras_for(runner.game.game)
        self.people = bool(runner.people)
        self.acted = False  # a person acted since the last pause: pause before the next round
        self.asked = False  # a person was asked something here: from then on, pause before each new turn
        self.answered = 0  # answers a person gave in this run

    @property
    def runner(self) -> Runner:
        return self.driver.runner

    @property
    def game(self) -> Game:
        return self.runner.game

    # -- the loop ------------------------------------------------------------------

    @property
    def viewer(self) -> int | None:
        """Whose log the prompt prints (the information wall): the one person's, else a spectator's
        (with several people the screen is everyone's)."""
        return self.driver.solo_seat()

    def intro(self) -> str:
        h = self.runner.header
        seats = ", ".join(f"{name} ({plan.kind})" for name, plan in zip(self.game.seats, self.runner.plans))
        # A game with hidden information keeps its seed until it is over: the seed deals every card again.
        seed = f", seed {h.seed}" if self.runner.gi.perfect_information else ""
        line = visible(f"{self.runner.gi.title}, {h.variant}{seed}: {seats}")
        steps = len(self.runner.history)
        if steps:
            line += f"\nResuming after step {steps}." + self.recap()
        return line + ("\nType help for the commands." if self.people else "")

    def recap(self, most: int = 30) -> str:
        """On resuming: what happened since a person last decided (the last ``most`` events)."""
        history = self.runner.history
        last = next((i for i in range(len(history) - 1, -1, -1) if history[i].kind == "decision"
                     and self.runner.seat_kind(history[i].seat or 0) == "human"), None)
        if last is None:
            return ""
        events = [e for step in history[last:] for e in events_seen(step.events, self.viewer)
                  if e.kind not in self.extras.quiet]
        lines = [_event_line(e) for e in events[-most:]]
        who = visible(self.game.seats[history[last].seat or 0])
        return f" Since {who}'s last decision:\n" + "\n".join(lines) if lines else ""

    def play(self) -> str:
        """Play to the end or until the person leaves; returns the closing line(s). Closes the runner."""
        try:
            self.write(self.intro())
            while self.runner.result is None:
                waiting = self.runner.waiting
                if waiting is None:
                    self._automatic()
                elif isinstance(waiting, Decision):
                    self._decide(waiting)
                else:
                    self._dice(waiting)
            return self.closing(self.runner.result)
        except (Quit, KeyboardInterrupt):
            return self.stopped("")
        except _NoInput:
            if not self.answered:  # no standard input at all: nobody is there to play
                waiting = self.runner.waiting
                who = visible(self.game.seats[waiting.seat]) if isinstance(waiting, Decision) \
                    else "a person typing dice"
                where = self.runner.path
                raise NoInput(f"no input to read, and {who} is to decide"
                              + (f"; the record so far is {where}" if where else "")) from None
            return self.stopped(": the input ended")
        finally:
            self.runner.close()

    def stopped(self, why: str) -> str:
        where = self.runner.path
        self.write("")  # off the prompt's line
        return f"stopped{why}" + (f"; the record so far is {where}" if where else "")

    def closing(self, result: Result) -> str:
        text = self.result_text(result)
        # A game with hidden information says its seed only now (see intro).
        seed = "" if self.runner.gi.perfect_information else f", seed {self.runner.header.seed}"
        text += f" ({len(self.runner.history)} steps{seed})"
        where = self.runner.path
        return text + (f"\nrecord: {where}" if where else "")

    # -- steps nobody types --------------------------------------------------------------

    def _automatic(self) -> None:
        point = self.runner.point
        if isinstance(point, Decision) and self.extras.begins(point) == "round":
            self._pause("round")
        step = self.driver.step()
        if step is not None:
            self._show(step, own=False)

    def _show(self, step: Step, own: bool) -> None:
        """A step's events; a person's own first event is part of what they did, never a pause."""
        for i, event in enumerate(events_seen(step.events, self.viewer)):
            if event.kind in self.extras.quiet:
                continue
            begins = self.extras.begins(event)
            if begins and not (own and i == 0):
                self._pause(begins)
            self.write(_event_line(event))

    def _pause(self, what: str) -> None:
        """Wait for Enter: before every new turn, and before another seat's round after a person acted."""
        if not self.acted and not (what == "turn" and self.asked):
            return
        self.acted = False
        self.read("-- Enter for the next turn --" if what == "turn" else "-- Enter to go on --")

    # -- a person's decision -------------------------------------------------------------

    def _decide(self, decision: Decision) -> None:
        name = self._put(decision)
        self.asked = True
        while True:
            line = self.read(f"{name}> ")
            if line.strip().lower() in TAKEBACK_WORDS:
                undone, words = self.driver.undo()  # nothing thinks meanwhile at the prompt
                self.write(f"  {words}")
                if undone:
                    return  # the question of the position taken back to comes next
                continue
            code = self._choice(line, decision)
            if code is not None and self._confirmed(code) and self._answer(lambda: self.driver.decide(code)):
                return

    def _answer(self, apply: Callable[[], Step]) -> bool:
        """Apply what a person typed and show what it did; False, with the rules' one line, when refused."""
        try:
            step = apply()
        except RulesError as err:
            self.write(f"  {err}")
            return False
        self.acted = True
        self.answered += 1
        self._show(step, own=True)
        return True

    # -- dice typed from a real table -------------------------------------------------------

    def _dice(self, chance: Chance) -> None:
        n, sides = chance.spec
        label = visible(chance.label or "the dice")
        while True:
            line = self.read(f"{label}: type the {n} {'die' if n == 1 else 'dice'} thrown (1-{sides} each)> ")
            try:
                outcome = parse_outcome(chance, line)  # how many, what range: as the app reads them
            except RulesError as err:
                self.write(f"  {err}")
                continue
            if self._answer(lambda: self.driver.dice(outcome)):
                return


def play(runner: Runner, read: Callable[[str], str] = _read_input,
         write: Callable[[str], None] = print) -> str:
    """Play ``runner``'s game at the prompt; returns the closing line(s)."""
    return Console(runner, read, write).play()
