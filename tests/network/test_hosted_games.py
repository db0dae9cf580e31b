"""Whole games through a host on 127.0.0.1 (issue 29): every game to its end, the record verified and
equal step for step to the same game played here, and nothing a seat may not see in its frames."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
import pytest

from core import games as core_games
from core.engine import TABLE, Chance
from notation import host as host_module
from notation.deal import problem
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from tests.network.support import Player, hosted, new_host, play_to_end, setup_of
from tests.wall_support import Wall, strings

GAMES = [
    ("tafl", "brandubh", ["human", "human"]),
    ("kingdom", "multi-3", ["human", "human", "random"]),
    ("kingdom", "solo", ["human", "bot", "bot"]),
    ("taifa", "standard", ["human", "bot", "bot", "human", "bot", "bot"]),
    ("taifa", "el-cid", ["bot", "human", "bot", "human"]),
]


def local_game(header: Any, history: list[Any]) -> list[Any]:
    """The same game played here: the record's seed, the people's decisions typed in, every other
    step (chance, bots, random seats) played by the runner itself."""
    plans = tuple(SeatPlan.of(s) for s in header.seats)
    setup = GameSetup(header.game, header.variant, plans, seed=header.seed, options=dict(header.options),
                      setup=dict(header.setup))
    local = Runner.start(setup)
    for step in history:
        if step.kind == "decision" and plans[step.seat].kind == "human":
            local.decide(step.value)
        else:
            assert local.step() is not None
    assert local.result is not None
    return local.history


class Tap:
    """Every frame the host sends, with the seat it goes to and the table as it was then."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames: list[tuple[Any, bytes, Any, int]] = []
        self.host: Any = None
        send = host_module.Peer.send
        tap = self

        def sending(peer: Any, message: dict[str, Any]) -> None:
            d = peer.host.driver
            game = d.runner.game.clone() if d is not None and message["t"] == "table" else None
            tap.frames.append((peer.seat, host_module.pack(message), game, len(d.entries) if d else 0))
            send(peer, message)

        monkeypatch.setattr(host_module.Peer, "send", sending)


