"""Tafl puzzles (core/tafl/puzzles.py): a unique forced win is found with its solution, two winning
moves make no puzzle, and the proof on the AI's board agrees with TaflGame's own play."""

from __future__ import annotations

import random

import pytest

from core.engine import RulesError
from core.tafl import TaflGame
from core.tafl.puzzles import (
    Puzzle, PuzzleError, PuzzlePlay, dump_puzzle, find_win, parse_puzzles, puzzle_of, verify,
)

# Brandubh, rows from rank 1 up. Attackers: c1-c7 takes the king on b7 against the corner.
WIN_IN_1 = "/2t4/7/4t2/4t2/4T2/1t5/1K5/"
# Defenders: b2-a2 opens two lines to corners, a7 and a1; one attacker cannot shut both.
WIN_IN_2 = "/4T2/1K2tt1/7/5t1/2t4/7/7/"
# The king on d1 with rank 1 open both ways: d1-a1 and d1-g1 both win.
TWO_WINS = "/3K3/7/7/2t4/7/1t3t1/7/"
ATTACKERS, DEFENDERS = 0, 1


def game(position: str, to_move: int) -> TaflGame:
    return TaflGame("brandubh", None, position, to_move)


def brute_wins(g: TaflGame, n: int) -> bool:
    """Whether the side to move wins within n of its moves, by TaflGame alone (clone, apply, result)."""
    me = g.to_move
    for f, t in g.legal_moves():
        after = g.clone()
        after.apply((g.geo.names[f], g.geo.names[t]))
        if after.result is not None:
            if me in after.result.winners:
                return True
            continue
        if n > 1 and all(_reply_loses(after, reply, me, n - 1) for reply in after.legal_moves()):
            return True
    return False


def _reply_loses(g: TaflGame, reply: tuple[int, int], me: int, n: int) -> bool:
    after = g.clone()
    after.apply((g.geo.names[reply[0]], g.geo.names[reply[1]]))
    if after.result is not None:
        return me in after.result.winners
    return brute_wins(after, n)


def brute_winning_moves(g: TaflGame, n: int) -> list[str]:
    out = []
    for f, t in g.legal_moves():
        after = g.clone()
        after.apply((g.geo.names[f], g.geo.names[t]))
        won = (after.result is not None and g.to_move in after.result.winners) or (
            after.result is None and n > 1
            and all(_reply_loses(after, r, g.to_move, n - 1) for r in after.legal_moves()))
        if won:
            out.append(f"{g.geo.names[f]}-{g.geo.names[t]}")
    return out


def test_a_unique_win_in_one_is_a_puzzle_with_its_solution() -> None:
    p = puzzle_of(game(WIN_IN_1, ATTACKERS))
    assert p is not None
    assert (p.moves, p.solution, p.goal) == (1, ("c1-c7",), "attackers to move and win in 1")


def test_a_unique_win_in_two_is_found_with_the_strongest_defence() -> None:
    p = puzzle_of(game(WIN_IN_2, DEFENDERS))
    assert p is not None
    assert p.moves == 2 and p.goal == "defenders to move and win in 2"
    assert p.solution[0] == "b2-a2" and len(p.solution) == 3
    g = game(WIN_IN_2, DEFENDERS)
    for move in p.solution:  # the line is legal and ends in the defenders' win, by the rules engine
        g.apply(g.parse(move))
    assert g.result is not None and g.result.winners == (DEFENDERS,)
    assert brute_winning_moves(game(WIN_IN_2, DEFENDERS), 1) == []  # no quicker win
    assert brute_winning_moves(game(WIN_IN_2, DEFENDERS), 2) == ["b2-a2"]


def test_two_winning_moves_make_no_puzzle() -> None:
    g = game(TWO_WINS, DEFENDERS)
    assert find_win(g) == (1, ["d1-a1", "d1-g1"])
    assert puzzle_of(g) is None


def test_no_win_within_the_limit_is_no_puzzle() -> None:
    assert puzzle_of(TaflGame("brandubh")) is None


def test_a_position_over_the_node_cap_is_skipped_not_judged() -> None:
    assert puzzle_of(game(WIN_IN_2, DEFENDERS), node_cap=50) is None


def test_verify_walks_the_tree_on_taflgame() -> None:
    assert verify(game(WIN_IN_2, DEFENDERS), ("b2", "a2"), 2)
    assert not verify(game(WIN_IN_2, DEFENDERS), ("b2", "b3"), 2)


