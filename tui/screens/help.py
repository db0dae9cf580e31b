"""Help: the keys of every screen (from the bindings themselves) and each game's rules in brief
(its plugin's rules.md)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

KEYMAP_NOTE = """
Keys can be remapped in `keymap.toml` in your data folder: `binding-id = "keys"`,
for example `"board.up" = "w,up"`.
"""

KEY_NAMES = {"question_mark": "?", "equals_sign": "=", "plus": "+", "minus": "-", "escape": "esc"}


def key_text(keys: str) -> str:
    return ", ".join(KEY_NAMES.get(k.strip(), k.strip()) for k in keys.split(","))


def keys_markdown(screens: list[tuple[str, list[Binding]]], keymap: dict[str, str]) -> str:
    """The keys of each screen as tables, with the user's keymap applied."""
    lines = ["## Keys", ""]
    for title, bindings in screens:
        lines += [f"**{title}**", "", "| keys | action | id |", "|---|---|---|"]
        for b in bindings:
            keys = keymap.get(b.id or "", b.key)
            lines.append(f"| `{key_text(keys)}` | {b.description or b.action} | `{b.id or ''}` |")
        lines.append("")
    return "\n".join(lines) + KEYMAP_NOTE


def with_extra_keys(screens: list[tuple[str, list[Binding]]], stack: list[Screen]) -> list[tuple[str, list[Binding]]]:
    """The screens' keys with the keys the screen under the help added for what it shows (its
    ``extra_keys()``, e.g. "Replay (taifa)": the viewer's landmarks), each after its screen's."""
    below = [s for s in stack if not isinstance(s, HelpScreen)]
    extra = getattr(below[-1], "extra_keys", None) if below else None
    out = list(screens)
    for title, bindings in extra() if extra is not None else ():
        at = [i for i, (t, _) in enumerate(out) if t == title.split(" (")[0]]
        out.insert(at[-1] + 1 if at else len(out), (title, bindings))
    return out


class HelpScreen(Screen):
    BINDINGS = [Binding("escape,q,question_mark,f1", "app.pop_screen", "Close", id="help.close")]

    def __init__(self, screens: list[tuple[str, list[Binding]]], keymap: dict[str, str],
                 rules: list[str]) -> None:
        super().__init__()
        self.screens = screens
        self.keymap = keymap
        self.rules = rules  # each game's rules in brief, as Markdown

    def compose(self) -> ComposeResult:
        screens = with_extra_keys(self.screens, self.app.screen_stack)
        with VerticalScroll(id="help"):
            yield Markdown("\n\n".join([keys_markdown(screens, self.keymap), *self.rules]))
        yield Footer()
