"""Help: the keys of every screen (from the bindings themselves), the command palette's commands
on the screen help was opened from, and each game's rules in brief (its plugin's rules.md)."""

from __future__ import annotations

import functools
import importlib
import io
import threading
from collections.abc import Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.widgets.keys_footer import KeysFooter


class HelpText(ScrollView):
    """The help's Markdown, drawn by Rich for the width it has (and kept), and shown a line at a time:
    only the lines in view are handed to the screen. It is drawn a part at a time (the keys here, the
    rules, the other screens' keys): the parts that fill the view at once, the rest a part a tick
    after, so help opens in the time of its first page and keys are answered meanwhile."""

    def __init__(self, parts: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.parts = [p for p in parts if p.strip()]
        self.source = "\n\n".join(self.parts)
        self.lines: list[Strip] = []
        self.drawn = 0  # how many parts are in ``lines``
        self.width = 0

    def on_resize(self) -> None:
        width = max(20, self.scrollable_content_region.width)
        if width != self.width:
            self.width, self.lines, self.drawn = width, [], 0
        while self.drawn < len(self.parts) and len(self.lines) < self.scroll_offset.y + self.size.height:
            self.draw_part()
        self.drawn_more()

    def draw_part(self) -> None:
        if self.lines:
            self.lines.append(Strip.blank(self.width))  # the blank line Rich puts between blocks
        self.lines += drawn_lines(self.parts[self.drawn], self.width)
        self.drawn += 1

    def drawn_more(self) -> None:
        self.virtual_size = Size(self.width, len(self.lines))
        self.refresh()
        if self.drawn < len(self.parts):
            self.call_later(self.draw_later, self.width)

    def draw_later(self, width: int) -> None:
        if width == self.width and self.drawn < len(self.parts):  # not redrawn for another width since
            self.draw_part()
            self.drawn_more()

    def render_line(self, y: int) -> Strip:
        x, top = self.scroll_offset
        width = self.scrollable_content_region.width
        line = self.lines[top + y] if 0 <= top + y < len(self.lines) else Strip.blank(width)
        return line.crop_extend(x, x + width, self.rich_style)


def warm_up() -> None:
    """Import what draws the help page (Rich's Markdown, markdown-it under it: libraries that never
    import ours) in a thread of its own, while nobody waits: the first ``?`` then costs what every
    later one does. The thread only takes turns with the screen's."""
    threading.Thread(target=importlib.import_module, args=("rich.markdown",), name="warm-up help",
                     daemon=True).start()


@functools.lru_cache(maxsize=64)
def drawn_lines(source: str, width: int) -> list[Strip]:
    """``source`` (Markdown) as Rich draws it ``width`` columns wide, a strip a line (kept: help
    opened again on the same screen shows the page already drawn)."""
    from rich.console import Console
    from rich.markdown import Markdown  # imported when help is first asked for

    console = Console(width=width, file=io.StringIO(), color_system="truecolor", legacy_windows=False)
    return [Strip(line) for line in console.render_lines(Markdown(source), pad=False)]


def keymap_note(data_dir: object) -> str:
    return (f"\nYour data folder is `{data_dir}`: autosaves, saved records and `keymap.toml`, where keys\n"
            "can be remapped: `binding-id = \"keys\"`, for example `\"board.up\" = \"w,up\"`.\n")


KeyTables = list[tuple[str, list[BindingType]]]  # (screen's title, its BINDINGS as Textual types them)


def as_binding(b: BindingType) -> Binding:
    """A binding as a BINDINGS list may hold it: a Binding, or (keys, action[, description])."""
    return b if isinstance(b, Binding) else Binding(*b)


KEY_NAMES = {"question_mark": "?", "equals_sign": "=", "plus": "+", "minus": "-", "escape": "esc", "full_stop": ".",
             "comma": ",", "left_square_bracket": "[", "right_square_bracket": "]", "slash": "/"}


def key_text(keys: str) -> str:
    return ", ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in keys.split(","))


def keys_markdown(screens: KeyTables, keymap: dict[str, str], heading: str = "Keys") -> str:
    """The keys of each screen as tables, with the user's keymap applied."""
    lines = [f"## {heading}", ""]
    for title, bindings in screens:
        lines += [f"**{title}**", "", "| keys | action | id |", "|---|---|---|"]
        for b in map(as_binding, bindings):
            keys = keymap.get(b.id or "", b.key)
            lines.append(f"| `{key_text(keys)}` | {b.description or b.action} | `{b.id or ''}` |")
        lines.append("")
    return "\n".join(lines)


def with_extra_keys(screens: KeyTables, stack: list[Screen]) -> KeyTables:
    """The screens' keys with the keys the screen under the help added for what it shows (its
    ``extra_keys()``, e.g. "Replay (taifa)": the viewer's landmarks), each after its screen's."""
    below = [s for s in stack if not isinstance(s, HelpScreen)]
    extra = getattr(below[-1], "extra_keys", None) if below else None
    out = list(screens)
    for title, bindings in extra() if extra is not None else ():
        at = [i for i, (t, _) in enumerate(out) if t == title.split(" (")[0]]
        out.insert(at[-1] + 1 if at else len(out), (title, bindings))
    return out


def commands_markdown(app: App[Any], below: Screen | None) -> str:
    """The commands the command palette offers on the screen under the help, as the palette lists
    them (the app's ``get_system_commands`` for that screen: a game's resign, takeback, save as,
    then the app's own and Textual's), or "" when there is no screen below."""
    if below is None:
        return ""
    rows = [(c.title, c.help) for c in app.get_system_commands(below)]
    if not rows:
        return ""
    key = key_text(app.COMMAND_PALETTE_BINDING)
    lines = ["## Commands here", "", f"Open the command palette with `{key}` and type a command's name.", "",
             "| command | what it does |", "|---|---|"]
    lines += [f"| {cell(title)} | {cell(text)} |" for title, text in rows]
    return "\n".join(lines) + "\n"


def cell(text: str) -> str:
    """Text for a Markdown table's cell: a ``|`` in it (a seat's name) does not end the cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def came_from(screens: KeyTables, below: Screen | None, game: str | None) -> tuple[KeyTables, KeyTables]:
    """The screens' key tables split in two: those of the screen under the help (with its game's
    board and its extra keys), and the others."""
    names = {f"Board ({game})", f"Replay ({game})"} if game else set()
    here = [(t, b) for t, b in screens
            if below is not None and (b is type(below).BINDINGS or t in names)]
    return here, [s for s in screens if s not in here]


class HelpScreen(Screen):
    """Help opens on the keys of the screen it was called from, then the rules in brief (that
    screen's game first), then every other screen's keys and where the data folder is."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "app.pop_screen", "Close", id="help.close")]

    def __init__(self, screens: KeyTables, keymap: dict[str, str],
                 rules: list[tuple[str, str]], data_dir: object = "") -> None:
        super().__init__()
        self.screens = screens
        self.keymap = keymap
        self.rules = rules  # (game, its rules in brief as Markdown)
        self.data_dir = data_dir

    def compose(self) -> ComposeResult:
        stack = self.app.screen_stack
        below = next((s for s in reversed(stack) if not isinstance(s, HelpScreen)), None)
        header = getattr(below, "header", None)
        game = getattr(header, "game", None)
        here, others = came_from(with_extra_keys(self.screens, stack), below, game)
        rules = [text for name, text in self.rules if name == game] + [t for n, t in self.rules if n != game]
        parts = [keys_markdown(here, self.keymap, "Keys here")] if here else []
        parts += [text for text in (commands_markdown(self.app, below),) if text]
        parts += [*rules, keys_markdown(others, self.keymap, "Keys elsewhere" if here else "Keys"),
                  keymap_note(self.data_dir)]
        yield HelpText(parts, id="help")
        yield KeysFooter()
