"""Fuzz: a million random legal steps through `rlyeh_env.env` (the wrapped env users get), every
table size 4-8 and the variants, with the AEC API's invariants checked at every step.

Twenty slow-marked cases of 50,000 steps each (five table sizes x four chunks; the fourth chunk of
each size plays in history mode), so pytest-xdist spreads them over its workers. Within a case the
games cycle through extra gods, the hidden cultist count and sigil shaping on and off, and through
three play styles (uniform, then two biased to feed the target so that investigators win too).

Every step: the acting agent's observation (keys, dtype, shape, bounds [0, 1], non-empty mask),
every other agent's mask empty, rewards team-symmetric and only what the step earned, no
termination before the end and all at once at it, never a truncation. Every `SAMPLE_EVERY` steps,
the costlier ones: `observation_space(agent).contains` for every agent, `state()`, and an illegal
action that must raise `IllegalActionError` and leave the observation as it was. Every game: the
returns seen through `last()`, the dead steps that empty `agents`, the proven length bound.
PettingZoo's `api_test` runs in tests/env/test_env_pettingzoo.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from game_length import upper_bound_decisions
from rlyeh_env import IllegalActionError, env
from rlyeh_env.engine import Role, Winner
from rlyeh_env.engine import actions as A

SIZES = range(4, 9)
CHUNKS = 4  # per table size; the last one in history mode
STEPS_PER_CASE = 50_000
assert len(SIZES) * CHUNKS * STEPS_PER_CASE >= 1_000_000
SAMPLE_EVERY = 61  # prime, so the sampled steps fall on every phase
SIGIL_REWARD = 0.25
VARIANTS = [
    {"extra_gods": gods, "hidden_cultist_count": hidden, "sigil_reward": shaping}
    for gods in (False, True)
    for hidden in (False, True)
    for shaping in (0.0, SIGIL_REWARD)
]
BIASES = (0.0, 0.6, 0.95)  # chance of feeding the target when possible; 3 and 8 variants are coprime
ACCUSATIONS = np.arange(A.ACCUSE, A.CURSE + A.MAX_OFFSET)  # accuse and curse


def choose(rng: np.random.Generator, mask: np.ndarray, target: int, bias: float) -> int:
    """A random legal action. With probability `bias`: the target card if one can be played, else
    mostly no accusation (accusations end games early, before any sigil is activated)."""
    if target >= 0 and rng.random() < bias:
        for first in (A.CONTRIBUTE, A.GAMBLE_PLAY, A.GIVE):
            if mask[first + target]:
                return first + target
        calm = mask.copy()
        calm[ACCUSATIONS] = 0
        if calm.any() and rng.random() < 0.8:
            mask = calm
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def check_observation(obs, shape: tuple[int, ...]) -> np.ndarray:
    """What `contains` checks, cheaply; returns the mask."""
    assert type(obs) is dict and obs.keys() == {"observation", "action_mask"}
    vector, mask = obs["observation"], obs["action_mask"]
    assert vector.dtype == np.float32 and vector.shape == shape
    assert vector.min() >= 0.0 and vector.max() <= 1.0
    assert mask.dtype == np.int8 and mask.shape == (A.NUM_ACTIONS,)
    assert mask.min() >= 0 and mask.max() <= 1
    return mask


def check_sample(e, agent: str, obs, rng: np.random.Generator) -> None:
    """The costlier checks: every agent's observation in its space, the state, an illegal action."""
    u = e.unwrapped
    for other in e.agents:
        seen = obs if other == agent else e.observe(other)
        assert e.observation_space(other).contains(seen), other
        assert (other == agent) == bool(seen["action_mask"].any()), other
    state = e.state()
    assert state.shape == u.state_space.shape and u.state_space.contains(state)

    illegal = np.flatnonzero(obs["action_mask"] == 0).tolist() + [A.NUM_ACTIONS, -1]
    action = illegal[rng.integers(len(illegal))]
    before = {key: value.copy() for key, value in obs.items()}
    decisions = len(u.game.actions)
    with pytest.raises(IllegalActionError):
        e.step(action)
    after = e.observe(agent)
    assert e.agent_selection == agent and len(u.game.actions) == decisions, action
    assert all(np.array_equal(before[key], after[key]) for key in before), f"{action} changed the observation"


