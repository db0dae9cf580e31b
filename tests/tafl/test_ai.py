"""The Tafl AI: its search board plays exactly TaflGame's rules, and it plays well enough."""

from __future__ import annotations

import pytest

from core.engine import Decision, Over
from core.chance import SeededChance
from core.match import Match, RandomController
from core.rng import SplitMix64
from core.tafl import TaflGame, variant
import core.tafl.ai as ai_module
from core.tafl.ai import (
    CHECK_EVERY, MATE_BOUND, Position, TaflAI, _OutOfTime, _Search, benchmark, decode, encode,
)
from core.tafl.board import ATTACKER, DEFENDER, EMPTY, KING, format_position

VARIANTS = ("traditional", "gild-9", "gild-11")


# -- the search board against TaflGame ---------------------------------------------


def random_position(name: str, rng: SplitMix64) -> str:
    """A legal, crowded position, the king often on or beside the centre and half surrounded,
    so that every capture rule (four sides, the throne, the hof, two sides) comes up."""
    v = variant(name)
    g = v.geometry
    n = g.size * g.size
    board = [EMPTY] * n
    special = {g.centre, *g.corners}
    king = (g.centre, g.neighbours[g.centre][rng.below(4)], rng.below(n))[rng.below(3)]
    while king in g.corners or g.camp_of[king]:
        king = rng.below(n)
    board[king] = KING
    sides = [sq for sq in g.neighbours[king] if sq >= 0]
    around = [sides[i] for i in rng.permutation(len(sides))][: 2 + rng.below(2)]
    for piece, squares in (
        (ATTACKER, around + [rng.below(n) for _ in range(6 + rng.below(16))]),
        (DEFENDER, [rng.below(n) for _ in range(rng.below(10))]),
    ):
        for sq in squares:
            if board[sq] == EMPTY and sq not in special and (piece == ATTACKER or not g.camp_of[sq]):
                board[sq] = piece
    return format_position(board, g.size)


def legal_set(game: TaflGame) -> set[tuple[int, int]]:
    return set(game.legal_moves())


def winner_by_move(game: TaflGame) -> int:
    """Who won on the board (king captured or cornered) after the last move; -1 if nobody."""
    result = game.result
    if result is None or result.reason not in ("the king is captured", "the king reached a corner"):
        return -1
    return result.winners[0]


def check_threat_helpers(game: TaflGame, pos: Position) -> None:
    """The one-move helpers say exactly what trying every legal move in TaflGame says."""
    capturing = set()
    wins = False
    for f, t in game.legal_moves():
        if game.captures_of(f, t):
            capturing.add(t)
        after = game.clone()
        after.apply((game.geo.names[f], game.geo.names[t]))
        wins = wins or winner_by_move(after) == game.to_move
    targets = pos.capture_squares()
    assert capturing == {t for _, t in game.legal_moves() if targets >> t & 1}
    # The search's first stage lists the capturing moves from the target squares back.
    assert sorted(pos.moves_to(targets)) == sorted(m for m in pos.moves() if targets >> (m & 255) & 1)
    assert sorted(pos.moves_to(sum(1 << sq for sq, p in enumerate(game.board) if p == EMPTY))) == sorted(pos.moves())
    if game.to_move == 0:
        assert pos.king_capture_in_one() == wins
    else:
        assert pos.king_escape_in_one() == wins


