"""`ActorCritic` with and without a shared trunk: the value head's input, the parameter count,
the combinations refused, and specs from before the option."""

from __future__ import annotations

import pytest
import torch

from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.observation import SEAT_LAYOUT
from rlyeh_env.policy.network import ActorCritic

from .training_testkit import TRUTH_SIZE, tiny_net


def _obs(rows: int = 6, seed: int = 0) -> torch.Tensor:
    return (torch.rand(rows, SEAT_LAYOUT.size, generator=torch.Generator().manual_seed(seed)) < 0.1).float()


def test_shared_trunk_value_reads_the_policy_features():
    """The value is the value head on the policy trunk's output, in `value` and in `forward_all`."""
    net = tiny_net(shared_trunk=True)
    obs, mask = _obs(), torch.ones(6, NUM_ACTIONS, dtype=torch.bool)
    with torch.no_grad():
        features, _ = net.features(obs)
        expected = net.critic[1](features).squeeze(-1)
        torch.testing.assert_close(net.value(obs), expected, atol=0, rtol=0)
        torch.testing.assert_close(net.value(obs, features), expected, atol=0, rtol=0)
        torch.testing.assert_close(net.forward_all(obs, mask, obs)[2], expected, atol=0, rtol=0)


def test_value_loss_reaches_the_shared_trunk_only_when_shared():
    for shared in (False, True):
        net = tiny_net(shared_trunk=shared)
        net.value(_obs()).sum().backward()
        trunk_grad = net.trunk[0].weight.grad
        assert (trunk_grad is not None and trunk_grad.abs().sum() > 0) == shared


def test_shared_trunk_roughly_halves_a_wide_network():
    """The first layer over the wide observation is most of the weights; sharing drops its copy."""
    sizes = {shared: sum(p.numel() for p in ActorCritic(SEAT_LAYOUT.size, NUM_ACTIONS, (256, 128),
                                                        shared_trunk=shared).parameters())
             for shared in (False, True)}
    assert 0.45 < sizes[True] / sizes[False] < 0.6


def test_refused_combinations():
    with pytest.raises(ValueError, match="central critic"):
        ActorCritic(SEAT_LAYOUT.size, NUM_ACTIONS, (16,), critic_input_size=TRUTH_SIZE, shared_trunk=True)
    recurrent = tiny_net(recurrent=True, shared_trunk=True)
    with pytest.raises(ValueError, match="policy features"):
        recurrent.value(_obs())


def test_spec_round_trip_and_specs_from_before_the_option():
    net = tiny_net(shared_trunk=True)
    rebuilt = ActorCritic.from_spec(net.spec())
    assert rebuilt.shared_trunk and rebuilt.load_state_dict(net.state_dict())
    old_spec = {k: v for k, v in tiny_net().spec().items() if k != "shared_trunk"}
    assert not ActorCritic.from_spec(old_spec).shared_trunk
