"""`rlyeh_env.table.Table` against the AEC env: over whole games with random legal actions, the same
decider, observations of every seat at every step, decider's mask, per-step per-seat rewards, end
of game and truth vector, with and without sigil shaping, at several table sizes and variants."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env import raw_env
from rlyeh_env.engine import GameConfig, Role, Winner
from rlyeh_env.engine import actions as A
from rlyeh_env.observation import IncrementalEncoder
from rlyeh_env.table import Table
from training_testkit import EASY_RULES


def _choose(legal: list[int], pick: random.Random, calm: bool) -> int:
    """Uniform over legal actions; `calm` mostly avoids accusations and curses so games last."""
    if calm:
        quiet = [a for a in legal if not A.ACCUSE <= a < A.CURSE + A.MAX_OFFSET]
        if quiet and pick.random() < 0.9:
            return pick.choice(quiet)
    return pick.choice(legal)


def _compare_game(num_players: int, seed: int, sigil_reward: float, calm: bool, **rules) -> dict:
    """Play one game on both, step by step, asserting they agree; returns a few facts about it."""
    aec = raw_env(num_players=num_players, sigil_reward=sigil_reward, **rules)
    aec.reset(seed=seed)
    game_seed = random.Random(seed).getrandbits(63)
    assert aec.game.seed == game_seed
    table = Table(GameConfig(num_players=num_players, sigil_reward=sigil_reward, **rules), game_seed)
    assert table.config == aec.config and table.num_players == num_players
    pick = random.Random(seed * 31 + num_players)
    totals = np.zeros(num_players)
    shaped_steps = steps = 0
    while True:
        seat = table.decider
        row = np.full(len(aec.observe(aec.possible_agents[0])["observation"]), np.nan, dtype=np.float32)
        for s, agent in enumerate(aec.possible_agents):
            np.testing.assert_array_equal(table.observation(s), aec.observe(agent)["observation"], err_msg=f"seat {s}")
            assert table.observation(s, out=row) is row  # the batched form: into a row of the batch
            np.testing.assert_array_equal(row, aec.observe(agent)["observation"], err_msg=f"seat {s}, into a row")
        if table.over:
            break
        assert aec.agent_selection == f"player_{seat}"
        mask = table.action_mask()
        assert mask.dtype == np.int8
        np.testing.assert_array_equal(mask, aec.action_mask(aec.agent_selection))
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(table.legal_actions())
        row_mask = np.zeros(len(mask), dtype=bool)
        assert table.action_mask(out=row_mask) is row_mask  # the batched form: a zeroed row of the batch
        np.testing.assert_array_equal(row_mask, mask.astype(bool))
        np.testing.assert_array_equal(table.truth(0), aec.state())

        action = _choose(table.legal_actions(), pick, calm)
        rewards = table.step(action)
        aec.step(action)
        steps += 1
        assert rewards.dtype == np.float32 and rewards.shape == (num_players,)
        assert rewards.any() or not rewards.flags.writeable  # the shared no-reward answer cannot be changed
        expected = np.array([aec.rewards[a] for a in aec.possible_agents], dtype=np.float32)
        np.testing.assert_array_equal(rewards, expected, err_msg=f"step {steps}")
        totals += rewards
        if rewards.any() and not table.over:
            shaped_steps += 1
        assert table.over == all(aec.terminations.values())
    assert table.investigators_won == (aec.game.state.winner == Winner.INVESTIGATORS)
    assert list(table.game.actions) == list(aec.game.actions)
    # over the game each seat got its team's +-1 and the shaping of every activated sigil
    outcome = 1.0 if table.investigators_won else -1.0
    team = np.where(table.roles == Role.INVESTIGATOR, 1.0, -1.0)
    np.testing.assert_allclose(totals, team * (outcome + sigil_reward * table.state.sigils_activated), rtol=1e-6)
    return {"shaped_steps": shaped_steps, "steps": steps}


@pytest.mark.parametrize("num_players", [4, 5, 6, 8])
@pytest.mark.parametrize("sigil_reward", [0.0, 0.1])
def test_table_matches_aec_env(num_players, sigil_reward):
    """Default rules and the easy rules (sigils get activated), uniform and calm random play."""
    facts = []
    for seed in range(3):
        facts.append(_compare_game(num_players, seed, sigil_reward, calm=seed % 2 == 0))
        facts.append(_compare_game(num_players, 100 + seed, sigil_reward, calm=seed % 2 == 1, **EASY_RULES))
    shaped = sum(f["shaped_steps"] for f in facts)
    if sigil_reward:
        assert shaped > 0, "some sigil shaping was paid before the end (the comparison covered it)"
    else:
        assert shaped == 0


@pytest.mark.parametrize("rules", [{"extra_gods": True}, {"hidden_cultist_count": True}], ids=["extra_gods", "hidden"])
def test_table_matches_aec_env_in_variants(rules):
    """The variants change what is shown (gods, cultist count): still identical."""
    for seed, n in enumerate((4, 7)):
        _compare_game(n, seed, 0.25, calm=True, **rules, **EASY_RULES)


def test_table_rejects_an_encoder_of_another_config():
    """A shared encoder must be built for the table's own config."""
    encoder = IncrementalEncoder(GameConfig(num_players=5))
    with pytest.raises(ValueError, match="another config"):
        Table(GameConfig(num_players=6), 1, encoder)
    Table(GameConfig(num_players=5), 1, encoder)  # the right one is accepted


def test_tables_sharing_an_encoder_one_after_another():
    """The collector reuses one encoder per slot for game after game: observations stay exact."""
    config = GameConfig(num_players=5, sigil_reward=0.1, **EASY_RULES)
    encoder = IncrementalEncoder(config)
    for seed in range(3):
        shared, fresh = Table(config, seed, encoder), Table(config, seed)
        pick = random.Random(seed)
        while not shared.over:
            seat = shared.decider
            np.testing.assert_array_equal(shared.observation(seat), fresh.observation(seat))
            action = pick.choice(shared.legal_actions())
            np.testing.assert_array_equal(shared.step(action), fresh.step(action))
