"""`Matchmaker`: draws every training game's table and who plays each side.

Per game (all draws from the trainer's own generator):

- the table size, uniformly from `table_sizes` (in the fine-tune from `finetune_table_sizes`, when
  given);
- the opposing side's kind: both sides are the latest learners with probability
  `opponent_latest`; otherwise one side, chosen with probability 1/2 each, is played by the
  learner and the other by the heuristic bot (`opponent_heuristic`), the random bot
  (`opponent_random`) or a past snapshot of that side's policy drawn uniformly from the pool
  (the remaining probability). With the pool still empty, a pool draw plays the latest learner.

During the scripted fine-tune (the run's last `finetune_decisions`, switched on by the trainer
through `finetune`), the opposing side is always a scripted bot: the heuristic bot with
probability `finetune_heuristic` (one value, or one per table size), else the random bot; the
learner takes the investigators' side with probability `finetune_investigator_share` (else the
cultists').

Snapshots of both learners join the pool every `snapshot_every` updates; the oldest leaves
once the pool holds `pool_size` per role. Playing against the past keeps self-play from cycling.
"""

from __future__ import annotations

import copy
import random

import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.policy.network import ActorCritic

from .collector import GameSpec
from .config import Args
from .players import ROLES, BotPlayer, NetPlayer


class Matchmaker:
    def __init__(self, args: Args, learners: dict[Role, NetPlayer], rng: random.Random):
        self.args, self.learners, self.rng = args, learners, rng
        self.bots = {"heuristic": BotPlayer("heuristic"), "random": BotPlayer("random")}
        self.pool: dict[Role, list[NetPlayer]] = {role: [] for role in ROLES}
        sizes = sorted(set(args.table_sizes) | set(args.finetune_table_sizes))  # either phase's tables
        self.configs = {n: GameConfig(num_players=n, sigil_reward=args.sigil_reward) for n in sizes}
        self.finetune = False  # set by the trainer for the run's last `finetune_decisions`
        self.pool_version = 0  # changes whenever the pool does (rollout workers keep a copy)

    def opponent_probabilities(self, num_players: int) -> tuple[float, float, float]:
        """(both sides latest, heuristic opposing side, random opposing side) at a table of this
        size in the current phase; the rest draws from the pool."""
        if self.finetune:
            heuristic = self.args.finetune_heuristic_at(num_players)
            return 0.0, heuristic, 1.0 - heuristic
        return self.args.opponent_probabilities()

    def add_snapshots(self, name: str) -> None:
        """Freeze a copy of both learners into the pool."""
        for role in ROLES:
            self._add(role, copy.deepcopy(self.learners[role].net), name)

    def _add(self, role: Role, net: ActorCritic, name: str) -> None:
        if self.args.pool_size == 0:
            return
        net.requires_grad_(False)
        self.pool_version += 1
        self.pool[role].append(NetPlayer(net, f"{role.name.lower()}@{name}"))
        del self.pool[role][: -self.args.pool_size]

    def __call__(self, index: int) -> GameSpec:
        rng, args = self.rng, self.args
        config = self.configs[rng.choice(args.sizes(self.finetune))]
        seed = rng.getrandbits(63)
        players = dict(self.learners)
        latest, heuristic, random_ = self.opponent_probabilities(config.num_players)
        u = rng.random()
        if u < latest:
            return GameSpec(config, seed, players, {"learner": "both", "opponent": "latest"})
        if self.finetune:
            investigators = rng.random() < self.args.finetune_investigator_share
            learner_side = Role.INVESTIGATOR if investigators else Role.CULTIST
        else:
            learner_side = rng.choice(ROLES)
        other = Role.CULTIST if learner_side == Role.INVESTIGATOR else Role.INVESTIGATOR
        u -= latest
        if u < heuristic:
            kind = "heuristic"
        elif self.finetune or u < heuristic + random_:  # (the fine-tune's two shares may not add to 1 exactly)
            kind = "random"
        else:
            kind = "pool"
        if kind == "pool":
            if self.pool[other]:
                players[other] = rng.choice(self.pool[other])
            else:
                kind = "latest"
        else:
            players[other] = self.bots[kind]
        return GameSpec(config, seed, players, {"learner": learner_side.name.lower(), "opponent": kind})

    # -- checkpoints ------------------------------------------------------------------------------

    def state_dict(self) -> dict:
        return {
            role.name: [(p.name, p.net.state_dict()) for p in self.pool[role]] for role in ROLES
        }

    def load_state_dict(self, state: dict) -> None:
        self.pool_version += 1
        for role in ROLES:
            self.pool[role] = []
            for name, weights in state[role.name]:
                net = copy.deepcopy(self.learners[role].net)
                net.load_state_dict(weights)
                net.requires_grad_(False)
                self.pool[role].append(NetPlayer(net, name))
