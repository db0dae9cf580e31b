"""The move list drawn in blocks (tui/widgets/side_panes.py): what its blocks show is the whole list,
however quickly it shrinks and grows (a takeback, then the bots' moves, in one tick)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.widgets.side_panes import MoveList


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MoveList(id="moves")


def shown(moves: MoveList) -> str:
    """What the blocks on the screen hold, in order."""
    return "\n".join(str(block.content) for block in moves.query_children(Static))


async def test_the_blocks_hold_the_whole_list_after_it_shrinks_and_grows_at_once() -> None:
    lines = [f"{n:>3}. move {n}" for n in range(1, 3 * MoveList.BLOCK + 2)]  # four blocks
    app = ListApp()
    async with app.run_test() as pilot:
        moves = app.query_one(MoveList)
        assert shown(moves) == MoveList.EMPTY
        moves.show(lines)
        await pilot.pause()
        assert shown(moves) == "\n".join(lines)
        moves.show(lines[:5])  # back to one block: three are being removed ...
        moves.show(lines)  # ... as the list grows again, before they are gone
        await pilot.pause()
        assert shown(moves) == "\n".join(lines)
        moves.show([])
        await pilot.pause()
        assert shown(moves) == MoveList.EMPTY