def play_game(e, seed: int, rng: np.random.Generator, bias: float, sampled: int) -> int:
    """One game with the invariants checked; returns its number of decisions. `sampled` counts the
    steps already taken in the case, so the sampled steps run on across games."""
    e.reset(seed=seed)
    u = e.unwrapped
    state, shaping = u.game.state, u.config.sigil_reward
    shape = e.observation_space(e.possible_agents[0])["observation"].shape
    # +1 for investigators, -1 for cultists. Rewards are compared exactly: they are sums of +-1 and
    # multiples of SIGIL_REWARD, a binary fraction.
    signs = {a: 1.0 if p.role == Role.INVESTIGATOR else -1.0 for a, p in zip(e.possible_agents, state.players)}
    returns = dict.fromkeys(e.possible_agents, 0.0)
    bound = upper_bound_decisions(u.config)
    steps = 0
    while not state.game_over:
        agent = e.agent_selection
        obs, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward
        assert not terminated and not truncated
        mask = check_observation(obs, shape)
        assert mask.any(), f"{agent} must decide but has no legal action"
        for other in e.agents:
            assert other == agent or not u.action_mask(other).any(), f"{other} has a mask on {agent}'s turn"
        if (sampled + steps) % SAMPLE_EVERY == 0:
            check_sample(e, agent, obs, rng)
        sigils = state.sigils_activated
        e.step(choose(rng, mask, state.target, bias))
        steps += 1
        assert steps <= bound, f"game longer than the proven bound {bound}"
        earned = (state.sigils_activated - sigils) * shaping
        if state.game_over:
            earned += 1.0 if state.winner == Winner.INVESTIGATORS else -1.0
        assert e.rewards == {a: sign * earned for a, sign in signs.items()}, (earned, e.rewards)
        assert all(e.terminations.values()) if state.game_over else not any(e.terminations.values())
        assert not any(e.truncations.values())

    for _ in e.possible_agents:  # the dead steps: each agent collects what it is owed, then leaves
        agent = e.agent_selection
        _, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward
        assert terminated and not truncated
        e.step(None)
    assert not e.agents, "stepping None for every agent ends the episode"

    win = 1.0 if state.winner == Winner.INVESTIGATORS else -1.0
    total = win + shaping * state.sigils_activated
    assert returns == {a: sign * total for a, sign in signs.items()}, (total, returns)
    return steps


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("n", SIZES)
def test_env_fuzz(n, chunk):
    mode = "history" if chunk == CHUNKS - 1 else "seat"
    envs = [env(num_players=n, observation_mode=mode, **variant) for variant in VARIANTS]
    rng = np.random.default_rng([n, chunk])
    steps = games = 0
    winners = set()
    while steps < STEPS_PER_CASE:
        e, bias = envs[games % len(envs)], BIASES[games % len(BIASES)]
        seed = 1_000_003 * (CHUNKS * n + chunk) + games
        try:
            steps += play_game(e, seed, rng, bias, steps)
        except Exception as error:  # name the game, so that it can be replayed
            game = e.unwrapped.game
            error.add_note(f"num_players={n} observation_mode={mode} {VARIANTS[games % len(VARIANTS)]} "
                           f"reset(seed={seed}); engine seed {game.seed}, actions {game.actions}")
            raise
        winners.add(e.unwrapped.game.state.winner)
        games += 1
    assert games >= 2 * len(VARIANTS) * len(BIASES)  # every variant met every play style
    assert winners == {Winner.INVESTIGATORS, Winner.CULTISTS}
