"""Action masking: networks and `PolicyBot` never pick an illegal action (sampling or greedy,
random networks and masks, single-legal masks), the entropy counts legal actions only, the
collector's batched masks are the tables' own, and whole collector runs never make the engine
raise `IllegalActionError`. Sampling draws what `torch.multinomial` draws."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.observation import SEAT_LAYOUT
from training.losses import masked_entropy
from rlyeh_env.players import ScriptedPlayer
from training.players import NetPlayer
from rlyeh_env.policy.bot import PolicyBot
from rlyeh_env.policy.network import sample_actions
from rlyeh_env.table import Table, legal_masks
from training_testkit import EASY_RULES, collect, learners, tiny_net

BATCH = 64


def _loud_net(seed: int, recurrent: bool = False):
    """A small network whose action head is far from uniform (large random logits)."""
    net = tiny_net(seed, recurrent)
    with torch.no_grad():
        net.actor.weight.normal_(0.0, 3.0)
        net.actor.bias.normal_(0.0, 3.0)
    return net


def _random_masks(rng: np.random.Generator, batch: int) -> np.ndarray:
    """Random masks: every other row has a single legal action, the rest a random legal set."""
    masks = np.zeros((batch, NUM_ACTIONS), dtype=bool)
    for row in range(batch):
        if row % 2:
            masks[row, rng.integers(NUM_ACTIONS)] = True
        else:
            legal = rng.choice(NUM_ACTIONS, size=rng.integers(2, 8), replace=False)
            masks[row, legal] = True
    return masks


@pytest.mark.parametrize("greedy", [False, True])
@pytest.mark.parametrize("recurrent", [False, True])
def test_net_player_picks_only_legal_actions(greedy, recurrent):
    """Random masks (half with one legal action): chosen actions legal, log-probs over legal actions only."""
    rng = np.random.default_rng(1)
    player = NetPlayer(_loud_net(2, recurrent), "net", learner=Role.INVESTIGATOR, greedy=greedy)
    generator = torch.Generator().manual_seed(0)
    for _ in range(5):
        obs = torch.from_numpy(rng.random((BATCH, SEAT_LAYOUT.size), dtype=np.float32))
        masks = torch.from_numpy(_random_masks(rng, BATCH))
        hidden = player.net.initial_state(BATCH) if recurrent else None
        out = player.act(obs, masks, hidden, generator)
        actions = out["actions"]
        assert masks[torch.arange(BATCH), actions].all(), "an illegal action was chosen"
        assert torch.isfinite(out["log_probs"]).all() and (out["log_probs"] <= 0).all()
        single = masks.sum(1) == 1
        assert torch.allclose(out["log_probs"][single], torch.zeros(int(single.sum())), atol=1e-6)
        # the log-probability is that of the softmax over the legal actions only
        logits = player.net.actor(player.net.features(obs, hidden)[0])
        for row in range(BATCH):
            legal = masks[row].nonzero().squeeze(1)
            restricted = torch.log_softmax(logits[row, legal], -1)
            expected = restricted[(legal == actions[row]).nonzero().item()]
            assert out["log_probs"][row].item() == pytest.approx(expected.item(), abs=1e-5)
            if greedy:
                assert actions[row].item() == legal[restricted.argmax()].item()
        assert out["values"].shape == (BATCH,)


def test_sampling_draws_what_multinomial_draws():
    """`sample_actions` skips `torch.multinomial`'s checks, not its draw: from the same generator
    state it picks the same actions (training runs replay as before), never an illegal one."""
    rng = np.random.default_rng(7)
    for rows in (1, 5, BATCH):
        masks = torch.from_numpy(_random_masks(rng, rows))
        logits = torch.from_numpy(rng.normal(0.0, 3.0, (rows, NUM_ACTIONS)).astype(np.float32))
        logits = logits.masked_fill(~masks, -1e9)
        ours, theirs = torch.Generator().manual_seed(rows), torch.Generator().manual_seed(rows)
        for _ in range(20):
            actions = sample_actions(logits, ours)
            expected = torch.multinomial(torch.softmax(logits, -1), 1, generator=theirs).squeeze(-1)
            assert torch.equal(actions, expected)
            assert masks[torch.arange(rows), actions].all()


@pytest.mark.parametrize("greedy", [False, True])
def test_a_frozen_player_decides_as_a_learner_would(greedy):
    """A frozen player skips the log-probabilities, beliefs and values nobody reads of it; its
    actions are a learner's from the same generator state."""
    rng = np.random.default_rng(4)
    net = _loud_net(6)
    obs = torch.from_numpy(rng.random((BATCH, SEAT_LAYOUT.size), dtype=np.float32))
    masks = torch.from_numpy(_random_masks(rng, BATCH))
    frozen = NetPlayer(net, "frozen", greedy=greedy).act(obs, masks, None, torch.Generator().manual_seed(1))
    learner = NetPlayer(net, "learner", learner=Role.CULTIST, greedy=greedy).act(
        obs, masks, None, torch.Generator().manual_seed(1))
    assert torch.equal(frozen["actions"], learner["actions"])
    assert not {"log_probs", "belief", "values"} & set(frozen)
    assert {"log_probs", "belief", "values"} <= set(learner)


