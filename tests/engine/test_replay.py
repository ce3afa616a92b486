"""Determinism, replay, save/load, clone and State serialisation."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rlyeh_env.engine import Game, GameConfig, State, apply_action, legal_actions, new_game, replay
from rlyeh_env.engine.game import FORMAT_VERSION

CONFIGS = [
    GameConfig(num_players=4),
    GameConfig(num_players=6, hidden_cultist_count=True),
    GameConfig(num_players=8, extra_gods=True, start_hour=0, necronomicon_earliest_hour=2),
]


def _random_game(config, seed, policy_seed, max_steps=None, noise=False):
    game = Game(config, seed)
    pick = random.Random(policy_seed)
    noise_source = random.Random(policy_seed + 1)
    while not game.over and (max_steps is None or len(game.actions) < max_steps):
        if noise:  # unrelated use of the global generators must not matter
            random.random()
            np.random.random()
            random.seed(noise_source.random())
            np.random.seed(noise_source.randrange(2**32))
        game.step(pick.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("config", CONFIGS)
def test_replay_same_seed_same_actions_same_state(config):
    """Engine contract (no rule id): a game is its config, seed and actions."""
    a = _random_game(config, 11, 5)
    b = replay(config, 11, a.actions)
    assert b.state.to_dict() == a.state.to_dict()
    assert b.rng.getstate() == a.rng.getstate()


def test_replay_different_seed_different_deal():
    """R1.3, R1.7."""
    assert Game(GameConfig(), 1).state.to_dict() != Game(GameConfig(), 2).state.to_dict()


@pytest.mark.parametrize("config", CONFIGS)
def test_replay_deterministic_with_global_random_noise(config):
    """Engine contract (no rule id): only the game's own generator is used."""
    random.seed(0)
    np.random.seed(0)
    quiet = _random_game(config, 21, 8)
    noisy = _random_game(config, 21, 8, noise=True)
    assert noisy.actions == quiet.actions
    assert noisy.state.to_dict() == quiet.state.to_dict()
    # and the raw engine API, with noise between new_game / apply_action calls
    rng1, rng2 = random.Random(4), random.Random(4)
    s1 = new_game(config, rng1)
    random.random()
    np.random.random(3)
    s2 = new_game(config, rng2)
    for action in quiet.actions[:50]:
        if s1.game_over:
            break
        if action not in legal_actions(s1):
            break
        apply_action(s1, action, rng1)
        random.shuffle([1, 2, 3])
        np.random.permutation(5)
        apply_action(s2, action, rng2)
        assert s1.to_dict() == s2.to_dict()


@pytest.mark.parametrize("config", CONFIGS)
def test_replay_dict_round_trip(config):
    """Engine contract (no rule id): Game.to_dict / Game.from_dict, through JSON."""
    game = _random_game(config, 31, 9, max_steps=60)
    data = json.loads(json.dumps(game.to_dict()))
    assert data["format"] == FORMAT_VERSION and data["seed"] == 31
    assert data["actions"] == game.actions
    loaded = Game.from_dict(data)
    assert loaded.config == config and loaded.seed == 31 and loaded.actions == game.actions
    assert loaded.state.to_dict() == game.state.to_dict()
    # the loaded game continues exactly as the original
    pick1, pick2 = random.Random(3), random.Random(3)
    while not game.over:
        game.step(pick1.choice(game.legal_actions()))
        loaded.step(pick2.choice(loaded.legal_actions()))
    assert loaded.state.to_dict() == game.state.to_dict()


def test_replay_finished_game_round_trip():
    """Engine contract (no rule id): Game.to_dict / Game.from_dict."""
    game = _random_game(GameConfig(num_players=5), 41, 2)
    assert game.over
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).state.to_dict() == game.state.to_dict()


@pytest.mark.parametrize("data", ["not a dict", {"format": 999}, [1, 2]])
def test_replay_from_dict_rejects_bad_data(data):
    """Engine contract (no rule id): Game.from_dict refuses what it cannot rebuild with ValueError."""
    with pytest.raises(ValueError):
        Game.from_dict(data)


def test_replay_clone_is_independent():
    """Engine contract (no rule id): Game.clone."""
    game = _random_game(GameConfig(num_players=6, extra_gods=True), 51, 4, max_steps=40)
    before = game.state.to_dict()
    twin = game.clone()
    assert twin.state.to_dict() == before and twin.actions == game.actions
    pick = random.Random(0)
    for _ in range(30):
        if twin.over:
            break
        twin.step(pick.choice(twin.legal_actions()))
    assert game.state.to_dict() == before and len(game.actions) == 40
    # and the original, replaying the twin's choices, arrives at the same state
    for action in twin.actions[40:]:
        game.step(action)
    assert game.state.to_dict() == twin.state.to_dict()


def test_replay_state_clone_shares_nothing():
    """Engine contract (no rule id): State.clone."""
    state = new_game(GameConfig(), random.Random(1))
    copy = state.clone()
    copy.players[0].hand[0] += 5
    copy.players[0].memory.known_roles[1] = 1
    copy.deck.pop()
    copy.pending.pages.append(2)
    assert state.to_dict() != copy.to_dict()
    assert state.to_dict() == new_game(GameConfig(), random.Random(1)).to_dict()


def test_replay_state_dict_round_trip_at_every_step():
    """Engine contract (no rule id): State.to_dict / State.from_dict.

    to_dict -> JSON -> from_dict reproduces the state, in every phase, and the restored state
    plays on identically."""
    for seed, config in enumerate(CONFIGS):
        rng = random.Random(seed)
        pick = random.Random(seed + 100)
        state = new_game(config, rng)
        while not state.game_over:
            data = state.to_dict()
            restored = State.from_dict(json.loads(json.dumps(data)))
            assert restored.to_dict() == data
            action = pick.choice(legal_actions(state))
            assert legal_actions(restored) == legal_actions(state)
            twin_rng = random.Random()
            twin_rng.setstate(rng.getstate())
            apply_action(state, action, rng)
            apply_action(restored, action, twin_rng)
            assert restored.to_dict() == state.to_dict()
        final = State.from_dict(json.loads(json.dumps(state.to_dict())))
        assert final.game_over and final.winner == state.winner
