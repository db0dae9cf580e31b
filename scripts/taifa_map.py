"""Look at Taifa's map pane on its own: ``python scripts/taifa_map.py [MAP.toml] [--el-cid]``.

For whoever edits a map file (core/taifa/data/map.toml or their own): the pane draws
it as the app does, at the terminal's size (resize to see the compact schematic),
with the first kingdom's attack targets marked. Arrows, `/`, `l` and Enter work
as in a game; q quits. A map that does not load says why and exits.
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.binding import Binding

from core.engine import RulesError
from core.taifa.game import TaifaGame
from core.taifa.map import load_map
from tui.games.taifa.map import MapCanvas, MapPane


class MapViewer(App):
    BINDINGS = [Binding("q", "quit", "Quit")]

    def __init__(self, game: TaifaGame) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        yield MapPane(self.game, 0, id="map")

    def on_mount(self) -> None:
        k = self.game.s.current
        self.query_one(MapPane).show(self.game, k, {a: ("attack", a) for a in self.game.attackable(k)})
        self.query_one(MapCanvas).focus()


def main(args: list[str]) -> int:
    paths = [a for a in args if not a.startswith("--")]
    try:
        m = load_map(paths[0]) if paths else None
        game = TaifaGame("el-cid" if "--el-cid" in args else "standard", bots=(), taifa_map=m)
    except RulesError as exc:
        print(exc, file=sys.stderr)
        return 1
    MapViewer(game).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
