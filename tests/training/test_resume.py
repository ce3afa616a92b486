"""Resuming: two updates in one go and one update, save, `Trainer.resume`, one more update end in
exactly the same state (weights, optimizer, opponent pool, generators, counts); the `--resume`
command line applies only the options given on top of the run's own settings."""

from __future__ import annotations

import pytest
import torch

from rlyeh_env.policy.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from training.commands import train_main
from training.config import preset
from training.opponents import ROLES
from training.trainer import Trainer


def _args(tmp_path, **changes):
    settings = dict(
        total_decisions=100_000, eval_every=0, progress=False, runs_dir=str(tmp_path), threads=1, hidden=(16,),
        num_games=8, decisions_per_rollout=300, minibatch_size=128, update_epochs=2, imitation_decisions=0,
    )
    return preset("smoke", **{**settings, **changes})


# Self-play with the whole league: hard PFSP over recorded win rates, per-rollout opponents, and
# exploiters that join the league (and start over) after every update, and anchors that stay.
LEAGUE = dict(opponent_latest=0.2, opponent_heuristic=0.0, opponent_random=0.0, pfsp="hard", exploiter_share=0.3,
              exploiter_period=1, league_opponents_per_rollout=2, league_anchors=("warm-start", "untrained"))


def _same(a, b, where: str = "") -> None:
    """Recursive exact equality of nested dicts/lists of tensors and plain values."""
    if isinstance(a, torch.Tensor):
        assert isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b), where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{k}]")
    else:
        assert a == b, where


def _assert_same_trainer(a: Trainer, b: Trainer) -> None:
    assert (a.update, a.decisions) == (b.update, b.decisions)
    for role in ROLES:
        _same(a.nets[role].state_dict(), b.nets[role].state_dict(), f"{role.name} weights")
        _same(a.optimizers[role].state_dict(), b.optimizers[role].state_dict(), f"{role.name} optimizer")
    assert a.exploiters.keys() == b.exploiters.keys()
    for role in a.exploiters:
        _same(a.exploiters[role].net.state_dict(), b.exploiters[role].net.state_dict(), f"{role.name} exploiter")
        _same(a.exploiter_optimizers[role].state_dict(), b.exploiter_optimizers[role].state_dict(),
              f"{role.name} exploiter optimizer")
    _same(a.matchmaker.state_dict(), b.matchmaker.state_dict(), "league")  # entries, kinds, records, weights
    assert a.rng.getstate() == b.rng.getstate()
    assert torch.equal(a.sample_generator.get_state(), b.sample_generator.get_state())
    assert torch.equal(a.shuffle_generator.get_state(), b.shuffle_generator.get_state())
    for x, y in zip(a.history, b.history):
        assert {k: v for k, v in x.items() if "per_second" not in k and "fraction" not in k} == {
            k: v for k, v in y.items() if "per_second" not in k and "fraction" not in k
        }


@pytest.mark.parametrize(
    "changes",
    [{}, {"recurrent": True, "sequence_length": 4, "central_critic": True}, {"rollout_workers": 2},
     {"shared_trunk": True}, LEAGUE, {**LEAGUE, "rollout_workers": 2}],
    ids=["feedforward", "recurrent-central", "rollout-workers", "shared-trunk", "league", "league-workers"],
)
def test_resume_continues_bit_for_bit(tmp_path, changes):
    """Weights, optimizer state, pool, generators, counts and figures match exactly."""
    args = _args(tmp_path, **changes)
    straight = Trainer(args)
    straight.train_one_update()
    straight.train_one_update()

    first = Trainer(args)
    first.train_one_update()
    path = tmp_path / "checkpoint.pt"
    first.save(path)
    del first
    torch.manual_seed(12345)  # the global generator is part of what the checkpoint restores
    resumed = Trainer.resume(path)
    assert (resumed.update, len(resumed.history)) == (1, 1)
    assert resumed.matchmaker.league.entries[ROLES[0]], "the smoke preset snapshots every update: the league is in use"
    resumed.train_one_update()

    assert straight.decisions >= 2 * args.decisions_per_rollout
    _assert_same_trainer(straight, resumed)
    assert resumed.args == args


def test_resume_applies_overrides(tmp_path):
    """`Trainer.resume(path, total_decisions=...)` keeps the rest of the run's settings."""
    args = _args(tmp_path)
    trainer = Trainer(args)
    trainer.train_one_update()
    trainer.save(tmp_path / "checkpoint.pt")
    resumed = Trainer.resume(tmp_path / "checkpoint.pt", total_decisions=200_000)
    assert resumed.args == args.replace(total_decisions=200_000)
    assert resumed.decisions == trainer.decisions


