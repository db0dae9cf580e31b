"""Help: the keys of every screen (from the bindings themselves) and the rules in brief."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

RULES = """
## Tafl in brief (our words; sections cite the rulebooks)

* **Sides** (trad setup): the attackers (`A`, 24 on 11x11, 16 on Gild 9x9) move first
  against the defenders (`D`) and their king (`K`), who starts on the centre square.
* **Moving** (trad play.1, gild BASIC MOVES): any piece moves like a rook, any
  distance along a rank or file, never through another piece.
* **Special squares**: only the king may stop on the centre (`+`, throne or hof) or
  a corner (`#`); anyone may pass over the empty centre (TF-2). In Gild, camps
  (`:`) are the attackers' starting T-shapes: an attacker may move within its own
  camp until it leaves, no one else may stop there, anyone may pass (TF-7).
* **Capture** (trad play.3-4, gild CAPTURE): close a piece between two of yours, or
  one of yours and a hostile empty square (corner, centre, Gild camp). Moving
  between two enemies is safe (TF-15). The king is armed and captures too.
* **The king** (trad play.5): in the traditional game he must be surrounded on all
  four sides (the empty throne counts, TF-3; the edge does not, TF-10). In Gild
  he needs four attackers only on the hof; elsewhere two, like any piece (TF-13).
* **Winning**: the defenders win when the king reaches a corner (trad win.3); the
  attackers when they capture him (trad win.2). A side that cannot move loses
  (trad win.1). Traditional: 50 moves in a row without a capture draw (TF-5).
  A third repetition of a position draws (TF-6).

## The board

`[ ]` cursor · `< >` selected piece · `*` legal destination · `x` just captured ·
yellow: the last move · green: where the selected piece may go.

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
    return "\n".join(lines)


class HelpScreen(Screen):
    BINDINGS = [Binding("escape,q,question_mark,f1", "app.pop_screen", "Close", id="help.close")]

    def __init__(self, screens: list[tuple[str, list[Binding]]], keymap: dict[str, str]) -> None:
        super().__init__()
        self.screens = screens
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(keys_markdown(self.screens, self.keymap) + RULES)
        yield Footer()
