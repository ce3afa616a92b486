"""Observation invariants over random games: every value in [0, 1], the state holds the truth,
masks equal the legal actions, and the env's encoder never goes stale."""

from __future__ import annotations

import random

import numpy as np
import pytest

from observation_testkit import one_hot
from rlyeh_env import raw_env
from rlyeh_env.engine import actions as A
from rlyeh_env.engine import legal_actions
from rlyeh_env.observation import TRUTH_LAYOUT, Encoder
from rlyeh_env_testkit import policy


def _random_env_games(mode, games, seed=0, **config):
    """Yield (env, state) after every step of `games` random games."""
    r = random.Random(seed)
    for g in range(games):
        e = raw_env(num_players=4 + g % 5, observation_mode=mode, **config)
        e.reset(seed=seed * 100 + g)
        yield e
        while not e.game.state.game_over:
            e.step(policy(e.game.state, e.game.legal_actions(), r))
            yield e


def _check_ranges(mode, games, skip=()):
    for e in _random_env_games(mode, games, extra_gods=True):
        layout = e.encoder.layout
        for agent in e.agents:
            obs = e.observe(agent)["observation"]
            for name, view in layout.views(obs).items():
                if name not in skip:
                    assert view.min() >= 0.0 and view.max() <= 1.0, (name, view.max())
        st = e.state()
        assert st.shape == e.state_space.shape and st.dtype == np.float32
        for name in skip:
            st[layout[name].start : layout[name].stop] = 0.0
        assert st.min() >= 0.0 and st.max() <= 1.0


@pytest.mark.parametrize("mode", ["seat", "history"])
def test_values_within_unit_interval(mode):
    _check_ranges(mode, games=15)


def test_values_within_unit_interval_long_games():
    """Games can last more than 12 rounds (Turn back time, Forbidden lore, Cthugha)."""
    for e in _random_env_games("seat", games=40, seed=1):
        for agent in e.agents:
            obs = e.observe(agent)
            assert e.observation_space(agent).contains(obs)


def test_state_contains_the_truth():
    for n in range(4, 9):
        e = raw_env(num_players=n, hidden_cultist_count=n % 2 == 0)
        e.reset(seed=n)
        for _ in range(20):
            if e.game.state.game_over:  # a random table can reach midnight early (wrong accusations)
                break
            e.step(policy(e.game.state, e.game.legal_actions(), random.Random(n)))
        st = e.state()
        assert st.shape == e.state_space.shape
        assert np.array_equal(st[: e.encoder.size], e.observe("player_0")["observation"])
        truth = TRUTH_LAYOUT.views(st[e.encoder.size :])
        state = e.game.state
        for s in range(n):
            assert np.array_equal(truth["truth.roles"][s], one_hot(2, state.players[s].role))
            assert np.allclose(truth["truth.hands"][s], np.array(state.players[s].hand) / 3)
        assert not truth["truth.roles"][n:].any()
        assert np.array_equal(truth["truth.cultist_count"], one_hot(5, state.num_cultists))


def test_masks_over_random_games():
    for e in _random_env_games("seat", games=20, seed=2):
        state = e.game.state
        if state.game_over:
            for agent in e.agents:
                assert not e.observe(agent)["action_mask"].any()
            continue
        assert e.agent_selection == f"player_{state.decider}"
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (A.NUM_ACTIONS,)
            if agent == e.agent_selection:
                assert np.flatnonzero(mask).tolist() == legal_actions(state)
            else:
                assert not mask.any()


@pytest.mark.parametrize("mode", ["seat", "history"])
def test_env_encoder_cache_matches_fresh_encoder(mode):
    """The env's encoder keeps caches across steps of one mutated State; they never go stale."""
    for e in _random_env_games(mode, games=6, seed=4, extra_gods=True):
        fresh = Encoder(e.config, mode)
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            assert np.array_equal(e.observe(agent)["observation"], fresh.observe(e.game.state, seat))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["seat", "history"])
def test_values_within_unit_interval_sweep(mode):
    _check_ranges(mode, games=150, skip={"clock.round"})
