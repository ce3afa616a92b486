"""`rlyeh_env.wrappers.SingleAgentEnv`: Gymnasium's checks, the mask of the learner's decision,
the team reward at the end, determinism from `reset(seed=...)`, the bots' seats, and a short
MaskablePPO run through it."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from gymnasium.utils import env_checker, passive_env_checker

from rlyeh_env import env
from rlyeh_env.bots import RandomBot
from rlyeh_env.engine import Role, Winner
from rlyeh_env.wrappers import SingleAgentEnv


def _single(learner="any", opponents="random", num_players=5, **options) -> SingleAgentEnv:
    return SingleAgentEnv(env(num_players=num_players, **options), learner=learner, opponents=opponents)


def _legal(single: SingleAgentEnv, rng) -> int:
    return int(rng.choice(np.flatnonzero(single.action_masks())))


def _state(single: SingleAgentEnv):
    return single.aec.unwrapped.game.state


def _team_reward(single: SingleAgentEnv, agent: str) -> float:
    state = _state(single)
    won = (state.players[single.aec.possible_agents.index(agent)].role == Role.INVESTIGATOR) == (
        state.winner == Winner.INVESTIGATORS
    )
    return 1.0 if won else -1.0


def _play(single: SingleAgentEnv, seed: int, games: int, noise: bool = False) -> list:
    """Every (agent, observation, mask, reward, terminated) the learner saw; with `noise`, the
    global generators are reseeded and drawn from between steps."""
    rng = np.random.default_rng(seed)
    obs, _ = single.reset(seed=seed)
    seen = [(single.agent, obs.copy(), single.action_masks().copy(), 0.0, False)]
    for game in range(games):
        terminated = False
        while not terminated:
            if noise:
                random.seed(len(seen)), np.random.seed(len(seen))
                random.random(), np.random.random()
            obs, reward, terminated, _, _ = single.step(_legal(single, rng))
            seen.append((single.agent, obs.copy(), single.action_masks().copy(), reward, terminated))
        if game + 1 < games:
            obs, _ = single.reset()
            seen.append((single.agent, obs.copy(), single.action_masks().copy(), 0.0, False))
    return seen


# -- Gymnasium's env checker ---------------------------------------------------------------------


def test_gymnasium_env_checker_passes_with_legal_actions(monkeypatch):
    """The parts of `check_env` that apply. It steps with `action_space.sample()`, uniform over all
    61 ids, and the env refuses illegal ones, so the sampler here picks among the legal actions of
    the decision at hand (and the step checks start from the state they assume)."""
    single = _single(learner="cultist", opponents="heuristic")
    rng = np.random.default_rng(0)
    monkeypatch.setattr(single.action_space, "sample", lambda mask=None: _legal(single, rng))
    passive_env_checker.check_action_space(single.action_space)
    passive_env_checker.check_observation_space(single.observation_space)
    env_checker.check_space_limit(single.action_space, "action")
    env_checker.check_space_limit(single.observation_space, "observation")
    env_checker.check_seed_deprecation(single)
    env_checker.check_reset_return_info_deprecation(single)
    env_checker.check_reset_return_type(single)
    env_checker.check_reset_seed_determinism(single)
    env_checker.check_reset_options(single)
    passive_env_checker.env_reset_passive_checker(single)
    passive_env_checker.env_step_passive_checker(single, single.action_space.sample())
    single.reset(seed=123)  # check_step_determinism samples its action before its reset(seed=123)
    env_checker.check_step_determinism(single)
    env_checker.check_returned_data_not_reused(single)


def test_spaces_are_the_aec_envs_observation_vector_and_actions():
    aec = env(num_players=6, observation_mode="history")
    single = SingleAgentEnv(aec, learner=2, opponents=RandomBot)
    assert single.observation_space is aec.observation_space("player_0")["observation"]
    assert single.observation_space.shape == (4777,)
    assert single.action_space is aec.action_space("player_0")
    obs, info = single.reset(seed=0)
    assert obs in single.observation_space and info == {}


# -- what the learner sees -----------------------------------------------------------------------


@pytest.mark.parametrize("learner", [0, 3, "any", "investigator", "cultist", "every"])
def test_the_mask_is_the_legal_actions_of_the_learners_decision(learner):
    opponents = None if learner == "every" else "heuristic"
    single = _single(learner=learner, opponents=opponents)
    rng = np.random.default_rng(1)
    for seed in range(3):
        single.reset(seed=seed)
        learners, terminated = set(), False
        while not terminated:
            game = single.aec.unwrapped.game
            assert single.aec.agent_selection == single.agent
            assert single.agent == single.aec.possible_agents[game.decider]
            expected = np.zeros(single.action_space.n, dtype=np.int8)
            expected[game.legal_actions()] = 1
            assert np.array_equal(single.action_masks(), expected)
            learners.add(single.agent)
            _, _, terminated, _, _ = single.step(_legal(single, rng))
        assert not single.action_masks().any()  # the game is over
        if learner == "every":
            assert len(learners) == 5
        else:
            assert len(learners) == 1
            seat = single.aec.possible_agents.index(learners.pop())
            role = _state(single).players[seat].role
            assert learner not in (0, 3) or seat == learner
            assert learner != "cultist" or role == Role.CULTIST
            assert learner != "investigator" or role == Role.INVESTIGATOR


@pytest.mark.parametrize("learner", [1, "any", "investigator", "cultist"])
def test_episodes_end_with_the_learners_team_reward(learner):
    single = _single(learner=learner, opponents=RandomBot)
    rng = np.random.default_rng(2)
    outcomes = set()
    for seed in range(8):
        single.reset(seed=seed)
        terminated = False
        while not terminated:
            agent = single.agent
            _, reward, terminated, truncated, _ = single.step(_legal(single, rng))
            assert not truncated
            assert reward == (_team_reward(single, agent) if terminated else 0.0)
        outcomes.add(reward)
    assert learner in ("investigator", "cultist") or outcomes == {-1.0, 1.0}


def test_self_play_pays_each_step_to_the_seat_that_just_acted():
    """learner="every", as in PettingZoo's SB3 tutorial (what scripts/benchmark_training.py measures)."""
    single = _single(learner="every", opponents=None)
    rng = np.random.default_rng(3)
    single.reset(seed=4)
    terminated = False
    while not terminated:
        acting = single.agent
        obs, reward, terminated, _, _ = single.step(_legal(single, rng))
        assert reward == (_team_reward(single, acting) if terminated else 0.0)
        assert single.agent == (acting if terminated else single.aec.agent_selection)
        assert np.array_equal(obs, single.aec.observe(single.agent)["observation"])