@pytest.mark.parametrize("dtype", [bool, np.int8])
def test_batched_legal_masks_are_each_tables_mask(dtype):
    """Batched play (the collector, tournaments) sets a group's masks in one call: each row is its
    table's own mask."""
    tables = [Table(GameConfig(num_players=n), seed) for seed, n in enumerate((4, 5, 6, 7, 8, 5))]
    rng = np.random.default_rng(2)
    for _ in range(40):
        live = [table for table in tables if not table.over]
        masks = legal_masks(live, dtype=dtype)
        assert masks.dtype == dtype and masks.shape == (len(live), NUM_ACTIONS)
        for row, table in zip(masks, live):
            np.testing.assert_array_equal(row, table.action_mask().astype(dtype))
        for table in tables:
            if table.over:
                continue
            table.step(int(rng.choice(table.legal_actions())))


@pytest.mark.parametrize("greedy", [False, True])
def test_policy_bot_picks_only_legal_actions(greedy):
    """Random networks for both roles, random observations of either role, random masks."""
    rng = np.random.default_rng(3)
    bot = PolicyBot({Role.INVESTIGATOR: _loud_net(4), Role.CULTIST: _loud_net(5, recurrent=True)},
                    greedy=greedy, seed=9)
    role_at = SEAT_LAYOUT["me.role"].start
    for step in range(200):
        obs = rng.random(SEAT_LAYOUT.size, dtype=np.float32)
        obs[role_at : role_at + 2] = (1.0, 0.0) if step % 2 else (0.0, 1.0)
        mask = _random_masks(rng, 2)[step % 2].astype(np.int8)
        action = bot.act(obs, mask)
        assert isinstance(action, int) and mask[action] == 1
    with pytest.raises(ValueError, match="no legal action"):
        bot.act(obs, np.zeros(NUM_ACTIONS, dtype=np.int8))


def test_masked_entropy_is_the_entropy_over_legal_actions():
    """Equals the entropy of the softmax restricted to the legal actions; 0 for one legal action."""
    rng = np.random.default_rng(4)
    logits = torch.from_numpy(rng.normal(0, 3, (BATCH, NUM_ACTIONS)).astype(np.float32))
    masks = torch.from_numpy(_random_masks(rng, BATCH))
    log_probs = torch.log_softmax(logits.masked_fill(~masks, -1e9), -1)
    entropy = masked_entropy(log_probs, masks)
    for row in range(BATCH):
        expected = torch.distributions.Categorical(logits=logits[row, masks[row]]).entropy()
        assert entropy[row].item() == pytest.approx(expected.item(), abs=1e-5)
    assert torch.all(entropy[masks.sum(1) == 1] == 0)
    # uniform over k legal actions: log k
    uniform = torch.log_softmax(torch.zeros(1, NUM_ACTIONS).masked_fill(~masks[:1], -1e9), -1)
    assert masked_entropy(uniform, masks[:1]).item() == pytest.approx(np.log(int(masks[0].sum())), abs=1e-5)


@pytest.mark.parametrize("recurrent", [False, True])
def test_collector_runs_never_play_an_illegal_action(recurrent):
    """Loud random networks (the engine raises IllegalActionError on any illegal action), sampling
    learners against greedy networks and the bots, at two table sizes."""
    for k, n in enumerate((4, 8)):
        config = GameConfig(num_players=n, sigil_reward=0.1, **EASY_RULES)
        players = learners(seed=k, recurrent=recurrent)
        for player in players.values():
            with torch.no_grad():
                player.net.actor.weight.normal_(0.0, 3.0)
        buffers, finished, _ = collect(players, config, games=3, seed=k)
        assert len(finished) == 3 and all(len(b) > 0 for b in buffers.values())
        greedy = NetPlayer(_loud_net(7, recurrent), "greedy", greedy=True)
        for opponent in (greedy, ScriptedPlayer("heuristic"), ScriptedPlayer("random")):
            _, finished, _ = collect({Role.INVESTIGATOR: players[Role.INVESTIGATOR], Role.CULTIST: opponent},
                                     config, games=2, seed=k + 10)
            assert len(finished) == 2
