"""The warm start (`training.imitation`): recorded bots give demonstrations along each seat's own
trajectory, cloning learns them, a checkpoint teacher demonstrates the accusations its beliefs
call for, and only feed-forward policies may clone."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import VoteKind
from rlyeh_env.observation import SEAT_LAYOUT
from rlyeh_env.players import PolicyCache
from training.config import Args
from training.commands import train_main
from training.imitation import check_demonstrations_fit, clone_update, demonstration_bytes, imitate, teachers
from rlyeh_env.players import ScriptedPlayer
from rlyeh_env.table import Table
from training.trainer import Trainer
from training_testkit import collect, tiny_net


def test_recorded_bots_give_demonstrations_on_their_own_trajectories():
    """Each seat's recorded actions are the actions it took in the game; values are zero."""
    config = GameConfig(num_players=6, sigil_reward=0.1)
    bots = {role: ScriptedPlayer("heuristic") for role in (Role.INVESTIGATOR, Role.CULTIST)}
    buffers, finished, _ = collect(bots, config, games=3, slots=2, record=bots)
    assert sum(len(b) for b in buffers.values()) == sum(g.decisions for g in finished)
    for game in finished:
        table = Table(config, game.seed)
        by_seat: dict[int, list[int]] = {}
        for action in game.actions:
            by_seat.setdefault(table.decider, []).append(action)
            table.step(action)
        for seat, actions in by_seat.items():
            buffer = buffers[Role(int(table.roles[seat]))]
            rows = [i for i, t in enumerate(buffer.trajectory) if t == game.tags["index"] * 8 + seat]
            assert buffer.array("actions")[rows].tolist() == actions
    for buffer in buffers.values():
        assert not buffer.array("values").any()
        masks, actions = buffer.array("masks"), buffer.array("actions")
        assert masks[range(len(actions)), actions].all(), "every demonstrated action is legal"


@pytest.mark.parametrize("central_critic", [False, True])
def test_cloning_learns_the_demonstrations(central_critic):
    """The imitation loss falls and the accuracy rises; the value net (on the truth with a central
    critic) is trained too; the PPO learning rate is restored afterwards."""
    config = GameConfig(num_players=5)
    bots = {role: ScriptedPlayer("heuristic") for role in (Role.INVESTIGATOR, Role.CULTIST)}
    buffers, _, _ = collect(bots, config, games=12, slots=4, record=bots, central_critic=central_critic)
    args = Args(hidden=(32,), imitation_epochs=15, imitation_minibatch_size=64, imitation_lr=3e-3,
                central_critic=central_critic)
    net = tiny_net(0, hidden=(32,), central_critic=central_critic)
    critic_before = [p.clone() for p in net.critic.parameters()]
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    batch = buffers[Role.INVESTIGATOR].finish(args.gamma, 1.0)
    assert ("critic_input" in batch) == central_critic
    rows = clone_update(net, optimizer, batch, args, torch.Generator().manual_seed(0))
    assert len(rows) == args.imitation_epochs
    assert rows[-1]["imitation_loss"] < 0.7 * rows[0]["imitation_loss"]
    assert rows[-1]["imitation_accuracy"] > rows[0]["imitation_accuracy"]
    assert rows[-1]["value_loss"] < rows[0]["value_loss"]
    assert any(not torch.equal(a, b) for a, b in zip(critic_before, net.critic.parameters()))
    assert optimizer.param_groups[0]["lr"] == args.learning_rate, "the PPO learning rate is restored"


def test_imitation_needs_a_feed_forward_policy(tmp_path):
    """Cloning trains on single decisions: a recurrent policy is refused by `Args` and by `imitate`."""
    with pytest.raises(ValueError, match="imitation_decisions"):
        Args(imitation_decisions=10, recurrent=True)
    trainer = Trainer(Args(hidden=(8,), threads=1, runs_dir=str(tmp_path), recurrent=True))
    with pytest.raises(ValueError, match="feed-forward"):
        imitate(trainer, progress=False)