def test_sigil_rewards_reach_the_learner_at_its_next_decision():
    single = _single(learner=0, opponents="heuristic", sigil_reward=0.1)
    rng = np.random.default_rng(4)
    single.reset(seed=5)
    total, terminated = 0.0, False
    while not terminated:
        _, reward, terminated, _, _ = single.step(_legal(single, rng))
        total += reward
    state = _state(single)
    sign = 1.0 if state.players[0].role == Role.INVESTIGATOR else -1.0
    assert total == pytest.approx(_team_reward(single, "player_0") + sign * 0.1 * state.sigils_activated)


def test_stepping_a_finished_game_says_to_reset():
    single = _single(learner=0)
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        single.step(0)
    rng = np.random.default_rng(5)
    single.reset(seed=6)
    while not single.step(_legal(single, rng))[2]:
        pass
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        single.step(0)


# -- seeding -------------------------------------------------------------------------------------


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        x[0] == y[0] and x[3:] == y[3:] and np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])
        for x, y in zip(a, b)
    )


@pytest.mark.parametrize("learner", ["any", "cultist", "every"])
def test_the_seed_given_to_reset_fixes_every_game(learner):
    """Same seed, same games (deal, learner's seat, bots' moves), whatever the global generators do."""
    opponents = None if learner == "every" else "heuristic"
    one = _play(_single(learner=learner, opponents=opponents), seed=7, games=3)
    two = _play(_single(learner=learner, opponents=opponents), seed=7, games=3, noise=True)
    other = _play(_single(learner=learner, opponents=opponents), seed=8, games=3)
    assert _same(one, two)
    assert not _same(one, other)


# -- the opponents -------------------------------------------------------------------------------


class _Recorder(RandomBot):
    """A random bot that remembers its resets and the seat-relative rows of what it saw."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.resets, self.decisions = [], 0

    def reset(self, seed=None):
        super().reset(seed)
        self.resets.append(seed)

    def act(self, observation, action_mask):
        self.decisions += 1
        return super().act(observation, action_mask)


def test_the_kth_bot_sits_k_plus_one_seats_to_the_learners_left():
    bots = [_Recorder() for _ in range(4)]
    single = _single(learner="any", opponents=bots)
    for seed in range(4):
        single.reset(seed=seed)
        seat = single.aec.possible_agents.index(single.agent)
        assert {f"player_{(seat + 1 + k) % 5}": bot for k, bot in enumerate(bots)} == single._opponents
    assert all(len(bot.resets) == 4 and None not in bot.resets for bot in bots)


def test_a_factory_builds_one_bot_per_other_seat_and_bots_play_their_seats():
    single = _single(learner=2, opponents=_Recorder, num_players=7)
    assert len(single.bots) == 6 and len({id(bot) for bot in single.bots}) == 6
    rng = np.random.default_rng(6)
    single.reset(seed=9)
    while not single.step(_legal(single, rng))[2]:
        pass
    assert all(bot.decisions > 0 for bot in single.bots)


@pytest.mark.parametrize(
    "learner, opponents, message",
    [
        (5, "random", r"learner must be a seat 0\.\.4 or one of"),
        ("cultists", "random", r"learner must be"),
        (True, "random", r"learner must be"),
        ("every", "random", r"pass no opponents"),
        ("any", None, r"opponents are needed"),
        ("any", [RandomBot()] * 3, r"need one Bot per other seat \(4\)"),
        ("any", RandomBot(), r"a bot plays one seat: pass 4 bots, or a factory"),
        ("any", "genius", r"'genius' is not a bot"),
    ],
)
def test_bad_learners_and_opponents_are_refused_with_what_would_do(learner, opponents, message):
    with pytest.raises(ValueError, match=message):
        _single(learner=learner, opponents=opponents)


# -- the consumer: sb3-contrib's MaskablePPO -----------------------------------------------------


def test_maskable_ppo_trains_through_it():
    pytest.importorskip("sb3_contrib", reason="MaskablePPO comes with the dev extra (sb3-contrib)")
    import torch
    from sb3_contrib import MaskablePPO

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        start = time.perf_counter()
        single = _single(learner="any", opponents="random")
        model = MaskablePPO("MlpPolicy", single, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
        model.learn(256)
        elapsed = time.perf_counter() - start
    finally:
        torch.set_num_threads(threads)
    assert model.num_timesteps >= 256
    assert elapsed < 20, f"{elapsed:.1f} s"
