"""`training.config`: `Args` validation names the bad field, every field has help, the command line
round-trips every field, and the presets."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from training.config import PRESETS, Args, add_arguments, from_namespace, preset

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
    ("finetune_decisions", -1),
    ("finetune_decisions", 6_000_001),  # more than total_decisions
    ("finetune_heuristic", 1.5),
    ("finetune_investigator_share", -0.1),
    ("rollout_workers", 0),
    ("rollout_workers", 129),  # more than num_games
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


def test_every_field_has_help_text():
    """Every field has help text and a --kebab-case option in --help."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    text = parser.format_help()
    for f in dataclasses.fields(Args):
        assert isinstance(f.metadata.get("help"), str) and len(f.metadata["help"].strip()) >= 5, f.name
        assert "--" + f.name.replace("_", "-") in text, f.name


def _argv(args: Args) -> list[str]:
    """Every field of `args` as command-line options."""
    argv = []
    for f in dataclasses.fields(Args):
        value = getattr(args, f.name)
        argv.append("--" + f.name.replace("_", "-"))
        argv += [str(v) for v in value] if isinstance(value, tuple) else [str(value).lower() if isinstance(value, bool)
                                                                          else str(value)]
    return argv


def _parse(argv: list[str]) -> Args:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return from_namespace(parser.parse_args(argv))


def _changed_value(f: dataclasses.Field):
    """A valid value of field `f` other than its default (the first candidate `Args` accepts)."""
    default = f.default
    if isinstance(default, bool):
        candidates = [not default]
    elif isinstance(default, int):
        candidates = [default + 1, default * 2, 1]
    elif isinstance(default, float):
        candidates = [default / 2, 0.1, 0.05, default + 0.5]
    elif isinstance(default, tuple):
        candidates = [default[:1] if len(default) > 1 else default + default, (7, 8),  # (7, 8): for ()
                      tuple(v / 2 for v in default)]  # halved: for (0.7,)
    else:
        candidates = [default + "-x"]
    for value in candidates:
        if value == default:
            continue
        try:
            return Args(**{f.name: value})
        except ValueError:
            continue
    raise AssertionError(f"no valid non-default value found for {f.name}")


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(Args)])
def test_command_line_round_trip_of_each_field(name):
    """Each field changed from its default, written (with all others) as options, read back identical."""
    changed = _changed_value(next(f for f in dataclasses.fields(Args) if f.name == name))
    assert getattr(changed, name) != getattr(Args(), name)
    assert _parse(_argv(changed)) == changed
    assert _parse(["--preset", "smoke"] + _argv(changed)) == changed


def test_command_line_round_trip_of_many_changes_at_once():
    """Many fields changed together, as options, read back identical."""
    changed = Args(
        run_name="x", runs_dir="elsewhere", seed=7, total_decisions=123, threads=1, checkpoint_every=3,
        eval_every=0, eval_games=5, progress=False, table_sizes=(4, 6), sigil_reward=0.25, num_games=3,
        decisions_per_rollout=99, opponent_latest=0.5, opponent_heuristic=0.1, opponent_random=0.2, pool_size=3,
        snapshot_every=2, hidden=(32, 32), recurrent=True, sequence_length=8, central_critic=True, belief_coef=0.1,
        learning_rate=1e-3, anneal_lr=False, gamma=0.99, gae_lambda=0.9, update_epochs=2, minibatch_size=64,
        clip_coef=0.1, clip_value=False, ent_coef=0.02, vf_coef=0.25, max_grad_norm=1.0, target_kl=0.05,
        finetune_decisions=50, finetune_heuristic=(0.4, 0.5, 0.5, 0.2, 0.1), finetune_investigator_share=0.8,
        finetune_table_sizes=(7, 7, 8),
        bf16=True, rollout_workers=2,
    )
    assert _parse(_argv(changed)) == changed


def test_command_line_applies_given_options_on_the_preset():
    """Options given override the preset; the rest keep its values; booleans parse."""
    args = _parse(["--preset", "smoke", "--hidden", "32", "32", "--clip-value", "false", "--table-sizes", "5"])
    assert args == preset("smoke", hidden=(32, 32), clip_value=False, table_sizes=(5,))
    assert isinstance(args.hidden, tuple) and isinstance(args.table_sizes, tuple)
    assert _parse([]) == preset("full")
    assert _parse(["--finetune-table-sizes", "7", "8"]).finetune_table_sizes == (7, 8)
    assert _parse(["--finetune-table-sizes"]).finetune_table_sizes == ()  # empty: the fine-tune uses table_sizes
    for text, value in (("yes", True), ("1", True), ("off", False), ("False", False)):
        assert _parse(["--anneal-lr", text]).anneal_lr is value


@pytest.mark.parametrize("argv", [["--recurrent", "maybe"], ["--preset", "huge"], ["--hidden"], ["--seed", "x"]])
def test_command_line_errors_exit_with_usage(argv, capsys):
    """Bad booleans, unknown presets, missing or mistyped values: argparse exits 2."""
    with pytest.raises(SystemExit) as info:
        _parse(argv)
    assert info.value.code == 2
    assert "error" in capsys.readouterr().err


def test_command_line_validation_errors_name_the_field():
    """A value argparse accepts but Args refuses raises ValueError naming it."""
    with pytest.raises(ValueError, match="gamma"):
        _parse(["--gamma", "2"])


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
