"""Random play with invariants checked after every decision (cards and Insanity cards conserved,
clock monotone but for the Necronomicon and Cthugha, a legal action until the game ends, the
proven length bound of R12.6/R12.7)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rlyeh_env.engine import EndReason, GameConfig

VARIANTS = [(False, False), (True, False), (False, True), (True, True)]


@pytest.mark.parametrize("hidden,gods", VARIANTS, ids=["basic", "hidden", "gods", "hidden+gods"])
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_random_play_default_rules(eng, n, hidden, gods):
    """R12.6, R12.7, R6.0.2, R3.3, R3.6, R8.3, R2.3, R2.5, R12.3."""
    config = GameConfig(num_players=n, hidden_cultist_count=hidden, extra_gods=gods)
    for g in range(15):
        state, decisions = eng.play(config, seed=10_000 * n + 100 * VARIANTS.index((hidden, gods)) + g,
                                    bias=(0.0, 0.6, 0.95)[g % 3])
        assert state.game_over
        assert decisions <= eng.upper_bound_decisions(config)


def test_random_play_random_configs_reach_every_ending(eng):
    """R12.1, R12.2, R12.3, R12.6, R12.7, R13.4."""
    r = random.Random(2024)
    ends = Counter()
    for g in range(200):
        config = eng.random_config(r)
        state, _ = eng.play(config, seed=g, bias=(0.0, 0.6, 0.95)[g % 3])
        ends[state.end_reason] += 1
    assert set(ends) == {EndReason.FOUR_SIGILS, EndReason.MIDNIGHT, EndReason.NECRONOMICON}, ends


def _chunk(eng, chunk: int, games: int) -> Counter:
    r = random.Random(chunk)
    ends = Counter()
    for g in range(games):
        config = eng.random_config(r, 4 + g % 5)
        state, _ = eng.play(config, seed=chunk * 1_000_003 + g, bias=(0.0, 0.5, 0.9)[g % 3])
        ends[state.end_reason] += 1
    return ends


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_random_play_20000_games(eng, chunk):
    """R12.6, R12.7, R6.0.2, R3.3, R8.3, R2.5, R12.3.

    20,000 games in ten chunks (so pytest-xdist can spread them)."""
    ends = _chunk(eng, 1000 + chunk, 2000)
    assert sum(ends.values()) == 2000
