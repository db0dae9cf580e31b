"""Drawing only what changed. A Static told its content again is measured, laid out and rendered
again, with the whole screen's layout: at every step of a bot round that is most of a draw's time
(docs/performance.md, "The app"). The play screen tells its widgets their content at every step;
what is the same is left alone here."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text
from textual.widgets import Static
from textual.visual import VisualType


def text_key(text: Text) -> tuple[object, ...]:
    """What a Text shows: its characters, spans and how it is laid out (Text's ``==`` compares only
    the first two)."""
    return (text.plain, text.spans, text.style, text.justify, text.overflow, text.no_wrap, text.end)


def same(shown: object, content: object) -> bool:
    """Whether ``content`` draws as ``shown`` does: strings and Texts compared, anything else only
    when it is the very object shown."""
    if isinstance(shown, str) and isinstance(content, str):
        return shown == content
    if isinstance(shown, Text) and isinstance(content, Text):
        return text_key(shown) == text_key(content)
    return shown is content


def set_content(static: Static, content: VisualType, layout: bool = True) -> None:
    """``static`` shows ``content``, updated only when it changed. ``layout=False`` for a widget whose
    size its content cannot change (a fixed height and width)."""
    if not same(static.content, content):
        static.update(content, layout=layout)


class Drawn:
    """Lines of segments rendered beforehand (to tell whether anything changed), drawn as they are."""

    def __init__(self, lines: list[list[Segment]], width: int = 0) -> None:
        self.lines, self.width = lines, width  # the width they were rendered for

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line
