"""Checkpoints: what is saved plays exactly as the trainer's networks (policy export and training
checkpoint), every kind of unusable file raises `CheckpointError` saying why, and writes are atomic."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.policy.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from training.config import Args
from rlyeh_env.policy.bot import PolicyBot, load_policies
from rlyeh_env.table import Table
from training.trainer import Trainer


def _trainer(tmp_path, recurrent: bool = False, central_critic: bool = False, shared_trunk: bool = False) -> Trainer:
    args = Args(hidden=(16,), recurrent=recurrent, central_critic=central_critic, shared_trunk=shared_trunk,
                threads=1, progress=False, eval_every=0, runs_dir=str(tmp_path), run_name="ckpt")
    trainer = Trainer(args)
    with torch.no_grad():  # weights far from the initialisation, so every layer matters
        for net in trainer.nets.values():
            for p in net.parameters():
                p.add_(torch.randn_like(p) * 0.3)
    return trainer


def _decisions(count: int = 120) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) of the decider at every step of a few random games, roles mixed."""
    out = []
    for seed in range(6):
        table = Table(GameConfig(num_players=4 + seed % 5), seed)
        pick = random.Random(seed)
        while not table.over and len(out) < count * (seed + 1) // 6:
            out.append((table.observation(table.decider), table.action_mask()))
            table.step(pick.choice(table.legal_actions()))
    return out


def _probabilities(net, decisions) -> torch.Tensor:
    """Action probabilities of a feed-forward net, one row per decision."""
    obs = torch.from_numpy(np.stack([o for o, _ in decisions]))
    mask = torch.from_numpy(np.stack([m for _, m in decisions])).bool()
    with torch.no_grad():
        logits, _ = net.heads(net.features(obs)[0], mask)
    return torch.softmax(logits, -1)


@pytest.mark.parametrize("central_critic,shared_trunk", [(False, False), (True, False), (False, True)],
                         ids=["own-value-trunk", "central", "shared-trunk"])
def test_saved_policies_give_identical_probabilities(tmp_path, central_critic, shared_trunk):
    """Both files (`export_policies` and the training checkpoint) rebuild both policies exactly."""
    trainer = _trainer(tmp_path, central_critic=central_critic, shared_trunk=shared_trunk)
    trainer.export_policies(tmp_path / "policies.pt")
    trainer.save(tmp_path / "checkpoint.pt")
    decisions = _decisions()
    for name in ("policies.pt", "checkpoint.pt"):
        nets = load_policies(tmp_path / name)
        for role in (Role.INVESTIGATOR, Role.CULTIST):
            assert not nets[role].training
            assert nets[role].shared_trunk == shared_trunk
            assert torch.equal(_probabilities(nets[role], decisions), _probabilities(trainer.nets[role], decisions))
    policy = load_checkpoint(tmp_path / "policies.pt", kind="policy")
    assert not any(k.startswith("critic.") for k in policy["policies"]["CULTIST"]["weights"])


@pytest.mark.parametrize("recurrent", [False, True])
def test_policy_bot_from_either_file_plays_as_the_trainer(tmp_path, recurrent):
    """Greedy bots pick the trainer network's most probable legal action (of the observer's role);
    sampling bots seeded alike make the same draws from either file."""
    trainer = _trainer(tmp_path, recurrent=recurrent)
    trainer.export_policies(tmp_path / "policies.pt")
    trainer.save(tmp_path / "checkpoint.pt")
    decisions = _decisions()
    role_of = [Role(int(obs[1] > 0.5)) for obs, _ in decisions]
    assert set(role_of) == {Role.INVESTIGATOR, Role.CULTIST}

    reference = PolicyBot(trainer.nets, greedy=True)
    expected = [reference.act(obs, mask) for obs, mask in decisions]
    if not recurrent:  # the greedy action is the argmax of the right role's probabilities
        for (obs, mask), action, role in zip(decisions, expected, role_of):
            assert action == int(_probabilities(trainer.nets[role], [(obs, mask)]).argmax())
    sampled = {}
    for name in ("policies.pt", "checkpoint.pt"):
        greedy = PolicyBot.from_checkpoint(tmp_path / name, greedy=True)
        assert [greedy.act(obs, mask) for obs, mask in decisions] == expected
        sampler = PolicyBot.from_checkpoint(tmp_path / name, seed=11)
        sampled[name] = [sampler.act(obs, mask) for obs, mask in decisions]
        assert all(mask[a] for a, (_, mask) in zip(sampled[name], decisions))
    assert sampled["policies.pt"] == sampled["checkpoint.pt"]
    assert sampled["policies.pt"] != expected, "sampling differs from greedy somewhere (else vacuous)"