def test_a_warm_start_that_would_not_fit_in_memory_is_refused_before_any_game(tmp_path, capsys):
    """The demonstrations are all held at once: asking for more than the memory holds is refused
    with the most that fits, as the train command's one-line error, before the run starts."""
    args = Args(hidden=(8,), threads=1, runs_dir=str(tmp_path), imitation_decisions=1_000_000)
    per_decision = demonstration_bytes(args)
    assert 2 * 4 * SEAT_LAYOUT.size < per_decision < 3 * 4 * SEAT_LAYOUT.size  # the observations, joined once
    assert demonstration_bytes(dataclasses.replace(args, central_critic=True)) > per_decision
    check_demonstrations_fit(args, None)  # unknown memory: not checked
    check_demonstrations_fit(args, 1_000_000 * per_decision)
    with pytest.raises(ValueError, match=r"imitation_decisions=1,000,000 .* at most about 500,000"):
        check_demonstrations_fit(args, 500_000 * per_decision)
    assert train_main(["--runs-dir", str(tmp_path), "--preset", "smoke", "--imitation-decisions", "10000000000"]) == 2
    assert "error: imitation_decisions=10,000,000,000 keeps about" in capsys.readouterr().err
    assert not (tmp_path / "smoke").exists()


def test_a_checkpoint_teacher_demonstrates_the_accusations_its_beliefs_call_for():
    """With imitation_accuse_at, wherever the teacher may accuse and its belief head (the
    checkpoint's own network, recomputed here) is sure enough of a seat, the demonstration accuses
    the surest seat; the cultists' teacher is the checkpoint's own policy."""
    args = Args(imitation_decisions=100, imitation_teacher="v4", imitation_accuse_at=0.6)
    players = teachers(args)
    assert "accuses-at-0.6" in players[Role.INVESTIGATOR].name and "accuses" not in players[Role.CULTIST].name
    buffers, _, _ = collect(players, GameConfig(num_players=5), games=6, slots=3, record=players)
    batch = buffers[Role.INVESTIGATOR]
    obs, masks, actions = batch.array("obs"), batch.array("masks"), batch.array("actions")
    net = PolicyCache().policies("v4")[Role.INVESTIGATOR]
    with torch.no_grad():
        _, beliefs = net.heads(net.features(torch.from_numpy(obs))[0], torch.from_numpy(masks))
    sure = torch.sigmoid(beliefs).numpy()
    accusable = masks[:, A.ACCUSE:A.ACCUSE + A.MAX_OFFSET]
    best = np.where(accusable, sure, -1.0)
    due = best.max(axis=1) >= 0.6
    assert due.sum() >= 3, "the test needs decisions where an accusation is due"
    assert (actions[due] == A.ACCUSE + best[due].argmax(axis=1)).all()


def test_a_bluffing_teacher_cultist_accuses_at_its_rate_and_votes_yes_on_accusations():
    """With imitation_cultist_accuse_rate, the teacher's cultists (here the heuristic's) accuse a
    legal seat about that often where they may accuse, and vote Yes on every accusation vote
    (random investigators here, who accuse often, so that there are votes to see)."""
    args = Args(imitation_decisions=100, imitation_cultist_accuse_rate=0.5)
    players = teachers(args)
    assert "bluffs-at-0.5" in players[Role.CULTIST].name and "bluffs" not in players[Role.INVESTIGATOR].name
    players[Role.INVESTIGATOR] = ScriptedPlayer("random")
    buffers, _, _ = collect(players, GameConfig(num_players=6), games=30, slots=6, record=players)
    batch = buffers[Role.CULTIST]
    obs, masks, actions = batch.array("obs"), batch.array("masks"), batch.array("actions")
    may_accuse = masks[:, A.ACCUSE:A.ACCUSE + A.MAX_OFFSET].any(axis=1)
    accused = (actions >= A.ACCUSE) & (actions < A.ACCUSE + A.MAX_OFFSET)
    assert may_accuse.sum() >= 20, "the test needs decisions where the cultist may accuse"
    assert 0.3 <= accused[may_accuse].mean() <= 0.7, "about half of them accuse (the heuristic alone hardly ever does)"
    assert masks[np.arange(len(actions)), actions].all(), "every accusation names a legal seat"
    vote_kind = SEAT_LAYOUT["decision.vote_kind"].start + VoteKind.ACCUSATION
    on_accusation = masks[:, A.VOTE_YES].astype(bool) & (obs[:, vote_kind] > 0.5)
    assert on_accusation.sum() >= 1 and (actions[on_accusation] == A.VOTE_YES).all()
