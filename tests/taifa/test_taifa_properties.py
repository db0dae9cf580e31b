"""Properties of whole Taifa games, over thousands of seeded games (standard and El Cid).

After every step: every card of the decks in play is in exactly one place,
no kingdom holds more than 13 castles, every Card Bonus is in -2..+2, a
garrison stands only on an owned or independent area in play (one at most: a
bool), and the game ends within a bounded number of steps. A sample of the
games is also written through the journal: its record replays to the same
canonical state (hence digest) at every step and verifies. Games with random movers in the
players' seats keep the same invariants, and ``clone()`` is exact and
independent at random points.

Deterministic loops over seeds (a failure names its seed and step); the
sizes are chosen to keep the whole file near a minute on one core.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from core.chance import SeededChance, draw
from core.digest import digest
from core.engine import Chance, Decision, Over, Result
from core.match import Match, RandomController, Step
from core.rng import SplitMix64
from core.taifa.data import packaged_cards
from core.taifa.game import TaifaGame
from core.taifa.state import BONUS_MAX, BONUS_MIN, CASTLES, INDEPENDENT, OUT_OF_PLAY, TURNS
from notation.apply import apply_step
from notation.catalog import build_game, new_header
from notation.format import STEP_TYPES, Seat
from notation.reader import read_record_file
from notation.replay import Replay
from notation.writer import Journal

VARIANTS = ("standard", "el-cid")
BOT_GAMES = 1000  # per scenario, all seats rulebook bots
CHUNKS = 4  # BOT_GAMES are split so the two test workers share them
MIXED_GAMES = 120  # per scenario, random movers in some seats
RECORDED = 50  # per scenario: written, replayed step by step, verified
MAX_STEPS = 5000  # no game comes near: bots play ~80-220 steps, random movers a few hundred


@lru_cache(maxsize=None)
def deck_cards(decks: tuple[str, ...]) -> list[str]:
    """Every card id of the decks a game uses, once each, sorted."""
    cards = packaged_cards()
    return sorted(c.id for d in set(decks) for c in cards.deck(d))


def check_table(g: TaifaGame, where: str) -> None:
    s = g.s
    placed = sorted(s.all_cards())
    expected = deck_cards(s.decks)
    if placed != expected:
        have, want = Counter(placed), Counter(expected)
        twice = sorted(c for c, n in have.items() if n > 1)
        raise AssertionError(f"{where}: cards twice {twice}, lost {sorted(want - have)}, "
                             f"not of these decks {sorted(have - want)}")
    n = len(s.kingdoms)
    castles = Counter(s.owner)
    assert max(castles[k] for k in range(n)) <= CASTLES, f"{where}: castles {[castles[k] for k in range(n)]}"
    assert BONUS_MIN <= min(s.bonus) and max(s.bonus) <= BONUS_MAX, f"{where}: Card Bonuses {s.bonus}"
    assert min(s.owner) >= OUT_OF_PLAY and max(s.owner) < n, f"{where}: owners {s.owner}"
    assert len(s.garrison) == len(s.owner) and set(map(type, s.garrison)) == {bool}, f"{where}: {s.garrison}"
    for a, garrison in enumerate(s.garrison):
        if garrison:  # one at most per area (a bool), only on an area in play, owned or independent
            assert a and s.owner[a] >= INDEPENDENT, f"{where}: a garrison on area {a}, which is out of play"
    assert 0 <= s.turn <= TURNS, f"{where}: turn {s.turn}"


def check_result(g: TaifaGame, result: Result, where: str) -> None:
    n = len(g.s.kingdoms)
    assert result.winners and all(0 <= w < n for w in result.winners), f"{where}: winners {result.winners}"
    assert result.reason and result.rule, where
    assert result.scores == tuple(g.s.castles(k) for k in range(n)), where
    if any(c == CASTLES for c in result.scores):
        assert result.winners == (result.scores.index(CASTLES),), f"{where}: 13 castles win at once (8)"
    elif g.variant == "standard":
        best = max(result.scores)
        assert all(result.scores[w] == best for w in result.winners), f"{where}: a winner without the most castles"


class Checker:
    """A match sink: the invariants after every step, and a clone checked at random steps."""

    def __init__(self, label: str, clone_every: int = 0, seed: int = 0) -> None:
        self.label = label
        self.clone_every = clone_every
        self.rng = SplitMix64(seed)
        self.states: list[str] = []

    def start(self, g: TaifaGame, record_states: bool = False) -> None:
        check_table(g, f"{self.label} at the start")
        self.record = record_states
        if record_states:
            self.states = [state_key(g)]

    def __call__(self, step: Step, g: TaifaGame) -> None:  # type: ignore[override]
        where = f"{self.label}, step {step.index}"
        check_table(g, where)
        assert step.index < MAX_STEPS, f"{where}: the game has not ended"
        if self.record:
            self.states.append(state_key(g))
        if self.clone_every and self.rng.below(self.clone_every) == 0:
            check_clone(g, where, self.rng)


def check_clone(g: TaifaGame, where: str, rng: SplitMix64) -> None:
    """A clone has the same digest, the same live table and the same question; playing it on
    leaves the original untouched, and the original played the same way lands on the same digest."""
    before = digest(g)
    c = g.clone()
    assert digest(c) == before, f"{where}: the clone's digest differs"
    assert c.s.canonical() == g.s.canonical(), f"{where}: the clone's table differs from the game's"
    assert c.point() == g.point(), f"{where}: the clone asks another question"
    twin = g.clone()
    seed = rng.next()
    for copy in (c, twin):
        advance(copy, seed, steps=3)
    assert digest(g) == before, f"{where}: playing the clone changed the game"
    assert digest(c) == digest(twin), f"{where}: two clones played alike differ"


def advance(g: TaifaGame, seed: int, steps: int) -> None:
    rng = SplitMix64(seed)
    for _ in range(steps):
        p = g.point()
        if isinstance(p, Over):
            return
        if isinstance(p, Chance):
            g.resolve(draw(rng, p))
        else:
            assert isinstance(p, Decision)
            g.apply(p.options[rng.below(len(p.options))])


def play(variant: str, seed: int, random_seats: frozenset[int] = frozenset(), *, clone_every: int = 0,
         path: Path | None = None) -> TaifaGame:
    """One seeded game; ``random_seats`` are played by random movers, the rest by the rulebook bots.
    With ``path`` the game is journaled there and its states kept in the returned game's ``checker``."""
    keys = TaifaGame(variant).s.kingdoms
    bots = [k for i, k in enumerate(keys) if i not in random_seats]
    g = TaifaGame(variant, None, bots)
    label = f"{variant} seed {seed}" + (f" random seats {sorted(random_seats)}" if random_seats else "")
    checker = Checker(label, clone_every, seed)
    checker.start(g, record_states=path is not None)
    sinks: list = []
    journal = None
    if path is not None:
        seats = [Seat(name, "random" if i in random_seats else "bot") for i, name in enumerate(g.seats)]
        header = new_header("taifa", variant, seats, chance="seeded", seed=seed, options=dict(g.opts),
                            setup={"bots": bots}, app="fiefdom test", created="2025-01-31T12:34:56Z")
        journal = Journal.create(path, header, game=g)
        sinks.append(journal)
    sinks.append(checker)
    controllers = {i: RandomController(seed * 16 + i) for i in random_seats}
    match = Match(g, controllers, SeededChance(seed), sinks)
    result = match.run(max_steps=MAX_STEPS)
    assert result is not None, f"{label}: no result after {MAX_STEPS} steps"
    check_result(g, result, label)
    if journal is not None:
        journal.finish(result, g)
        journal.close()
    g.checker = checker  # type: ignore[attr-defined]
    return g


