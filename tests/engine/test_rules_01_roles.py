"""Section 1: seats, roles and the deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rlyeh_env.engine import GameConfig, Phase, Role, new_game
from rlyeh_env.engine.cards import NUM_CHARACTERS, NUM_EQUIPMENT

EXPECTED_CULTISTS = {4: 1, 5: 1, 6: 1, 7: 1, 8: 1}  # rules version 2
EXPECTED_HIDDEN_RANGE = {n: (1, 2) for n in range(4, 9)}


def _cultists(state):
    return [s for s, p in enumerate(state.players) if p.role == Role.CULTIST]


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_r1_cultist_count_per_table_size(n):
    """R1.1, R1.2."""
    for seed in range(20):
        state = new_game(GameConfig(num_players=n), random.Random(seed))
        assert state.num_players == n
        assert len(_cultists(state)) == EXPECTED_CULTISTS[n] == state.num_cultists
        assert all(p.role in (Role.INVESTIGATOR, Role.CULTIST) for p in state.players)


@pytest.mark.parametrize("n,c", [(4, 2), (6, 1), (6, 3), (8, 4), (8, 1)])
def test_r1_explicit_cultist_count(n, c):
    """R1.2."""
    state = new_game(GameConfig(num_players=n, num_cultists=c), random.Random(3))
    assert len(_cultists(state)) == c == state.num_cultists


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_r1_hidden_cultist_count_in_default_range(n):
    """R13.1."""
    cfg = GameConfig(num_players=n, hidden_cultist_count=True)
    lo, hi = EXPECTED_HIDDEN_RANGE[n]
    assert cfg.hidden_range() == (lo, hi)
    seen = Counter()
    for seed in range(300):
        state = new_game(cfg, random.Random(seed))
        count = len(_cultists(state))
        assert count == state.num_cultists
        assert lo <= count <= hi
        seen[count] += 1
    # every count of the range is actually drawn
    assert set(seen) == set(range(lo, hi + 1))


def test_r1_hidden_cultist_count_custom_range():
    """R13.1."""
    cfg = GameConfig(num_players=8, hidden_cultist_count=True, hidden_cultist_min=2, hidden_cultist_max=3)
    counts = {new_game(cfg, random.Random(seed)).num_cultists for seed in range(200)}
    assert counts == {2, 3}


def test_r1_hidden_count_off_uses_public_count():
    """R1.2, R13.4."""
    cfg = GameConfig(num_players=8, hidden_cultist_min=1, hidden_cultist_max=4)
    assert {new_game(cfg, random.Random(seed)).num_cultists for seed in range(50)} == {EXPECTED_CULTISTS[8]}


@pytest.mark.parametrize("n", [4, 6, 8])
def test_r1_roles_independent_of_seat(n):
    """R1.3, R1.7. Each seat is a cultist with the same frequency, and being the first player (the watch
    holder) says nothing about the role."""
    games = 2000
    cfg = GameConfig(num_players=n)
    c = EXPECTED_CULTISTS[n]
    per_seat = Counter()
    watch_cultist = 0
    watch_seats = Counter()
    for seed in range(games):
        state = new_game(cfg, random.Random(seed))
        for s in _cultists(state):
            per_seat[s] += 1
        watch_seats[state.watch] += 1
        watch_cultist += state.players[state.watch].role == Role.CULTIST
    p = c / n
    sd = (games * p * (1 - p)) ** 0.5
    for seat in range(n):
        assert abs(per_seat[seat] - games * p) < 5 * sd, (seat, per_seat)
    assert abs(watch_cultist - games * p) < 5 * sd
    q = 1 / n
    sdq = (games * q * (1 - q)) ** 0.5
    for seat in range(n):
        assert abs(watch_seats[seat] - games * q) < 5 * sdq


def test_r1_roles_differ_across_seeds():
    """R1.3."""
    layouts = {tuple(_cultists(new_game(GameConfig(num_players=6), random.Random(s)))) for s in range(60)}
    assert len(layouts) > 5


def test_r1_each_player_knows_only_own_role():
    """R1.4."""
    state = new_game(GameConfig(num_players=6), random.Random(11))
    for seat, p in enumerate(state.players):
        known = p.memory.known_roles
        assert known[seat] == p.role
        assert all(k == -1 for s, k in enumerate(known) if s != seat)


@pytest.mark.parametrize("n", [4, 8])
def test_r1_deal_characters_equipment_sanity_hands(n):
    """R1.5, R1.6, R1.7, R3.3, R3.4, R11.1."""
    cfg = GameConfig(num_players=n)
    state = new_game(cfg, random.Random(5))
    chars = [p.character for p in state.players]
    items = [p.equipment for p in state.players]
    assert len(set(chars)) == n and all(0 <= c < NUM_CHARACTERS for c in chars)
    assert len(set(items)) == n and all(0 <= e < NUM_EQUIPMENT for e in items)
    for p in state.players:
        assert p.sanity == cfg.start_sanity
        assert p.hand_count == cfg.hand_size
        assert p.insanity == [] and not p.revealed and not p.equipment_used
    assert len(state.deck) == 4 * cfg.cards_per_sigil - n * cfg.hand_size
    assert state.phase == Phase.DECLARE_TARGET and state.decider == state.watch
    assert state.gods == [0, 1, 2, 3]
    assert state.round == 0 and state.target == -1 and state.activated == [False] * 4


@pytest.mark.parametrize("n", [4, 7])
def test_r1_hands_dealt_clockwise_from_watch_holder(n):
    """R1.7."""
    state = new_game(GameConfig(num_players=n), random.Random(17))
    drew = [e.actor for e in state.events if e.kind == "drew"]
    assert drew == [(state.watch + k) % n for k in range(n) for _ in range(3)]
    assert all(e.seat == e.actor for e in state.events if e.kind == "drew")  # private draws
