"""`Table`, the one stepper: its reward rule, masks and encoder cache, checked on their own (the
AEC env, the arena, the terminal and the trainer all drive it; tests/training/test_table.py
compares it with the env step by step)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env.engine import GameConfig, Role, Winner
from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.table import EncoderCache, Table


@pytest.mark.parametrize("sigil_reward", [0.0, 0.25])
def test_each_step_pays_the_sigils_it_activated_and_the_result_at_the_end(sigil_reward):
    config = GameConfig(num_players=6, sigil_reward=sigil_reward)
    table, pick = Table(config, 5), random.Random(5)
    total = np.zeros(6)
    while not table.over:
        before = table.state.sigils_activated
        rewards = table.step(pick.choice(table.legal_actions()))
        expected = (table.state.sigils_activated - before) * sigil_reward
        if table.over:
            expected += 1.0 if table.state.winner == Winner.INVESTIGATORS else -1.0
        assert table.reward == expected
        signs = np.where(table.roles == Role.INVESTIGATOR, 1.0, -1.0)
        np.testing.assert_allclose(rewards, signs * expected, rtol=1e-6)
        total += rewards
    won = 1.0 if table.investigators_won else -1.0
    cultists = table.roles == Role.CULTIST
    np.testing.assert_allclose(total[~cultists], won + sigil_reward * table.state.sigils_activated, rtol=1e-5)
    np.testing.assert_allclose(total[cultists], -total[~cultists][0], rtol=1e-5)


def test_no_reward_steps_share_one_read_only_array():
    table = Table(GameConfig(num_players=5), 2)
    first = table.step(table.legal_actions()[0])
    second = table.step(table.legal_actions()[0])
    assert first is second and not first.flags.writeable and not first.any()


def test_masks_mark_the_legal_actions_of_the_decider_only():
    table = Table(GameConfig(num_players=5), 9)
    mask = table.action_mask()
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
    assert list(np.flatnonzero(mask)) == sorted(table.legal_actions())
    mask[:] = 0  # a copy: writing it changes nothing kept
    assert table.action_mask().any()
    row = np.zeros(NUM_ACTIONS, dtype=bool)
    assert table.action_mask(out=row) is row and list(np.flatnonzero(row)) == sorted(table.legal_actions())
    others = [seat for seat in range(5) if seat != table.decider]
    assert all(not table.mask_of(seat).any() for seat in others)
    np.testing.assert_array_equal(table.mask_of(table.decider), table.action_mask())


def test_an_encoder_of_another_config_is_refused():
    cache = EncoderCache()
    with pytest.raises(ValueError, match="another config"):
        Table(GameConfig(num_players=5), 1, cache.get(GameConfig(num_players=6)))


def test_the_encoder_cache_keeps_the_most_recently_used():
    cache = EncoderCache(size=2)
    four, five, six = (GameConfig(num_players=n) for n in (4, 5, 6))
    a = cache.get(four)
    assert cache.get(four) is a
    cache.get(five)
    cache.get(four)  # four is now the most recent
    cache.get(six)  # five goes
    assert cache.get(four) is a
    assert cache.get(five, "history").mode == "history"
