"""Illegal actions and bad options: clear errors by default, a lost game with
`illegal_moves_end_game=True`, ValueError naming the field for bad config values."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from rlyeh_env import IllegalActionError, env, raw_env
from rlyeh_env.engine import actions as A


def _midgame(e, steps=25, seed=0):
    pick = random.Random(seed)
    u = e.unwrapped
    for _ in range(steps):
        if u.game.over:
            break
        e.step(pick.choice(u.game.legal_actions()))
    return e


@pytest.mark.parametrize("wrapped", [True, False])
def test_illegal_action_raises_naming_the_legal_ones_and_changes_nothing(wrapped):
    for seed in range(6):
        e = env(num_players=4 + seed % 5) if wrapped else raw_env(num_players=4 + seed % 5)
        e.reset(seed=seed)
        _midgame(e, steps=10 + 7 * seed, seed=seed)
        u = e.unwrapped
        if u.game.over:
            continue
        legal = list(u.game.legal_actions())
        before = u.game.state.to_dict()
        actions_before = list(u.game.actions)
        selection = e.agent_selection
        rewards = dict(u._cumulative_rewards)
        illegal = [a for a in range(A.NUM_ACTIONS) if a not in legal]
        for action in (illegal[0], illegal[-1], np.int64(illegal[len(illegal) // 2])):
            with pytest.raises(IllegalActionError) as info:
                e.step(action)
            message = str(info.value)
            assert "legal actions:" in message and f"action {int(action)}" in message
            for a in legal:
                assert re.search(rf"\b{a} = ", message), (a, message)
            assert u.game.state.to_dict() == before
            assert u.game.actions == actions_before
            assert e.agent_selection == selection and dict(u._cumulative_rewards) == rewards
            assert not any(u.terminations.values())
        # and the game goes on with a legal action
        e.step(legal[0])
        assert len(u.game.actions) == len(actions_before) + 1


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("illegal_moves_end_game", [False, True])
def test_out_of_range_action_is_rejected(illegal_moves_end_game):
    e = env(num_players=5, illegal_moves_end_game=illegal_moves_end_game)
    e.reset(seed=1)
    before = e.unwrapped.game.state.to_dict()
    # without the option the raw env rejects it (no AssertOutOfBoundsWrapper); with it, the
    # wrapper does, before TerminateIllegalWrapper would index the mask with it
    expected = AssertionError if illegal_moves_end_game else IllegalActionError
    for action in (-1, A.NUM_ACTIONS, 1000):
        with pytest.raises(expected):
            e.step(action)
    assert e.unwrapped.game.state.to_dict() == before


@pytest.mark.parametrize("wrapped", [True, False])
def test_non_integer_actions_are_rejected_not_rounded(wrapped):
    e = env(num_players=5) if wrapped else raw_env(num_players=5)
    e.reset(seed=1)
    legal = e.unwrapped.game.legal_actions()[0]
    before = e.unwrapped.game.state.to_dict()
    for action in (legal + 0.5, float(legal), str(legal), True, None):
        with pytest.raises(IllegalActionError, match="legal actions:") as info:
            e.step(action)
        assert "(not an action id)" in str(info.value)  # not described as if it were rounded
    assert e.unwrapped.game.state.to_dict() == before
    e.step(np.int64(legal))  # numpy integers are integers, stored as plain ints
    assert e.unwrapped.game.actions == [legal] and type(e.unwrapped.game.actions[0]) is int


def test_illegal_move_ends_the_game_when_asked():
    for seed in range(4):
        e = env(num_players=5 + seed, illegal_moves_end_game=True)
        e.reset(seed=seed)
        _midgame(e, steps=15, seed=seed)
        if e.unwrapped.game.over:
            continue
        offender = e.agent_selection
        mask = e.observe(offender)["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        e.step(illegal)  # PettingZoo logs "Illegal move made" instead of raising
        u = e.unwrapped
        assert all(u.terminations.values()) or all(u.truncations.values())
        assert u.rewards[offender] == -1.0 and u._cumulative_rewards[offender] == -1.0
        assert all(u.rewards[a] == 0.0 for a in u.agents if a != offender)
        # the agents are retired one by one with None actions; the offender collects its -1
        collected = {}
        for agent in e.agent_iter():
            _, reward, term, trunc, _ = e.last()
            assert term or trunc
            collected[agent] = reward
            e.step(None)
        assert collected[offender] == -1.0 and set(collected) == set(e.possible_agents)
        assert not e.agents


def test_legal_moves_still_work_with_the_terminate_wrapper():
    e = env(num_players=6, illegal_moves_end_game=True)
    e.reset(seed=2)
    pick = random.Random(0)
    for agent in e.agent_iter(400):
        obs, _, term, trunc, _ = e.last()
        action = None if term or trunc else pick.choice(np.flatnonzero(obs["action_mask"]).tolist())
        e.step(action)
    u = e.unwrapped
    assert not any(r == -1.0 and not u.game.over for r in u.rewards.values())


BAD_CONFIG = [
    ({"num_players": 3}, "num_players"),
    ({"num_players": 9}, "num_players"),
    ({"num_players": 5, "num_cultists": 3}, "num_cultists"),
    ({"num_players": 5, "num_cultists": 0}, "num_cultists"),
    ({"hand_size": 0}, "hand_size"),
    ({"incantation_size": 13}, "incantation_size"),
    ({"incantation_threshold": 9}, "incantation_threshold"),
    ({"start_hour": 12}, "start_hour"),
    ({"start_sanity": 0}, "start_sanity"),
    ({"cards_per_sigil": 2}, "cards_per_sigil"),
    ({"sigil_reward": 2.0}, "sigil_reward"),
    ({"sigil_reward": -0.1}, "sigil_reward"),
    ({"sigil_reward": True}, "sigil_reward"),
    ({"extra_gods": "yes"}, "extra_gods"),
    ({"hidden_cultist_count": 1}, "hidden_cultist_count"),
    ({"hidden_cultist_count": True, "num_cultists": 1}, "num_cultists"),
    ({"hidden_cultist_max": 5, "num_players": 6}, "hidden_cultist_max"),
    ({"necronomicon_pages": (1, 1)}, "necronomicon_pages"),
    ({"necronomicon_pages": (0, 0, 0)}, "necronomicon_pages"),
    ({"necronomicon_offer": 11}, "necronomicon_offer"),
    ({"insanity_copies": 0}, "insanity_copies"),
    ({"num_players": 5.0}, "num_players"),
]


@pytest.mark.parametrize("kwargs,field", BAD_CONFIG, ids=[f"{f}-{i}" for i, (_, f) in enumerate(BAD_CONFIG)])
@pytest.mark.parametrize("factory", [env, raw_env], ids=["env", "raw_env"])
def test_bad_config_value_names_the_field(factory, kwargs, field):
    with pytest.raises(ValueError, match=field):
        factory(**kwargs)


def test_unknown_option_is_rejected_naming_it():
    with pytest.raises((TypeError, ValueError), match="no_such_field"):
        env(no_such_field=1)


@pytest.mark.parametrize("factory", [env, raw_env], ids=["env", "raw_env"])
def test_bad_observation_and_render_modes(factory):
    with pytest.raises(ValueError, match="observation_mode"):
        factory(observation_mode="pixels")
    with pytest.raises(ValueError, match="render_mode"):
        factory(render_mode="rgb_array")
    with pytest.raises(ValueError, match="render_mode"):
        factory(render_mode="HUMAN")