def test_policy_bot_role_can_be_fixed(tmp_path):
    """`role=` uses that policy whatever the observation says."""
    trainer = _trainer(tmp_path)
    trainer.export_policies(tmp_path / "policies.pt")
    decisions = _decisions(60)
    for role in (Role.INVESTIGATOR, Role.CULTIST):
        bot = PolicyBot.from_checkpoint(tmp_path / "policies.pt", role=role, greedy=True)
        expected = _probabilities(trainer.nets[role], decisions).argmax(-1).tolist()
        assert [bot.act(obs, mask) for obs, mask in decisions] == expected


# -- files that cannot be used -------------------------------------------------------------------


@pytest.fixture
def good(tmp_path):
    trainer = _trainer(tmp_path)
    trainer.export_policies(tmp_path / "good.pt")
    return tmp_path / "good.pt"


def _raises_checkpoint_error(path, match: str, loader=load_checkpoint):
    with pytest.raises(CheckpointError, match=match) as info:
        loader(path)
    assert str(path) in str(info.value)
    return info.value


def test_missing_file(tmp_path):
    """A missing path (or a directory) is named as such, by the loader and by PolicyBot."""
    _raises_checkpoint_error(tmp_path / "nope.pt", "no checkpoint file")
    _raises_checkpoint_error(tmp_path, "no checkpoint file")  # a directory
    _raises_checkpoint_error(tmp_path / "nope.pt", "no checkpoint file", PolicyBot.from_checkpoint)


def test_corrupt_file(tmp_path):
    """Random bytes and an empty file: CheckpointError, not torch's unpickling errors."""
    path = tmp_path / "random.pt"
    path.write_bytes(np.random.default_rng(0).bytes(4096))
    _raises_checkpoint_error(path, "not a readable checkpoint")
    _raises_checkpoint_error(path, "not a readable checkpoint", PolicyBot.from_checkpoint)
    empty = tmp_path / "empty.pt"
    empty.write_bytes(b"")
    _raises_checkpoint_error(empty, "not a readable checkpoint")


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.95])
def test_truncated_file(good, fraction):
    """A checkpoint cut short anywhere: CheckpointError, not torch's zip errors."""
    data = good.read_bytes()
    good.write_bytes(data[: int(len(data) * fraction)])
    _raises_checkpoint_error(good, "not a readable checkpoint")


def test_torch_file_that_is_not_a_checkpoint(tmp_path):
    """A list, a dict without format/policies, a bare tensor: not an rlyeh-env checkpoint."""
    for k, payload in enumerate(([1, 2, 3], {"weights": torch.zeros(3)}, torch.ones(2))):
        path = tmp_path / f"foreign{k}.pt"
        torch.save(payload, path)
        _raises_checkpoint_error(path, "not an rlyeh-env checkpoint")


def test_changed_layout_signature(good):
    """A file trained on another observation layout is refused, saying which entries differ."""
    data = torch.load(good, weights_only=True)
    data["layout"] = {**data["layout"], "digest": "0123456789abcdef", "observation_size": 999}
    torch.save(data, good)
    error = _raises_checkpoint_error(good, "another observation/action layout")
    assert "digest" in str(error) and "999" in str(error)
    _raises_checkpoint_error(good, "another observation/action layout", PolicyBot.from_checkpoint)


