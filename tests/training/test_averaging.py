"""Averaging checkpoints (training/averaging.py, `scripts/average.py`): the weights are the mean,
the result seats as a bot, and files that cannot be averaged are refused with the reason."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from rlyeh_env.engine import Role
from rlyeh_env.observation import SEAT_LAYOUT
from rlyeh_env.policy import PolicyBot, load_policies
from rlyeh_env.policy.checkpoint import CheckpointError, load_checkpoint
from training.averaging import average_main, average_policies

from training_testkit import write_policies


def test_the_average_is_the_weighted_mean_of_the_policies(tmp_path):
    a = write_policies(tmp_path / "a.pt", seed=1)
    b = write_policies(tmp_path / "b.pt", seed=2)
    payload = average_policies([tmp_path / "a.pt", tmp_path / "b.pt"], weights=[1, 3])
    for role in ("INVESTIGATOR", "CULTIST"):
        averaged = payload["policies"][role]["weights"]
        assert not any(key.startswith("critic.") for key in averaged)  # a bot needs no value network
        assert set(averaged) == {key for key in a[role] if not key.startswith("critic.")}
        for key, tensor in averaged.items():
            assert torch.allclose(tensor, 0.25 * a[role][key] + 0.75 * b[role][key], atol=1e-6), key
        assert any(not torch.equal(a[role][key], b[role][key]) for key in averaged)  # a mean, not a copy
    assert [entry["weight"] for entry in payload["averaged_from"]] == [0.25, 0.75]
    assert payload["update"] == 2 and payload["decisions"] == 2000  # the newest file's count


def test_the_command_writes_a_file_that_seats_as_a_bot(tmp_path, capsys):
    write_policies(tmp_path / "a.pt", seed=1)
    write_policies(tmp_path / "b.pt", seed=2)
    out = tmp_path / "avg" / "policies.pt"
    assert average_main([str(tmp_path / "a.pt"), str(tmp_path / "b.pt"), "--out", str(out)]) == 0
    assert f"saved {out}" in capsys.readouterr().out
    data = load_checkpoint(out, kind="policy")
    assert [entry["path"] for entry in data["averaged_from"]] == [str(tmp_path / "a.pt"), str(tmp_path / "b.pt")]
    nets = load_policies(out)
    assert set(nets) == {Role.INVESTIGATOR, Role.CULTIST}
    bot = PolicyBot(nets, greedy=True)
    mask = np.zeros(nets[Role.INVESTIGATOR].num_actions, dtype=np.int8)
    mask[3] = 1
    assert bot.act(np.zeros(SEAT_LAYOUT.size, dtype=np.float32), mask) == 3


def test_networks_of_different_shapes_are_refused(tmp_path):
    write_policies(tmp_path / "a.pt", seed=1, hidden=(16,))
    write_policies(tmp_path / "b.pt", seed=2, hidden=(32,))
    with pytest.raises(CheckpointError, match="only checkpoints of one network shape"):
        average_policies([tmp_path / "a.pt", tmp_path / "b.pt"])


@pytest.mark.parametrize("weights, message", [([1], "gives 1 numbers for 2"), ([1, 0], "must all be > 0"),
                                              ([1, float("nan")], "must all be > 0")])
def test_bad_weights_are_refused(tmp_path, weights, message):
    write_policies(tmp_path / "a.pt", seed=1)
    write_policies(tmp_path / "b.pt", seed=2)
    with pytest.raises(ValueError, match=message):
        average_policies([tmp_path / "a.pt", tmp_path / "b.pt"], weights)


def test_a_bad_file_fails_with_the_reason_and_writes_nothing(tmp_path, capsys):
    write_policies(tmp_path / "a.pt", seed=1)
    (tmp_path / "bad.pt").write_bytes(b"not a checkpoint")
    out = tmp_path / "avg.pt"
    assert average_main([str(tmp_path / "a.pt"), str(tmp_path / "bad.pt"), "--out", str(out)]) == 2
    assert "not a readable checkpoint" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("argv, message", [(["A"], "at least two checkpoints"),
                                           (["A", "heuristic"], "is a scripted bot")])
def test_usage_errors(tmp_path, capsys, argv, message):
    write_policies(tmp_path / "a.pt", seed=1)
    argv = [str(tmp_path / "a.pt") if name == "A" else name for name in argv]
    try:
        code = average_main([*argv, "--out", str(tmp_path / "avg.pt")])
    except SystemExit as stop:
        code = stop.code
    assert code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "avg.pt").exists()