def test_the_proof_agrees_with_the_rules_engine_on_random_positions() -> None:
    rnd = random.Random(31)
    free = [sq for sq in range(49) if sq not in (0, 6, 42, 48, 24)]
    checked = 0
    while checked < 60:
        squares = rnd.sample(free, 5)
        board = ["."] * 49
        board[squares[0]] = "K"
        for sq in squares[1:4]:
            board[sq] = "t"
        board[squares[4]] = "T"
        rows = ["".join(board[r * 7:r * 7 + 7]) for r in range(7)]
        position = "/" + "/".join(_compact(row) for row in rows) + "/"
        try:
            g = game(position, rnd.randint(0, 1))
        except RulesError:
            continue
        if g.result is not None:
            continue
        checked += 1
        n = 2 if checked % 3 == 0 else 1
        found = find_win(g, n)
        expected = next(((k, sorted(brute_winning_moves(g, k))) for k in range(1, n + 1) if brute_wins(g, k)), None)
        assert found == expected, position


def _compact(row: str) -> str:
    out, empty = "", 0
    for ch in row:
        if ch == ".":
            empty += 1
            continue
        out += (str(empty) if empty else "") + ch
        empty = 0
    return out + (str(empty) if empty else "")


def test_playing_a_puzzle_checks_moves_and_answers_with_the_defence() -> None:
    p = puzzle_of(game(WIN_IN_2, DEFENDERS))
    assert p is not None
    play = PuzzlePlay(p)
    assert play.hint() == "move the king on b2"
    assert play.hint() == "move the king on b2 to a2"
    wrong = play.try_move("b2-b3")
    assert not wrong.ok and "does not win in 2" in wrong.text and play.game.position() == WIN_IN_2
    assert not play.try_move("a1-a2").ok  # no piece there: the rules engine says so
    right = play.try_move("b2-a2")
    assert right.ok and right.reply == p.solution[1] and play.status() == "defenders to move and win in 1"
    last = play.try_move(p.solution[2])
    assert last.solved and play.solved


def test_the_file_format_round_trips() -> None:
    p = puzzle_of(game(WIN_IN_2, DEFENDERS))
    assert p is not None
    p = Puzzle(p.variant, p.options, p.position, p.to_move, p.moves, p.solution, "x.fief", 7)
    text = "# a comment\n" + dump_puzzle(p) + "\n\n"
    assert parse_puzzles(text.encode()) == [p]


@pytest.mark.parametrize("data, says", [
    (b"", "no puzzles"),
    (b"\xff\xfe", "not UTF-8"),
    (b"{not json", "line 1: not JSON"),
    (b"[1, 2]", "line 1: not a JSON object"),
    (b'{"format": "other"}', "not a fiefdom-tafl-puzzle line"),
    (b"[" * 100_000, "longer than"),
])
def test_a_damaged_file_is_one_line(data: bytes, says: str) -> None:
    with pytest.raises(PuzzleError, match=says) as err:
        parse_puzzles(data)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_a_hostile_puzzle_line_is_refused_in_one_line() -> None:
    p = puzzle_of(game(WIN_IN_1, ATTACKERS))
    assert p is not None
    good = dump_puzzle(p)
    for bad, says in [
        (good.replace('"brandubh"', '"nosuch"'), "line 1: "),
        (good.replace('"c1-c7"', '"c1-c2x"'), "line 1: solution"),
        (good.replace('"moves":1', '"moves":true'), "'moves'"),
        (good.replace('"to_move":"attackers"', '"to_move":"kings"'), "'to_move'"),
        (good.replace(WIN_IN_1, "/zz/"), "line 1: "),
    ]:
        with pytest.raises(PuzzleError, match=says) as err:
            parse_puzzles(bad.encode())
        assert "\n" not in str(err.value)


# Attackers to move: the king on d1 threatens to run to a1; only b2-b1 shuts the way.
SAVE_IN_1 = "/3K1t1/1t5/1t3t1/t1T1T1t/3T3/3t3/3t3/"


def test_a_save_puzzle_is_the_only_move_that_does_not_lose() -> None:
    g = game(SAVE_IN_1, ATTACKERS)
    assert puzzle_of(g) is None  # no win for the attackers
    p = puzzle_of(g, saves=True)
    assert p is not None
    assert (p.kind, p.moves, p.solution, p.goal) == ("save", 1, ("b2-b1",),
                                                      "attackers to move: only one move does not lose in 1")
    for f, t in g.legal_moves():  # by TaflGame alone: every other move lets the king out next move
        after = g.clone()
        after.apply((g.geo.names[f], g.geo.names[t]))
        assert brute_wins(after, 1) == (f"{g.geo.names[f]}-{g.geo.names[t]}" != "b2-b1")
    play = PuzzlePlay(p)
    assert play.hint() == "move the attacker on b2"
    wrong = play.try_move("f1-e1")
    assert not wrong.ok and "loses: the defenders win within 1" in wrong.text
    assert play.try_move("b2b1").solved and play.solved
    assert parse_puzzles(dump_puzzle(p).encode()) == [p]