def check_may_play(game: TaflGame, pos: Position) -> None:
    """The transposition-table move check allows exactly the legal moves, for every piece of
    either side to any square on its lines."""
    legal, size = legal_set(game), game.geo.size
    for f, piece in enumerate(game.board):
        if piece:
            for t in range(len(game.board)):
                if t != f and (t // size == f // size or t % size == f % size):
                    assert pos.may_play(encode(f, t)) == ((f, t) in legal), (f, t)


def pick_move(game: TaflGame, rng: SplitMix64) -> tuple[int, int]:
    """A random move, half the time a capturing one when there is one (king captures come up more)."""
    moves = game.legal_moves()
    if rng.below(2):
        moves = [m for m in moves if game.captures_of(*m)] or moves
    return moves[rng.below(len(moves))]


def play_both(game: TaflGame, rng: SplitMix64, plies: int, check_helpers: int = 0) -> None:
    """Random moves on TaflGame and the search board side by side, then unmake them all.

    The one-move helpers are checked in the first ``check_helpers`` positions.
    """
    pos = Position.from_game(game)
    start_board, start_hash = pos.board[:], pos.hash
    for ply in range(plies):
        if game.result is not None:
            break
        assert {decode(m) for m in pos.moves()} == legal_set(game)
        if ply < check_helpers:
            check_threat_helpers(game, pos)
            check_may_play(game, pos)
        f, t = pick_move(game, rng)
        game.apply((game.geo.names[f], game.geo.names[t]))
        pos.make(encode(f, t))
        assert pos.board == game.board
        assert pos.side == game.to_move and pos.quiet == game.quiet
        assert pos.winner == winner_by_move(game)
        assert pos.hash == Position.from_game(game).hash
        if game.result is not None and pos.winner < 0:
            # TaflGame ended it another way: no legal move, repetition or the quiet-move draw.
            assert not pos.moves() or game.result.winners == () or game.opts["repetition"] == "loss"
    while pos.stack:
        pos.unmake()
    assert pos.board == start_board and pos.hash == start_hash


@pytest.mark.parametrize("name", VARIANTS)
def test_search_board_matches_rules_from_the_start(name: str) -> None:
    rng = SplitMix64(11)
    for _ in range(3):
        play_both(TaflGame(name), rng, plies=250)


@pytest.mark.parametrize("name", VARIANTS)
def test_search_board_matches_rules_in_random_positions(name: str) -> None:
    rng = SplitMix64(29)
    for i in range(120):
        options = {"throne_counts_for_king": i % 2 == 0} if name == "traditional" else {}
        to_move = min(rng.below(3), 1)  # attackers two times in three: king captures come up
        game = TaflGame(name, options, random_position(name, rng), to_move=to_move)
        play_both(game, rng, plies=10, check_helpers=2)


def test_the_attackers_relevant_squares_are_the_kings_lines_routes_ring_and_the_guards() -> None:
    # King e5 (traditional): he moves along rank 5 and the e-file; from e1 and from a5 (and k5) a
    # corner or the square beside it is in sight, so those lines are where a block must go.
    game = TaflGame("traditional", position="/11/11/11/11/4K6/11/11/11/11/11/11/", to_move=0)
    pos = Position.from_game(game)
    relevant = {game.geo.names[sq] for sq in range(pos.tab.n) if pos.attacker_relevant() >> sq & 1}
    assert {"e4", "e1", "a5", "k5", "e11", "d5", "f5", "e6"} <= relevant  # his moves and his ring
    assert {"b1", "c1", "d1", "a2", "a3", "a4"} <= relevant  # the open lines from e1 and a5 to goals
    assert {"b2", "j10", "b3", "c2"} <= relevant  # the corner guards (W_GUARD_*)
    assert not {"c7", "h3", "g9", "d3"} & relevant  # off every line of his


@pytest.mark.parametrize(("position", "side"), [
    ("/2T4/7/5T1/4t2/2T2t1/1t3K1/3t3/", 1),  # after f3-f4xf5 only e4-e5, off the relevant squares, holds
    ("/7/1T5/5T1/6t/4tt1/3KT2/3T1t1/", 0),  # the attackers' saving moves are off them too
])
@pytest.mark.parametrize("depth", [3, 4])
def test_the_attackers_pruning_makes_no_forced_win_or_loss_the_full_search_does_not_see(
        position: str, side: int, depth: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Brandubh positions found in review: the pruned moves are searched where all else loses, so a
    mate score comes only from the game, never from a move left out (which also stopped the deepening)."""
    def score(after: int) -> int:
        monkeypatch.setattr(ai_module, "LMP_AFTER", after)
        game = TaflGame("brandubh", position=position, to_move=side)
        return TaflAI(max_depth=depth, time_budget=600).search(game).score

    pruned, full = score(4), score(10**9)
    assert (pruned > MATE_BOUND, pruned < -MATE_BOUND) == (full > MATE_BOUND, full < -MATE_BOUND), (pruned, full)


# -- playing -----------------------------------------------------------------------


def decide(game: TaflGame, ai: TaflAI) -> tuple[str, str]:
    point = game.point()
    assert isinstance(point, Decision)
    return ai.choose(game, point)


def test_defenders_take_an_escape_in_one() -> None:
    # King a5: a1 is open; the a-file up is blocked at a8. Taking f3 (g7-g3) tempts.
    position = "/11/11/4Tt5/11/K3t6/11/6T4/t10/11/5t5/11/"
    game = TaflGame("traditional", position=position, to_move=1)
    ai = TaflAI(max_depth=3, time_budget=30)
    assert decide(game, ai) == ("a5", "a1")
    assert ai.last is not None and ai.last.score > MATE_BOUND


def test_attackers_capture_the_king_on_four_sides() -> None:
    # King e5 held by e4, d5, f5; e9-e6 closes the fourth side (trad play.5).
    position = "/11/11/11/4t6/3tKt5/11/1T9/11/4t6/11/11/"
    game = TaflGame("traditional", position=position, to_move=0)
    assert decide(game, TaflAI(max_depth=2, time_budget=30)) == ("e9", "e6")


def test_attackers_capture_the_king_between_two_off_the_hof() -> None:
    # Gild 9x9: king c3 beside b3; d7-d3 closes the line (gild CAPTURE, TF-13).
    position = "/9/9/1tK6/9/9/9/3t5/7T1/9/"
    game = TaflGame("gild-9", position=position, to_move=0)
    assert decide(game, TaflAI(max_depth=2, time_budget=30)) == ("d7", "d3")


def test_attackers_block_a_one_move_escape() -> None:
    # King a4 sees a1; the only defence is c3-a3, into the line.
    position = "/11/11/2t8/K10/11/11/t10/11/5t5/3T7/11/"
    game = TaflGame("traditional", position=position, to_move=0)
    game.apply(decide(game, TaflAI(max_depth=2, time_budget=30)))
    names = game.geo.names
    for f, t in game.legal_moves():
        reply = game.clone()
        reply.apply((names[f], names[t]))
        assert reply.result is None or reply.result.winners != (1,)


@pytest.mark.parametrize(("rule", "expected"), [("draw", ("e5", "e6")), ("loss", ("e5", "f5"))])
def test_repetition_is_seen_in_the_search(rule: str, expected: tuple[str, str]) -> None:
    # The lone king shuffles e6-e5 while c2-c3 shuffles. Now Ke5-e6 would make the
    # position for the third time (TF-6); Ke5-f5 loses to d5-e5 (three attackers
    # and the throne). Under "draw" the king takes the draw; under "loss" that
    # move loses at once, so he prefers the slower loss.
    game = TaflGame("traditional", {"repetition": rule}, "/11/2t8/11/4tt5/3t2t4/4K6/4t6/11/11/11/11/", 0)
    for move in ("c2-c3", "Ke6-e5", "c3-c2", "Ke5-e6", "c2-c3", "Ke6-e5", "c3-c2"):
        game.apply(game.parse(move))
    assert sorted(game.point().options) == [("e5", "e6"), ("e5", "f5")]
    assert decide(game, TaflAI(max_depth=3, time_budget=30)) == expected


def test_no_time_still_completes_depth_one() -> None:
    info = TaflAI(time_budget=0.0).search(TaflGame("traditional"))
    assert info.depth == 1 and info.move is not None


@pytest.mark.parametrize("name", VARIANTS)
def test_depth_limited_search_is_deterministic(name: str) -> None:
    game = TaflGame(name)
    first = TaflAI(max_depth=2, time_budget=60, seed=5).search(game)
    again = TaflAI(max_depth=2, time_budget=60, seed=5)
    for _ in range(2):  # a fresh controller and a reused one agree
        info = again.search(game)
        assert (info.move, info.score, info.depth, info.nodes) == (first.move, first.score, 2, first.nodes)


def test_a_finished_game_or_a_single_move_returns_at_once() -> None:
    over = TaflGame("gild-9", position="/9/9/1tK6/9/9/9/3t5/7T1/9/", to_move=0)
    over.apply(("d7", "d3"))
    assert isinstance(over.point(), Over)
    assert TaflAI().search(over).move is None
    # The king on f1 is walled in; the defender a2 can only go to b2 (a1 is a corner, a3 is held).
    single = TaflGame("traditional", position="/4tKt4/T1t2t5/t10/11/11/11/11/11/11/11/11/", to_move=1)
    assert single.legal_moves() == [(11, 12)]
    info = TaflAI(max_depth=5).search(single)
    assert info.move == ("a2", "b2") and info.nodes == 0


def play_match(name: str, ai_seat: int, seed: int) -> tuple[int, ...]:
    """A short game through the match driver: the AI (depth 2) against a random mover."""
    controllers = {ai_seat: TaflAI(max_depth=2, time_budget=60, seed=seed), 1 - ai_seat: RandomController(seed)}
    result = Match(TaflGame(name), controllers, SeededChance(seed)).run(max_steps=120)
    return result.winners if result else ()


def test_beats_a_random_mover() -> None:
    games = [(name, seat) for name in ("gild-9", "traditional") for seat in (0, 1)]
    results = [play_match(name, seat, seed) for seed, (name, seat) in enumerate(games, start=1)]
    wins = sum(winners == (seat,) for winners, (_, seat) in zip(results, games))
    assert wins >= 3, results


def test_benchmark_reports_a_search() -> None:
    report = benchmark("gild-9", 0.05)
    assert report["depth"] >= 1 and report["nodes"] > 0


def test_stop_ends_the_search_after_the_first_depth() -> None:
    # A player quitting mid-search: past depth 1 the AI stops at the next clock check.
    game = TaflGame("traditional")
    info = TaflAI(time_budget=60.0, stop=lambda: True).search(game)
    assert info.nodes <= 2 * CHECK_EVERY
    assert info.move in game.point().options


# -- analysis: the best few moves, each with its line --------------------------------------------


def play_line(game: TaflGame, moves: tuple[tuple[str, str], ...]) -> TaflGame:
    """The game after ``moves``, each checked legal by the rules as it is played."""
    game = game.clone()
    for move in moves:
        assert game.result is None and move in game.point().options, (move, game.position())
        game.apply(move)
    return game


@pytest.mark.parametrize("name", VARIANTS)
def test_analysis_gives_distinct_legal_lines_best_first(name: str) -> None:
    game = TaflGame(name)
    lines = TaflAI(max_depth=3, time_budget=60, seed=2).analyse(game, 4)
    assert len(lines) == 4
    assert len({line.moves[0] for line in lines}) == 4
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    for line in lines:
        assert 1 <= len(line.moves) <= 3
        play_line(game, line.moves)


def test_analysis_scores_are_those_of_every_move_ranked() -> None:
    # The later moves are tried on a null window against the n-th best: the scores it keeps must be
    # the same best n that scoring every move exactly gives.
    game = TaflGame("gild-9")
    rng = SplitMix64(7)
    for _ in range(8):  # a middle game: eight random moves in
        moves = game.legal_moves()
        f, t = moves[rng.below(len(moves))]
        game.apply((game.geo.names[f], game.geo.names[t]))
    assert game.result is None
    every = TaflAI(max_depth=2, time_budget=60, seed=3).analyse(game, len(game.legal_moves()))
    assert len(every) == len(game.legal_moves())
    best = TaflAI(max_depth=2, time_budget=60, seed=3).analyse(game, 3)
    assert [line.score for line in best] == [line.score for line in every[:3]]


def test_analysis_finds_the_escape_and_stops_at_the_end_of_the_game() -> None:
    position = "/11/11/4Tt5/11/K3t6/11/6T4/t10/11/5t5/11/"  # as test_defenders_take_an_escape_in_one
    game = TaflGame("traditional", position=position, to_move=1)
    lines = TaflAI(max_depth=3, time_budget=30).analyse(game, 2)
    assert lines[0].moves == (("a5", "a1"),) and lines[0].score > MATE_BOUND
    assert len(lines) == 2 and lines[1].score < lines[0].score


def test_analysis_of_a_finished_game_is_empty_and_a_clock_stop_still_answers() -> None:
    over = TaflGame("gild-9", position="/9/9/1tK6/9/9/9/3t5/7T1/9/", to_move=0)
    over.apply(("d7", "d3"))
    assert TaflAI().analyse(over, 3) == []
    game = TaflGame("traditional")
    lines = TaflAI(time_budget=60.0, stop=lambda: True).analyse(game, 3)  # stopped after depth 1
    assert len(lines) == 3
    for line in lines:
        play_line(game, line.moves)


def test_analysis_lines_are_those_of_the_depth_their_scores_come_from(monkeypatch: pytest.MonkeyPatch) -> None:
    """A depth the clock stops has written over the table: the lines are still the last whole depth's,
    read before it, as a search to that depth alone gives them."""
    game = TaflGame("brandubh")
    want = TaflAI(max_depth=3, time_budget=60, seed=5).analyse(game, 3)
    real = _Search.root_lines

    def stopped_at_four(search: _Search, depth: int, moves: list[int], count: int) -> list[tuple[int, int]]:
        found = real(search, depth, moves, count)  # depth 4 fills the table, then the clock runs out
        if depth == 4:
            raise _OutOfTime
        return found

    monkeypatch.setattr(_Search, "root_lines", stopped_at_four)
    got = TaflAI(max_depth=5, time_budget=60, seed=5).analyse(game, 3)
    assert got == want
    monkeypatch.undo()
    deeper = TaflAI(max_depth=4, time_budget=60, seed=5).analyse(game, 3)
    assert [line.moves for line in deeper] != [line.moves for line in want]  # else the test shows nothing
