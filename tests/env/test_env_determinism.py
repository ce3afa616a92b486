"""Determinism: the env uses only its own generators; games save, load and replay exactly."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rlyeh_env import env, raw_env
from rlyeh_env.engine import Game, State
from rlyeh_env.engine.game import replay


def _trajectory(e, actions_seed: int, noise: int | None, steps: int = 400):
    """Play with actions picked by a private generator; touch the global generators in between
    (`noise` seeds them differently for each run). Returns everything the agents saw."""
    pick = random.Random(actions_seed)
    out = []
    for i, agent in enumerate(e.agent_iter(steps)):
        if noise is not None:
            random.seed(noise * 1000 + i)
            np.random.seed(noise * 1000 + i)
            random.random(), np.random.random(), random.getrandbits(64)
        obs, reward, term, trunc, info = e.last()
        out.append((agent, obs["observation"].copy(), obs["action_mask"].copy(), reward, term, trunc))
        if term or trunc:
            action = None
        else:
            action = pick.choice(np.flatnonzero(obs["action_mask"]).tolist())
        e.step(action)
    return out


def _same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x[0] == y[0] and x[3:] == y[3:]
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])


@pytest.mark.parametrize("kwargs", [{"num_players": 5}, {"num_players": 8, "observation_mode": "history",
                                                          "extra_gods": True, "hidden_cultist_count": True}])
def test_same_seed_same_actions_same_game_despite_global_random(kwargs):
    runs = []
    for noise in (1, 2, None):
        e = env(**kwargs)
        e.reset(seed=123)
        runs.append(_trajectory(e, actions_seed=9, noise=noise))
    _same(runs[0], runs[1])
    _same(runs[0], runs[2])
    assert any(x[4] for x in runs[0]), "the game reached its end"


def test_interleaved_envs_stay_in_lockstep():
    e1, e2 = env(num_players=6), env(num_players=6)
    e1.reset(seed=5)
    random.random()
    np.random.random()
    e2.reset(seed=5)
    pick = random.Random(0)
    for _ in range(300):
        if e1.unwrapped.game.over:
            break
        assert e1.agent_selection == e2.agent_selection
        o1, r1, t1, _, _ = e1.last()
        o2, r2, t2, _, _ = e2.last()
        assert np.array_equal(o1["observation"], o2["observation"]) and r1 == r2 and t1 == t2
        action = pick.choice(np.flatnonzero(o1["action_mask"]).tolist())
        e1.step(action)
        random.seed(pick.random())
        np.random.random(size=3)
        e2.step(action)
    assert e1.unwrapped.game.state.to_dict() == e2.unwrapped.game.state.to_dict()


def test_different_seeds_deal_different_games():
    deals = set()
    for seed in range(5):
        e = raw_env(num_players=5)
        e.reset(seed=seed)
        deals.add(json.dumps(e.game.state.to_dict()["players"]))
    assert len(deals) == 5


def test_save_load_reproduces_the_state():
    for n, extra in ((4, {}), (7, {"extra_gods": True, "hidden_cultist_count": True, "sigil_reward": 0.25})):
        e = raw_env(num_players=n, **extra)
        e.reset(seed=n)
        pick = random.Random(n)
        for _ in range(150):
            if e.game.over:
                break
            e.step(pick.choice(e.game.legal_actions()))
        loaded = Game.from_dict(json.loads(json.dumps(e.game.to_dict())))
        assert loaded.state.to_dict() == e.game.state.to_dict()
        assert loaded.actions == e.game.actions and loaded.seed == e.game.seed and loaded.config == e.config
        assert replay(e.config, e.game.seed, e.game.actions).state.to_dict() == e.game.state.to_dict()
        # the generator is restored too: the loaded game continues exactly like the original
        if not e.game.over:
            action = e.game.legal_actions()[0]
            e.game.step(action)
            loaded.step(action)
            assert loaded.state.to_dict() == e.game.state.to_dict()
        data = e.game.state.to_dict()
        assert State.from_dict(json.loads(json.dumps(data))).to_dict() == data


def test_load_rejects_garbage():
    with pytest.raises(ValueError, match="format"):
        Game.from_dict({"format": 999})
    with pytest.raises(ValueError, match="format"):
        Game.from_dict(["not", "a", "game"])


def test_reset_without_seed_continues_deterministically():
    a, b = raw_env(num_players=5), raw_env(num_players=5)
    a.reset(seed=42)
    b.reset(seed=42)
    assert a.game.seed == b.game.seed
    # play a few steps in one of them only: the next unseeded deal must not depend on play
    pick = random.Random(1)
    for _ in range(10):
        b.step(pick.choice(b.game.legal_actions()))
    random.random()
    seeds_a, seeds_b = [], []
    for _ in range(3):
        a.reset()
        b.reset()
        seeds_a.append(a.game.seed)
        seeds_b.append(b.game.seed)
        assert a.game.state.to_dict() == b.game.state.to_dict()
        for agent in a.agents:
            assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
    assert seeds_a == seeds_b and len(set(seeds_a)) == 3, "successive unseeded resets deal new games"


def test_clone_is_independent():
    e = raw_env(num_players=5)
    e.reset(seed=8)
    clone = e.game.clone()
    before = clone.state.to_dict()
    pick = random.Random(2)
    for _ in range(20):
        if e.game.over:
            break
        e.step(pick.choice(e.game.legal_actions()))
    assert clone.state.to_dict() == before


def test_pickled_env_replays_the_same_game():
    import pickle

    e = raw_env(num_players=7, observation_mode="history", extra_gods=True, sigil_reward=0.5)
    copy = pickle.loads(pickle.dumps(e))
    assert copy.config == e.config and copy.encoder.mode == "history"
    e.reset(seed=11)
    copy.reset(seed=11)
    for agent in e.possible_agents:
        assert np.array_equal(e.observe(agent)["observation"], copy.observe(agent)["observation"])