def test_resume_from_the_command_line(tmp_path, capsys):
    """`train --resume CHECKPOINT --total-decisions N` keeps the run's settings (not the default
    preset's) and trains on to N."""
    args = _args(tmp_path)
    trainer = Trainer(args)
    trainer.train_one_update()
    path = tmp_path / args.run_name / "checkpoint.pt"
    trainer.save(path)
    target = trainer.decisions + 1
    assert train_main(["--resume", str(path), "--total-decisions", str(target)]) == 0
    assert "run folder" in capsys.readouterr().out
    after = Trainer.resume(path)
    assert after.args == args.replace(total_decisions=target)
    assert after.update == 2 and after.decisions >= target


def test_resume_of_a_missing_or_wrong_file_is_a_clean_error(tmp_path, capsys):
    """A missing file or a policy file: exit code 2 and the reason on stderr."""
    assert train_main(["--resume", str(tmp_path / "missing.pt")]) == 2
    assert "no checkpoint file" in capsys.readouterr().err
    trainer = Trainer(_args(tmp_path))
    trainer.export_policies(tmp_path / "policies.pt")
    assert train_main(["--resume", str(tmp_path / "policies.pt")]) == 2
    assert "a 'training' one is needed" in capsys.readouterr().err


def _saved_run(tmp_path, **changes):
    trainer = Trainer(_args(tmp_path, **changes))
    path = tmp_path / "checkpoint.pt"
    trainer.save(path)
    return path


def test_resume_override_is_validated_against_the_runs_own_settings(tmp_path, capsys):
    """The run has latest 0.2, heuristic 0.2: adding random 0.5 is valid (0.9 <= 1) for it, but
    not on top of the full preset's 0.4 + 0.4."""
    path = _saved_run(tmp_path, opponent_latest=0.2, opponent_heuristic=0.2)
    Trainer.resume(path, opponent_random=0.5)  # the API accepts it
    code = train_main(["--resume", str(path), "--opponent-random", "0.5", "--total-decisions", "1"])
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize("change", [{"hidden": (8,)}, {"recurrent": True}, {"central_critic": True},
                                    {"shared_trunk": True}],
                         ids=["hidden", "recurrent", "central_critic", "shared_trunk"])
def test_resume_with_another_network_shape_is_a_clean_error(tmp_path, change):
    """An override that changes the network's shape is refused with a clear error."""
    path = _saved_run(tmp_path)
    with pytest.raises((CheckpointError, ValueError)):
        Trainer.resume(path, **change)


def test_a_checkpoint_from_before_the_shared_trunk_option_resumes(tmp_path):
    """Runs saved before `shared_trunk` existed have their own value trunk: they resume as such, and
    asking for a shared trunk is refused like any other change of shape."""
    path = _saved_run(tmp_path)
    data = load_checkpoint(path, kind="training")
    del data["args"]["shared_trunk"]
    save_checkpoint(path, data)
    assert Trainer.resume(path, shared_trunk=False).args.shared_trunk is False
    with pytest.raises(CheckpointError, match="shared_trunk"):
        Trainer.resume(path, shared_trunk=True)


def test_resume_command_with_another_network_shape_exits_cleanly(tmp_path, capsys):
    """`train --resume CKPT --hidden 8` exits 2 with a message, not a traceback."""
    path = _saved_run(tmp_path)
    assert train_main(["--resume", str(path), "--hidden", "8"]) == 2
    assert "error" in capsys.readouterr().err


def test_warm_start_is_not_repeated_on_resume(tmp_path, monkeypatch):
    """The heuristic is cloned once, before update 1; a resumed run goes straight on with PPO."""
    args = _args(tmp_path, imitation_decisions=200, imitation_epochs=1, total_decisions=600)
    trainer = Trainer(args)
    trainer.train(max_updates=1)
    assert trainer.imitated >= 200 and trainer.update == 1
    resumed = Trainer.resume(trainer.run_dir / "checkpoint.pt")
    assert resumed.imitated == trainer.imitated

    import training.imitation

    def no_more(*_args, **_kwargs):
        raise AssertionError("the warm start ran again")

    monkeypatch.setattr(training.imitation, "imitate", no_more)
    resumed.train(max_updates=1)
    assert resumed.update == 2


def test_resume_with_a_preset_is_refused(tmp_path, capsys):
    """`--preset` starts a new run; given with `--resume` it is an error (exit code 2), not silently ignored."""
    path = _saved_run(tmp_path)
    assert train_main(["--resume", str(path), "--preset", "smoke"]) == 2
    assert "--preset starts a new run" in capsys.readouterr().err