def test_files_trained_under_other_rules_are_refused(good, tmp_path, monkeypatch):
    """A file stamped with another rules version (or none, which means 1: files before the stamp)
    is refused once the engine's default rules have changed, saying what to do."""
    from rlyeh_env.engine import config as rules

    current = rules.RULES_VERSION
    assert torch.load(good, weights_only=True)["rules_version"] == current
    unstamped = tmp_path / "unstamped.pt"  # as the files written before the stamp (v0's)
    data = torch.load(good, weights_only=True)
    del data["rules_version"]
    torch.save(data, unstamped)
    monkeypatch.setattr(rules, "RULES_VERSION", 1)
    assert load_checkpoint(unstamped)
    for path, trained_under, plays in ((unstamped, 1, current), (good, current, current + 1)):
        monkeypatch.setattr(rules, "RULES_VERSION", plays)
        error = _raises_checkpoint_error(path, f"trained under rules version {trained_under}")
        assert f"plays rules version {plays}" in str(error) and "retrain" in str(error)
    _raises_checkpoint_error(good, "trained under rules version", PolicyBot.from_checkpoint)


def test_other_format_kind_or_missing_policy(good, tmp_path):
    """Another format number, a missing role, a policy file where a training one is needed."""
    data = torch.load(good, weights_only=True)
    for name, change, match in (
        ("format.pt", {"format": 99}, "format 99"),
        ("nopolicy.pt", {"policies": {"INVESTIGATOR": data["policies"]["INVESTIGATOR"]}}, "lacks the cultist"),
    ):
        torch.save({**data, **change}, tmp_path / name)
        _raises_checkpoint_error(tmp_path / name, match)
    with pytest.raises(CheckpointError, match="'policy' checkpoint; a 'training' one is needed"):
        Trainer.resume(good)


def test_weights_that_do_not_fit_the_network(good):
    """A spec that does not match the stored weights: CheckpointError naming the role."""
    data = torch.load(good, weights_only=True)
    data["policies"]["CULTIST"]["spec"]["hidden"] = [32]
    torch.save(data, good)
    _raises_checkpoint_error(good, "cultist policy does not fit", load_policies)


# -- atomic writes -------------------------------------------------------------------------------


def _leftovers(folder) -> list[str]:
    return [name for name in os.listdir(folder) if name.endswith(".tmp")]


def test_writes_leave_no_temporary_files(tmp_path):
    """Writing (and overwriting) checkpoints leaves exactly the checkpoint files."""
    trainer = _trainer(tmp_path)
    for _ in range(2):  # the second write replaces the first
        trainer.save(tmp_path / "run" / "checkpoint.pt")
        trainer.export_policies(tmp_path / "run" / "policies.pt")
    assert sorted(os.listdir(tmp_path / "run")) == ["checkpoint.pt", "league.json", "policies.pt"]
    assert load_checkpoint(tmp_path / "run" / "checkpoint.pt", kind="training")["update"] == 0


@pytest.mark.parametrize("error", [RuntimeError("disk full"), KeyboardInterrupt()])
def test_failed_write_keeps_the_old_file(good, monkeypatch, error):
    """torch.save failing half-way (or interrupted) leaves the old file intact and no temp file."""
    old = good.read_bytes()

    def broken_save(obj, f, *args, **kwargs):
        f.write(b"half a checkpoint")
        raise error

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(type(error)):
        save_checkpoint(good, {"kind": "policy", "policies": {}})
    monkeypatch.undo()
    assert good.read_bytes() == old
    assert _leftovers(good.parent) == []
    assert load_checkpoint(good, kind="policy")["kind"] == "policy"


@pytest.mark.parametrize("change", [{"layout": "v2"}, {"layout": None}, {"policies": 5}],
                         ids=["layout-str", "layout-none", "policies-int"])
def test_malformed_entries_raise_checkpoint_error(good, change):
    """A loadable dict with a non-dict layout or policies entry is still a CheckpointError."""
    data = torch.load(good, weights_only=True)
    torch.save({**data, **change}, good)
    with pytest.raises(CheckpointError):
        load_checkpoint(good)
