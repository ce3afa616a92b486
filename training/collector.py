"""`Collector`: plays many games in lockstep and records the learners' decisions.

Every game in flight has exactly one pending decision. Each lockstep step gathers the pending
decisions, groups them by the player in the deciding seat, runs one batched forward per network
(bots answer seat by seat), then steps every game. Rewards of a step go to each rewarded seat's
own latest decision (`RolloutBuffer.credit`). A finished game frees its slot for the next one
while games are still wanted; the run ends when every started game has finished, so a rollout
holds complete games only (no value bootstrapping at cut-offs, and nothing in flight to save in
a checkpoint).

Who plays which side of each game comes from a `GameSpec` (config, seed, one player per role);
roles are dealt by the engine at random, so a policy's seats differ every game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.metrics import deal_belief_targets
from rlyeh_env.table import EncoderCache, Table, legal_masks

from .buffer import RolloutBuffer
from .players import NetPlayer, Player


@dataclass
class GameSpec:
    config: GameConfig
    seed: int
    players: dict[Role, Player]  # who plays every seat of each role
    tags: dict = field(default_factory=dict)  # labels for the statistics (e.g. the opponent)


@dataclass(frozen=True)
class FinishedGame:
    tags: dict
    num_players: int
    investigators_won: bool
    decisions: int
    seed: int  # the engine seed: (config, seed, actions) replays the game
    actions: tuple[int, ...]


class _Slot:
    """One game in flight and who sits where."""

    def __init__(self, spec: GameSpec, table: Table, game_id: int, trajectory_base: int):
        self.spec, self.table, self.game_id = spec, table, game_id
        self.players = [spec.players[Role(role)] for role in table.roles]
        self.trajectories = [trajectory_base + s for s in range(table.num_players)]
        self.hidden: list[torch.Tensor | None] = [None] * table.num_players
        self.beliefs = deal_belief_targets(tuple(table.roles.tolist()))
        self.decisions = 0


class Collector:
    def __init__(self, num_slots: int, generator: torch.Generator, central_critic: bool = False):
        self.num_slots = num_slots
        self.generator = generator  # action sampling
        self.central_critic = central_critic
        self._encoders = [EncoderCache() for _ in range(num_slots)]  # one per slot: each follows one game

    def run(
        self,
        next_game: Callable[[int], GameSpec],
        learners: dict[Role, Player] | None = None,
        num_games: int | None = None,
        learner_decisions: int | None = None,
        on_decisions: Callable[[int], None] | None = None,
    ) -> tuple[dict[Role, RolloutBuffer], list[FinishedGame]]:
        """Play games `next_game(0), next_game(1), ...` until `num_games` have started or the
        learners have made `learner_decisions` decisions, then let the started games finish.
        `learners` are the players whose decisions are recorded, per role (a recorded bot gives
        demonstrations). Returns each learner role's buffer and the finished games (in the order
        they ended)."""
        if num_games is None and learner_decisions is None:
            raise ValueError("give num_games or learner_decisions")
        learners = learners or {}
        buffers = {role: RolloutBuffer() for role in learners}
        learner_of = {id(player): role for role, player in learners.items()}
        finished: list[FinishedGame] = []
        started = 0
        made = 0  # learner decisions

        def wanted() -> bool:
            if num_games is not None and started >= num_games:
                return False
            return learner_decisions is None or made < learner_decisions

        def start(index: int) -> _Slot:
            nonlocal started
            spec = next_game(started)
            table = Table(spec.config, spec.seed, self._encoders[index].get(spec.config))
            slot = _Slot(spec, table, started, trajectory_base=started * 8)
            seed_rng = random.Random(spec.seed ^ 0xB075)
            for seat, player in enumerate(slot.players):
                if not isinstance(player, NetPlayer):
                    player.start((slot.game_id, seat), seed_rng.getrandbits(63), spec.config)
                elif player.net.recurrent:
                    slot.hidden[seat] = player.net.initial_state(1)[0]
            started += 1
            return slot

        slots: list[_Slot | None] = [None] * self.num_slots
        for i in range(self.num_slots):
            if wanted():
                slots[i] = start(i)

        while any(slot is not None for slot in slots):
            groups: dict[int, list[int]] = {}
            for i, slot in enumerate(slots):
                if slot is not None:
                    groups.setdefault(id(slot.players[slot.table.decider]), []).append(i)
            actions: dict[int, int] = {}
            for indices in groups.values():
                first = slots[indices[0]]
                player = first.players[first.table.decider]
                role = learner_of.get(id(player))
                if not isinstance(player, NetPlayer):
                    taken = self._ask_bot(player, [slots[i] for i in indices], buffers.get(role))
                else:
                    taken = self._forward(player, [slots[i] for i in indices], buffers.get(role))
                actions.update(zip(indices, taken))
                if role is not None:
                    made += len(indices)
                    if on_decisions is not None:
                        on_decisions(len(indices))

            for i, action in actions.items():
                slot = slots[i]
                rewards = slot.table.step(action)
                slot.decisions += 1
                if rewards.any():
                    for seat in np.flatnonzero(rewards):
                        role = learner_of.get(id(slot.players[seat]))
                        if role is not None:
                            buffers[role].credit(slot.trajectories[seat], float(rewards[seat]))
                if slot.table.over:
                    finished.append(
                        FinishedGame(
                            slot.spec.tags, slot.table.num_players, slot.table.investigators_won, slot.decisions,
                            slot.spec.seed, tuple(slot.table.game.actions),
                        )
                    )
                    for seat, player in enumerate(slot.players):
                        if not isinstance(player, NetPlayer):
                            player.finish((slot.game_id, seat))
                    slots[i] = start(i) if wanted() else None
        return buffers, finished

    def _ask_bot(self, player, group: list[_Slot], buffer: RolloutBuffer | None) -> list[int]:
        """A side player that is not a network of this run (a `ScriptedPlayer`, or a checkpoint
        teacher of the warm start) decides for the group; a recorded one's decisions go to
        `buffer` (demonstrations)."""
        seats = [slot.table.decider for slot in group]
        obs = np.stack([slot.table.observation(seat) for slot, seat in zip(group, seats)])
        masks = np.stack([slot.table.action_mask() for slot in group])
        taken, _ = player.act([(slot.game_id, seat) for slot, seat in zip(group, seats)], obs, masks)
        if buffer is not None:
            targets = [slot.beliefs[seat] for slot, seat in zip(group, seats)]
            extra = {}
            if self.central_critic:
                extra["critic_input"] = np.stack([slot.table.truth(seat) for slot, seat in zip(group, seats)])
            buffer.add(
                [slot.trajectories[seat] for slot, seat in zip(group, seats)],
                **extra,
                obs=obs,
                masks=masks.astype(bool),
                actions=np.asarray(taken, dtype=np.int64),
                values=np.zeros(len(group), dtype=np.float32),
                belief_targets=np.stack([t for t, _ in targets]),
                belief_valid=np.stack([v for _, v in targets]),
            )
        return taken

    def _forward(self, player: NetPlayer, group: list[_Slot], buffer: RolloutBuffer | None) -> list[int]:
        seats = [slot.table.decider for slot in group]
        obs = np.empty((len(group), group[0].table.encoder.size), dtype=np.float32)
        for row, slot, seat in zip(obs, group, seats):
            slot.table.observation(seat, out=row)
        masks = legal_masks([slot.table for slot in group])
        hidden = None
        if player.net.recurrent:
            hidden = torch.stack([slot.hidden[seat] for slot, seat in zip(group, seats)])
        critic_input = None
        if buffer is not None and self.central_critic:
            critic_input = torch.from_numpy(np.stack([slot.table.truth(seat) for slot, seat in zip(group, seats)]))
        obs_t, mask_t = torch.from_numpy(obs), torch.from_numpy(masks)
        out = player.act(obs_t, mask_t, hidden, self.generator, critic_input)
        if out["hidden"] is not None:
            for slot, seat, h in zip(group, seats, out["hidden"]):
                slot.hidden[seat] = h
        if buffer is not None:
            targets = [slot.beliefs[seat] for slot, seat in zip(group, seats)]
            arrays = dict(
                obs=obs,
                masks=masks,
                actions=out["actions"].numpy(),
                log_probs=out["log_probs"].numpy(),
                values=out["values"].numpy(),
                belief_logits=out["belief"].numpy(),
                belief_targets=np.stack([t for t, _ in targets]),
                belief_valid=np.stack([v for _, v in targets]),
            )
            if critic_input is not None:
                arrays["critic_input"] = critic_input.numpy()
            if hidden is not None:
                arrays["hidden"] = hidden.numpy()
            buffer.add([slot.trajectories[seat] for slot, seat in zip(group, seats)], **arrays)
        return out["actions"].tolist()
