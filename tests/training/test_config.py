"""`training.config`: `Args` validation names the bad field, and the presets. (The command line
that reads `Args`, with every field's help text, is tested in test_train_cli.py.)"""

from __future__ import annotations

import pytest

from training.config import PRESETS, Args, preset

BAD_VALUES = [
    ("total_decisions", 0),
    ("threads", 0),
    ("num_games", 0),
    ("decisions_per_rollout", 0),
    ("table_sizes", ()),
    ("table_sizes", (3, 5)),
    ("table_sizes", (4, 9)),
    ("finetune_table_sizes", (3, 7)),
    ("finetune_table_sizes", (8, 9)),
    ("opponent_latest", 1.5),
    ("opponent_heuristic", -0.1),
    ("opponent_random", 2.0),
    ("pool_size", -1),
    ("snapshot_every", 0),
    ("hidden", ()),
    ("hidden", (64, 0)),
    ("sequence_length", 0),
    ("learning_rate", 0.0),
    ("gamma", 0.0),
    ("gamma", 1.01),
    ("gae_lambda", -0.1),
    ("gae_lambda", 1.5),
    ("update_epochs", 0),
    ("minibatch_size", 0),
    ("clip_coef", 0.0),
    ("max_grad_norm", 0.0),
    ("target_kl", -0.01),
    ("checkpoint_every", 0),
    ("eval_every", -1),
    ("eval_games", 0),
    ("imitation_decisions", -1),
    ("imitation_epochs", 0),
    ("imitation_minibatch_size", 0),
    ("imitation_lr", 0.0),
    ("imitation_teacher", "champion"),
    ("imitation_accuse_at", 1.5),
    ("imitation_vote_at", -0.1),
    ("imitation_cultist_accuse_rate", 1.5),
    ("finetune_decisions", -1),
    ("finetune_decisions", 6_000_001),  # more than total_decisions
    ("finetune_heuristic", 1.5),
    ("finetune_investigator_share", -0.1),
    ("rollout_workers", 0),
    ("rollout_workers", 129),  # more than num_games
    ("backend", "cluster"),
    ("ray_address", " "),
]


@pytest.mark.parametrize("name,value", BAD_VALUES, ids=[f"{n}={v}" for n, v in BAD_VALUES])
def test_bad_values_are_rejected_naming_the_field(name, value):
    """Each out-of-range value raises ValueError whose message names the field."""
    with pytest.raises(ValueError, match=name):
        Args(**{name: value})


def test_shared_trunk_and_central_critic_exclude_each_other():
    """The central critic reads the truth, so it cannot share the policy's trunk over the observation."""
    with pytest.raises(ValueError, match="shared_trunk"):
        Args(shared_trunk=True, central_critic=True)
    assert Args(shared_trunk=True).shared_trunk and Args(central_critic=True).central_critic


def test_opponent_mixtures():
    """The three probabilities may not exceed 1 together; with no pool they must add up to 1."""
    with pytest.raises(ValueError, match="opponent_latest"):
        Args(opponent_latest=0.6, opponent_heuristic=0.6)
    with pytest.raises(ValueError, match="pool_size"):
        Args(pool_size=0, opponent_latest=0.5, opponent_heuristic=0.2)
    args = Args(pool_size=0, opponent_latest=0.5, opponent_heuristic=0.25, opponent_random=0.25)
    assert args.opponent_pool == 0.0
    assert Args(opponent_latest=0.4, opponent_heuristic=0.4, opponent_random=0.0).opponent_pool == pytest.approx(0.2)


def test_good_edge_values_are_accepted():
    """Boundary values that are allowed do not raise."""
    Args(gamma=1.0, gae_lambda=0.0, eval_every=0, target_kl=0.0, table_sizes=(4, 8), hidden=(1,), pool_size=0,
         opponent_latest=1.0, opponent_heuristic=0.0, opponent_random=0.0)


def test_presets():
    """Both presets exist and build valid Args with their values; overrides apply; unknown names fail."""
    assert {"smoke", "full"} <= set(PRESETS)
    for name in PRESETS:
        args = preset(name)
        assert isinstance(args, Args)
        for key, value in PRESETS[name].items():
            assert getattr(args, key) == value
    assert preset("smoke", total_decisions=10).total_decisions == 10
    assert preset("smoke").total_decisions < preset("full").total_decisions
    with pytest.raises(ValueError, match="unknown preset 'nope'.*smoke"):
        preset("nope")
    with pytest.raises(ValueError, match="gamma"):
        preset("smoke", gamma=0.0)


def test_the_full_preset_uses_bf16_only_where_the_cpu_has_it():
    """The default follows the CPU's flags (training/hardware.py), not one machine's."""
    from training.hardware import native_bf16

    assert preset("full").bf16 == native_bf16()
    with_bf16 = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16\n"
    without = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f\n"
    arm = "processor\t: 0\nFeatures\t: fp asimd bf16\n"
    assert native_bf16(with_bf16) and not native_bf16(without) and not native_bf16(arm)
    assert native_bf16("flags : amx_bf16 amx_tile") and not native_bf16("")


def test_available_memory_is_read_from_the_kernel():
    """MemAvailable (what a new allocation can have, caches counted), not MemFree; None where the
    kernel does not say."""
    from training.hardware import available_memory

    meminfo = "MemTotal:       24683764 kB\nMemFree:          512000 kB\nMemAvailable:   22000000 kB\n"
    assert available_memory(meminfo) == 22000000 * 1024
    assert available_memory("MemTotal: 100 kB\n") is None
    assert (available_memory() or 1) > 0


def test_a_warm_start_after_init_from_needs_a_checkpoint_teacher():
    """init_from then cloning the heuristic would throw the checkpoint away; cloning a checkpoint
    (the accusation warm start) after it is the point; only a checkpoint teacher has beliefs to
    accuse by."""
    with pytest.raises(ValueError, match="init_from and a warm start from the heuristic"):
        Args(init_from="v4", imitation_decisions=100)
    with pytest.raises(ValueError, match="imitation_accuse_at needs a checkpoint imitation_teacher"):
        Args(imitation_decisions=100, imitation_accuse_at=0.9)
    args = Args(init_from="v4", imitation_decisions=100, imitation_teacher="v4", imitation_accuse_at=0.9)
    assert args.imitation_teacher == "v4" and args.imitation_vote_at == 0.5
