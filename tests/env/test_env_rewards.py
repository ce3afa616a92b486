"""Rewards: +1 / -1 by team at the end only (by default), optional per-sigil shaping, and the
AEC bookkeeping (`rewards`, `_cumulative_rewards`, what `last()` returns)."""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

from rlyeh_env import env, raw_env
from rlyeh_env.engine import Phase, Role, Winner
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.state import PoolCard
from rlyeh_env_testkit import policy


def _sign(e, agent) -> float:
    return 1.0 if e.unwrapped.game.state.players[int(agent.split("_")[1])].role == Role.INVESTIGATOR else -1.0


def play_and_check(e, seed: int, r: float) -> dict:
    """Play one game through agent_iter, checking every step's rewards; returns the winner and
    the returns each agent saw through last()."""
    u = e.unwrapped
    pick = random.Random(seed)
    seen = defaultdict(float)
    given = defaultdict(float)
    for agent in e.agent_iter(100_000):
        obs, reward, term, trunc, _ = e.last()
        assert reward == u._cumulative_rewards[agent]
        seen[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        state = u.game.state
        before = state.sigils_activated
        e.step(policy(state, u.game.legal_actions(), pick))
        gained = state.sigils_activated - before
        assert u._cumulative_rewards[agent] == u.rewards[agent], "the actor's old rewards were handed out"
        for other in u.agents:
            expected = _sign(e, other) * r * gained
            if state.game_over:
                expected += _sign(e, other) * (1.0 if state.winner == Winner.INVESTIGATORS else -1.0)
            assert u.rewards[other] == pytest.approx(expected), (other, gained, state.game_over)
            given[other] += u.rewards[other]
        if state.game_over:
            assert all(u.terminations.values()) and not any(u.truncations.values())
        else:
            assert not any(u.terminations.values())
    assert not e.agents
    final = u.game.state
    for agent, total in seen.items():
        assert total == pytest.approx(given[agent]), "every reward reaches its agent through last()"
        win = 1.0 if final.winner == Winner.INVESTIGATORS else -1.0
        assert total == pytest.approx(_sign(e, agent) * (win + r * final.sigils_activated))
    assert set(seen) == set(e.possible_agents)
    return {"winner": final.winner, "activated": final.sigils_activated}


@pytest.mark.parametrize("r", [0.0, 0.5])
def test_rewards_over_random_games(r):
    """R12.4."""
    outcomes = []
    for g in range(16):
        e = env(num_players=4 + g % 5, sigil_reward=r, extra_gods=g % 2 == 0)
        e.reset(seed=g)
        outcomes.append(play_and_check(e, g, r))
    assert any(o["activated"] for o in outcomes), "some sigil got activated"
    assert any(o["winner"] == Winner.CULTISTS for o in outcomes)


def _script_last_card(e, target: int, activated: list[bool]):
    """From a fresh raw_env: sigils `activated` already, `target` declared, three target cards and
    three neutral ones in the pool; the turn player holds one more target card, which completes a
    successful incantation (4 matches). Returns the turn player's agent."""
    u = e.unwrapped if hasattr(e, "unwrapped") else e
    state = u.game.state
    assert state.phase == Phase.DECLARE_TARGET
    state.activated = list(activated)
    e.step(A.DECLARE + target)
    state = u.game.state
    seat = state.decider
    hand = state.players[seat].hand
    for s in range(4):  # the hand goes back to the deck, then one target card is drawn out
        state.deck[:0] = [s] * hand[s]
    neutral = target ^ 2  # neither the target nor its opposite
    cards = [target] * 3 + [neutral] * 3
    for card in cards + [target]:
        state.deck.remove(card)
    state.players[seat].hand = [0, 0, 0, 0]
    state.players[seat].hand[target] = 1
    for i, card in enumerate(cards):
        owner = (seat + 1 + i) % state.num_players
        state.pool.append(PoolCard(card, owner, False))
        state.pool_contributions[owner] += 1
        state.players[owner].memory.pool_mine[card] += 1
    u.game._legal_at = -1  # the state was edited by hand: recompute the legal actions
    assert e.agent_selection == f"player_{seat}"
    return f"player_{seat}"


@pytest.mark.parametrize("r", [0.0, 0.5])
def test_investigators_win_on_the_fourth_sigil(r):
    """R12.4."""
    e = env(num_players=6, sigil_reward=r)
    e.reset(seed=3)
    agent = _script_last_card(e, 3, [True, True, True, False])
    e.step(A.CONTRIBUTE + 3)
    u = e.unwrapped
    assert u.game.state.winner == Winner.INVESTIGATORS
    roles = [p.role for p in u.game.state.players]
    assert 0 < sum(roles) < 6
    for other in e.agents:
        sign = 1.0 if roles[int(other.split("_")[1])] == Role.INVESTIGATOR else -1.0
        assert u.rewards[other] == pytest.approx(sign * (1.0 + r))
        assert u.terminations[other]
    # every agent collects exactly that through last(), the actor included
    expected = dict(u.rewards)
    collected = {}
    for a in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term
        collected[a] = reward
        e.step(None)
    assert collected == pytest.approx(expected) and agent in collected and not e.agents


def test_sigil_reward_is_paid_when_a_sigil_is_activated_and_nothing_else():
    """R12.5."""
    e = raw_env(num_players=5, sigil_reward=0.5)
    e.reset(seed=4)
    _script_last_card(e, 0, [False] * 4)
    actor = e.agent_selection
    e.step(A.CONTRIBUTE + 0)
    state = e.game.state
    assert state.activated[0] and not state.game_over
    for agent in e.agents:
        sign = 1.0 if state.players[int(agent.split("_")[1])].role == Role.INVESTIGATOR else -1.0
        assert e.rewards[agent] == sign * 0.5
        assert e._cumulative_rewards[agent] == sign * 0.5
    # the next step (declaring a new target) pays nothing, and the actor's cumulative reward
    # is cleared when it acts again
    nxt = e.agent_selection
    e.step(e.game.legal_actions()[0])
    assert all(v == 0.0 for v in e.rewards.values())
    assert e._cumulative_rewards[nxt] == 0.0
    assert e._cumulative_rewards[actor] == (0.0 if actor == nxt else e._cumulative_rewards[actor])


def test_no_reward_before_the_end_by_default():
    """R12.4, R12.5."""
    e = raw_env(num_players=5)
    e.reset(seed=6)
    _script_last_card(e, 1, [False] * 4)
    e.step(A.CONTRIBUTE + 1)
    assert e.game.state.activated[1]
    assert all(v == 0.0 for v in e.rewards.values())
    assert all(v == 0.0 for v in e._cumulative_rewards.values())


def test_reset_clears_rewards():
    e = raw_env(num_players=4)
    e.reset(seed=1)
    pick = random.Random(1)
    while not e.game.over:
        e.step(pick.choice(e.game.legal_actions()))
    assert any(e.rewards.values())
    e.reset(seed=2)
    assert e.rewards == dict.fromkeys(e.possible_agents, 0.0)
    assert e._cumulative_rewards == dict.fromkeys(e.possible_agents, 0.0)
    assert not any(e.terminations.values()) and not any(e.truncations.values())
    assert e.infos == {a: {} for a in e.possible_agents}
    assert np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist() == e.game.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("r", [0.0, 0.25, 1.0])
def test_rewards_sweep(r):
    for g in range(150):
        e = env(num_players=4 + g % 5, sigil_reward=r, extra_gods=g % 3 == 0, hidden_cultist_count=g % 2 == 0)
        e.reset(seed=1000 + g)
        play_and_check(e, g, r)
