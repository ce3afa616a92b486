"""Turn-based credit assignment: a reward lands on the rewarded seat's own latest decision,
whoever moved. The collector's games are replayed step by step on a fresh `Table` and each seat's
rewards between one of its decisions and its next (and after its last) are summed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.players import ScriptedPlayer
from rlyeh_env.table import Table
from training_testkit import EASY_RULES, collect, learners

SIGIL_REWARD = 0.1


def _replay(config: GameConfig, seed: int, actions: tuple[int, ...]):
    """Per seat: the actions it took, and for each of them the rewards it received from that step
    up to (not including) its next decision; rewards before its first decision are dropped."""
    table = Table(config, seed)
    taken: dict[int, list[int]] = {s: [] for s in range(table.num_players)}
    received: dict[int, list[float]] = {s: [] for s in range(table.num_players)}
    last_mover = None
    for action in actions:
        seat = table.decider
        taken[seat].append(action)
        received[seat].append(0.0)
        rewards = table.step(action)
        for s in np.flatnonzero(rewards):
            if received[s]:
                received[s][-1] += float(rewards[s])
        last_mover = seat
    assert table.over
    return table, taken, received, last_mover


def _sigils(reward: float, team: float) -> int:
    """How many sigils' shaping `reward` is for a seat of team sign `team` (asserts it is whole)."""
    count = reward / (team * SIGIL_REWARD)
    assert count == pytest.approx(round(count), abs=1e-5) and 0 <= round(count) <= 4, reward
    return round(count)


def _buffer_rows(buffer, trajectory: int) -> list[int]:
    return [i for i, t in enumerate(buffer.trajectory) if t == trajectory]


def _check_game(buffers, game, config, learner_roles):
    """Assert the buffers hold exactly the replayed per-seat rewards; return (shaping seen, games
    where some seat's final reward reached it although it did not make the last move)."""
    index = game.tags["index"]
    table, taken, received, last_mover = _replay(config, game.seed, game.actions)
    assert table.investigators_won == game.investigators_won and len(game.actions) == game.decisions
    outcome = 1.0 if game.investigators_won else -1.0
    shaping = off_turn_final = 0
    for seat in range(table.num_players):
        role = Role(int(table.roles[seat]))
        rows = _buffer_rows(buffers[role], index * 8 + seat) if role in buffers else []
        if role not in learner_roles:
            assert rows == []
            continue
        buffer = buffers[role]
        assert [int(buffer.array("actions")[i]) for i in rows] == taken[seat]
        assert [buffer.rewards[i] for i in rows] == received[seat], f"game {index} seat {seat}"
        # the chain of links is exactly the seat's decisions in order, ending with -1
        assert [buffer.next_index[i] for i in rows] == rows[1:] + [-1]
        if not rows:
            continue
        team = 1.0 if role == Role.INVESTIGATOR else -1.0
        *earlier, last = [buffer.rewards[i] for i in rows]
        # the last decision holds the team's +-1 plus whole sigils of shaping; earlier ones only shaping
        assert _sigils(last - team * outcome, team) >= 0, "the +-1 lands on the seat's own last decision"
        assert all(_sigils(r, team) >= 0 for r in earlier), "no final reward before the last decision"
        shaping += sum(r != 0 for r in earlier)
        off_turn_final += seat != last_mover
    return shaping, off_turn_final


def test_rewards_land_on_each_seats_own_decisions_in_self_play():
    """Both sides learners: every seat's trajectory holds exactly its rewards, and the final +-1
    reaches every seat's own last decision, not only the last mover's."""
    config = GameConfig(num_players=5, sigil_reward=SIGIL_REWARD, **EASY_RULES)
    buffers, finished, _ = collect(learners(seed=3), config, games=6, slots=3, seed=3)
    assert sorted(g.tags["index"] for g in finished) == list(range(6))
    assert sum(len(b) for b in buffers.values()) == sum(g.decisions for g in finished)
    shaping = off_turn = 0
    for game in finished:
        s, o = _check_game(buffers, game, config, set(Role))
        shaping, off_turn = shaping + s, off_turn + o
    assert shaping > 0, "some sigil shaping was credited before the end (the check covered it)"
    assert off_turn > 0


@pytest.mark.parametrize("learner_role", [Role.INVESTIGATOR, Role.CULTIST])
def test_rewards_after_bot_moves_are_credited_to_the_learner(learner_role):
    """One side a random bot: only the learner's seats have trajectories, and rewards paid on the
    bot's moves still reach the learner's latest decision."""
    config = GameConfig(num_players=6, sigil_reward=SIGIL_REWARD, **EASY_RULES)
    players = learners(seed=5)
    other = Role.CULTIST if learner_role == Role.INVESTIGATOR else Role.INVESTIGATOR
    players[other] = ScriptedPlayer("random")
    buffers, finished, _ = collect(players, config, games=4, slots=2, seed=5)
    assert set(buffers) == {learner_role}
    for game in finished:
        _check_game(buffers, game, config, {learner_role})
