"""The AI on the published rulesets (Copenhagen, Fetlar, Brandubh): its search board plays
TaflGame's rules, including shieldwalls, exit forts and encirclement, and its games verify."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.rng import SplitMix64
from core.tafl import TaflGame
from core.tafl.ai import Position, TaflAI, encode
from test_ai import check_may_play, legal_set, pick_move, random_position

FIEFDOM = str(Path(sys.executable).parent / "fiefdom")
RULESETS = [("copenhagen", {}), ("fetlar", {}), ("brandubh", {}), ("brandubh", {"strong_king_at_throne": True})]
IDS = ["copenhagen", "fetlar", "brandubh", "brandubh-strong"]
BOARD_WINS = ("the king is captured", "the king reached a corner", "the king stands in an exit fort on the edge",
              "every defender is encircled")


def winner_on_board(game: TaflGame) -> int:
    """Who won by the last move itself (what Position.winner tracks); -1 if nobody."""
    result = game.result
    return result.winners[0] if result is not None and result.reason in BOARD_WINS else -1


def play_both(game: TaflGame, rng: SplitMix64, plies: int) -> None:
    pos = Position.from_game(game)
    for ply in range(plies):
        if game.result is not None:
            break
        assert {(m >> 8, m & 255) for m in pos.moves()} == legal_set(game)
        assert sorted(pos.moves_to(sum(1 << sq for sq, p in enumerate(pos.board) if not p))) == sorted(pos.moves())
        if ply == 0:
            check_may_play(game, pos)
        f, t = pick_move(game, rng)
        game.apply((game.geo.names[f], game.geo.names[t]))
        pos.make(encode(f, t))
        assert pos.board == game.board
        assert pos.winner == winner_on_board(game), game.result
    while pos.stack:
        pos.unmake()


@pytest.mark.parametrize(("name", "options"), RULESETS, ids=IDS)
def test_search_board_matches_rules(name: str, options: dict[str, Any]) -> None:
    rng = SplitMix64(41)
    for _ in range(2):
        play_both(TaflGame(name, options), rng, plies=200)
    for i in range(80):
        game = TaflGame(name, options, random_position(name, rng), to_move=min(rng.below(3), 1))
        play_both(game, rng, plies=12)


@pytest.mark.parametrize(("name", "options"), RULESETS, ids=IDS)
def test_ai_plays_whole_games_that_verify(tmp_path: Path, name: str, options: dict[str, Any]) -> None:
    args = [FIEFDOM, "simulate", "tafl", "-v", name, "-n", "1", "--ai-depth", "2", "--ai-time", "10",
            "-o", "quiet_moves=80", "--out", str(tmp_path), "--seed", "3"]
    for key, value in options.items():
        args += ["-o", f"{key}={str(value).lower()}"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    records = sorted(tmp_path.glob("*.fief"))
    assert len(records) == 1
    check = subprocess.run([FIEFDOM, "replay", "verify", str(records[0])], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0 and check.stdout.startswith("ok:") and "unfinished" not in check.stdout, check.stdout


def test_ai_sees_the_new_wins(setup: Callable[..., TaflGame]) -> None:
    # Copenhagen: the defenders close the exit fort round the king on a6 (TF-22), the attackers
    # close the ring (TF-24), and c5-c1 takes two defenders in a shieldwall (TF-21).
    fort = setup("copenhagen", "e9 h3 j8", "a4 b6 a7 d5", "a6", "defenders")
    ring = setup("copenhagen", "d5 d6 d7 h5 h6 h7 e4 f4 g4 f8 g8 e10", "f7", "f6")
    for game, winner in ((fort, 1), (ring, 0)):
        game.apply(TaflAI(max_depth=2, time_budget=30).search(game).move)
        assert game.result is not None and game.result.winners == (winner,), game.position()
    # The king is boxed in on the throne: with a free king and five attackers the attackers are
    # lost whatever they play (he reaches an edge line with two goals), and the AI sees that.
    shield = setup("copenhagen", "d2 e2 f1 c5 b9 f8 d6 h6 f4", "d1 e1 h5 f7 e6 g6 f5", "f6")
    assert TaflAI(max_depth=2, time_budget=30).search(shield).move == ("c5", "c1")


@pytest.mark.parametrize(("name", "to_move", "attackers_win"), [
    ("copenhagen", "attackers", True), ("copenhagen", "defenders", True),  # TF-23: whoever repeats
    ("traditional", "attackers", False), ("traditional", "defenders", False),  # TF-6 draw
])
def test_the_search_scores_a_third_repetition_by_the_ruleset(
        setup: Callable[..., TaflGame], name: str, to_move: str, attackers_win: bool) -> None:
    from core.tafl.ai import MATE, _Search

    game = setup(name, "a4 k8 d11", "e5 g7", "f6", to_move)
    pos = Position.from_game(game)
    search = _Search(game, pos, deadline=float("inf"))
    search.seen[pos.hash] = 2  # this position twice before: now the third time
    score = search.rule_end(1)
    assert score is not None
    if attackers_win:
        assert score == (MATE - 1 if to_move == "attackers" else -(MATE - 1))
    else:
        assert abs(score) < MATE - 1_000


def test_the_search_scores_no_legal_move_as_the_ruleset_does(setup: Callable[..., TaflGame]) -> None:
    from core.tafl.ai import MATE, _Search

    # Brandubh: a side with no legal move draws (TF-29); traditional: it loses (TF-9).
    for name, loses in (("brandubh", False), ("traditional", True)):
        game = setup(name, "a2", "", "d4" if name == "brandubh" else "f6")
        search = _Search(game, Position.from_game(game), deadline=float("inf"))
        assert (search.stuck(3) == -(MATE - 3)) is loses
        assert search.stuck(3) == (-(MATE - 3) if loses else search.draw_score())