@pytest.mark.parametrize("variant, chunk", [(v, c) for v in VARIANTS for c in range(CHUNKS)])
def test_bot_games_keep_every_invariant(variant: str, chunk: int) -> None:
    size = BOT_GAMES // CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        play(variant, seed, clone_every=40 if seed % 10 == 0 else 0)


@pytest.mark.parametrize("variant, chunk", [(v, c) for v in VARIANTS for c in range(2)])
def test_games_with_random_movers_keep_every_invariant(variant: str, chunk: int) -> None:
    n = len(TaifaGame(variant).seats)
    size = MIXED_GAMES // 2
    for seed in range(10_000 + chunk * size, 10_000 + (chunk + 1) * size):
        rng = SplitMix64(seed)
        seats = frozenset(i for i in range(n) if rng.below(2)) or frozenset({rng.below(n)})
        play(variant, seed, seats, clone_every=25)


@pytest.mark.parametrize("variant", VARIANTS)
def test_records_replay_to_the_same_state_at_every_step(variant: str, tmp_path: Path) -> None:
    n = len(TaifaGame(variant).seats)
    for seed in range(RECORDED):
        seats = frozenset() if seed % 2 == 0 else frozenset({seed % n})  # half all-bot, half with a player
        path = tmp_path / f"{variant}-{seed}.fief"
        g = play(variant, 20_000 + seed, seats, path=path)
        states = g.checker.states  # type: ignore[attr-defined]
        recording = read_record_file(path)
        # Building the replay verifies the record as notation.verify does, in the same walk (notation/walk.py):
        # digests at the checkpoints, seeded chance derived again, the result. Its report, not a second walk.
        replay = Replay(recording)
        report = replay.verify()
        assert report.ok and report.result == g.result, f"seed {seed}: {report.verdict}"
        game = build_game(recording.header)
        replayed = [state_key(game)]
        for record in recording.records:
            if isinstance(record, STEP_TYPES):
                apply_step(game, record)
                replayed.append(state_key(game))
        assert replayed == states, f"{variant} seed {seed}: step {_first_difference(replayed, states)} differs"
        assert digest(game) == digest(g)
        # seeking: from its keyframes, any step is the same position
        assert replay.steps == len(states) - 1 and replay.failure is None
        for step in sorted({0, replay.steps, *(SplitMix64(seed).below(replay.steps + 1) for _ in range(3))}):
            assert state_key(replay.state_at(step)) == states[step], f"{variant} seed {seed}: seeking step {step}"


def state_key(g: TaifaGame) -> str:
    """The canonical state as text: equal keys mean equal digests (the digest hashes the canonical
    state), at a quarter of the cost of hashing it at every step."""
    return repr(g.canonical())


def _first_difference(a: list[str], b: list[str]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