@pytest.mark.parametrize("game,variant,kinds", GAMES, ids=[f"{g}-{v}" for g, v, _ in GAMES])
async def test_a_whole_game_through_a_host(game: str, variant: str, kinds: list[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    tap = Tap(monkeypatch)
    path = tmp_path / "hosted.fief"
    host = new_host(setup_of(game, variant, kinds), path)
    invitations, serving = await hosted(host)
    assert all(inv.host == "127.0.0.1" for inv in invitations)
    people = [Player(inv, seed=i) for i, inv in enumerate(invitations[:-1])]
    watcher = Player(invitations[-1], play=False)
    await watcher.join()
    await play_to_end(host, people)
    await watcher.until(lambda: watcher.client.result is not None)
    assert host.driver is not None
    runner = host.driver.runner
    history = list(runner.history)
    for p in [*people, watcher]:
        assert p.client.result == runner.result
        assert len(p.client.log) == len(history)
        assert "the deal checked" in p.client.deal_check or p.client.seat is None
        p.leave()
    await asyncio.wait_for(serving, 30)

    recording = read_record_file(path)
    assert verify(recording).ok
    deal = recording.header.deal
    assert deal is not None and problem(deal, recording.header.seed) is None
    assert [r.who for r in deal.seats] == [f"seat {i}" for i, k in enumerate(kinds) if k == "human"]
    local = local_game(recording.header, history)
    assert [(s.kind, s.seat, s.value) for s in local] == [(s.kind, s.seat, s.value) for s in history]
    assert_nothing_hidden_was_sent(tap, host.driver.entries, runner, recording.header)


def assert_nothing_hidden_was_sent(tap: Tap, entries: list[Any], runner: Runner, header: Any) -> None:
    """For every frame to a seat: no card id or name the seat had not seen by then, no shuffle's
    order, and (in a game with hidden cards) neither the seed nor any secret of the deal before the end."""
    gi = core_games.info(header.game)
    game = runner.game
    wall = Wall(len(game.seats))
    shuffles = [msgpack.packb(list(info.value)) for info in entries
                if isinstance(info.before, Chance) and info.before.kind == "shuffle" and len(info.value) > 4]
    secret_bytes = [p.secret for p in header.deal.parties]
    seed = msgpack.packb(header.seed)
    checked = told = 0
    for seat, frame, state, steps in tap.frames:
        if state is None:
            continue
        for info in entries[told:steps]:  # what everyone read by then: a card it names is public
            public = info.seen_by(None)
            wall.told(state, [public.text, *(e.text for e in public.events)])
        told = max(told, steps)
        over = state.result is not None
        if not over:
            assert not any(s in frame for s in secret_bytes), f"a secret of the deal reached {seat} mid-game"
        if gi.perfect_information:
            continue
        wall.look(state)
        if not over:
            assert seed not in frame, f"the seed reached {seat} mid-game"
        assert not any(s in frame for s in shuffles), f"a shuffle's order reached {seat}"
        body = msgpack.unpackb(frame[4:], raw=False, strict_map_key=False)
        # The seat's own question is the rules' words to it, checked against the view at the prompt
        # (tests/unit/test_wall_every_game.py); it may name what the view does not: Informers and
        # Envoy to Court show the target's hand to the player choosing from it (TA-39).
        body.pop("ask", None)
        text = "\n".join(strings(body, keys=True))
        assert not wall.leaks(state, seat, text), f"{wall.leaks(state, seat, text)} reached seat {seat}"
        checked += 1
    assert gi.perfect_information or checked > 10


def test_views_travel_whole() -> None:
    """A view sent over the wire comes back equal to the game's (tuples, results), for each game."""
    from notation.protocol import FrameLimits, decode, pack, view_from_wire

    for game, variant, kinds in GAMES:
        r = Runner.start(replace(setup_of(game, variant, [k if k == "bot" else "random" for k in kinds]), seed=3))
        r.run(400)
        for seat in [*range(len(r.game.seats)), None, TABLE]:
            view = r.game.view(seat)
            back = decode(pack({"t": "table", "view": view})[4:], FrameLimits.FROM_HOST)
            assert view_from_wire(back["view"]) == view
        assert not isinstance(r.point, Chance) or True


async def test_a_game_with_its_hosts_own_cards_is_drawn_with_them(tmp_path: Path) -> None:
    """A host's own cards file (``--cards``) goes to every client in the welcome, loaded there by the
    game's own checks: the clients draw the renamed card, and the game plays to its end."""
    from importlib import resources

    from notation.remote_game import RemoteGame
    from tui.cli_support import data_lookup

    text = resources.files("core.kingdom").joinpath("data/cards.toml").read_text("utf-8")
    own = text.replace('id = "soldiers-1"\nkey = "soldiers"\nname = "Soldiers"',
                       'id = "soldiers-1"\nkey = "soldiers"\nname = "Footmen"', 1)
    path = tmp_path / "own.toml"
    path.write_text(own, "utf-8")
    games = data_lookup("kingdom", [("cards", path)])
    setup = setup_of("kingdom", "multi-2", ["human", "human"])
    setup = replace(setup, setup={**setup.setup, **games("kingdom").new_setup("multi-2", ["human", "human"],
                                                                               games("kingdom").data)})
    host = new_host(setup, tmp_path / "own.fief", games=games, data={"cards": own})
    invitations, serving = await hosted(host)
    people = [Player(inv, seed=i) for i, inv in enumerate(invitations[:-1])]
    await play_to_end(host, people)
    drawn = RemoteGame(people[0].client)
    assert drawn.start.card("soldiers-1").name == "Footmen"
    for p in people:
        p.leave()
    await asyncio.wait_for(serving, 30)
    assert verify(read_record_file(tmp_path / "own.fief", games=games), games=games).ok
