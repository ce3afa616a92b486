"""`Matchmaker`: draws every training game's table and who plays each side.

Per game (all draws from the trainer's own generator):

- the table size, uniformly from `table_sizes` (in the fine-tune from `finetune_table_sizes`, when
  given);
- with probability `exploiter_share`, an exploiter game: one role's exploiter (chosen 1/2 each)
  against the latest main learner of the other role (AlphaStar's main exploiters: they train
  against the main learners only, then join the league, training/league.py);
- otherwise the opposing side's kind: both sides are the latest main learners with probability
  `opponent_latest`; else one side, chosen with probability 1/2 each, is played by the main
  learner (of a side in `learner_sides`) and the other by the heuristic bot (`opponent_heuristic`), the random bot
  (`opponent_random`) or an entry of the league of that side (the remaining probability), drawn
  by prioritised fictitious self-play from the win rates the league records
  (`pfsp`, `pfsp_power`; with `pfsp_by_size`, at the table size where the learner does worst,
  read against the league's rate there with `pfsp_size_relative`). With the league still empty,
  a pool draw plays the latest learner. With `snapshot_bluffs`, each cultist snapshot joins the
  league beside its bluffing twin.
  With `league_opponents_per_rollout` K > 0, the PFSP draws happen once per rollout (K per role,
  when the collector asks for its first game) and that rollout's pool games choose among the K
  uniformly: the same distribution over rollouts, with each network's forwards in big batches.
  With `league_anchor_share`, that share of pool games draws among the league's anchors alone (per
  rollout: one anchor per role).

During the scripted fine-tune (the run's last `finetune_decisions`, switched on by the trainer
through `finetune`), the opposing side is always a scripted bot: the heuristic bot with
probability `finetune_heuristic` (one value, or one per table size), else the random bot; the
learner takes the investigators' side with probability `finetune_investigator_share` (else the
cultists').

An exploitability run (`opponents_from`) has a fixed league: the two policies of that checkpoint,
nothing else joins, and every game is a main learner against the fixed other side.

The game's tags say who played: `learner` (investigator, cultist, both, investigator_exploiter,
cultist_exploiter), `opponent` (latest, heuristic, random, pool, main) and, for pool games,
`opponent_name`; `record` reads them back to keep the league's win rates.
"""

from __future__ import annotations

import random

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.policy.network import ActorCritic

from .collector import FinishedGame, GameSpec
from .config import BLUFF_ANCHOR, Args
from .league import League
from .players import ROLES, NetPlayer, ScriptedPlayer


def other_role(role: Role) -> Role:
    return Role.CULTIST if role == Role.INVESTIGATOR else Role.INVESTIGATOR


def learner_won(game: FinishedGame) -> bool:
    """Whether the side named by the game's `learner` tag won (not for self-play games)."""
    return game.investigators_won == game.tags["learner"].startswith("investigator")


def anchor_entry_name(role: Role, name: str) -> str:
    """The league entry name of anchor `name` in `role` (records are kept by name)."""
    return f"{role.name.lower()}@anchor-{name}"


class Matchmaker:
    def __init__(self, args: Args, learners: dict[Role, NetPlayer], rng: random.Random,
                 exploiters: dict[Role, NetPlayer] | None = None):
        self.args, self.learners, self.rng = args, learners, rng
        self.exploiters = exploiters or {}
        self.bots = {"heuristic": ScriptedPlayer("heuristic"), "random": ScriptedPlayer("random")}
        self.league = League(args)
        sizes = sorted(set(args.table_sizes) | set(args.finetune_table_sizes))  # either phase's tables
        self.configs = {n: GameConfig(num_players=n, sigil_reward=args.sigil_reward) for n in sizes}
        self.finetune = False  # set by the trainer for the run's last `finetune_decisions`
        self.sides = tuple(role for role in ROLES if role.name.lower() in args.learner_sides)
        self.rollout_opponents: dict[tuple[Role, bool], list] = {}  # this rollout's entries by (role, anchor game)

    @property
    def pool_version(self) -> int:
        return self.league.version

    def opponent_probabilities(self, num_players: int) -> tuple[float, float, float]:
        """(both sides latest, heuristic opposing side, random opposing side) at a table of this
        size in the current phase, outside exploiter games; the rest draws from the league."""
        if self.finetune:
            heuristic = self.args.finetune_heuristic_at(num_players)
            return 0.0, heuristic, 1.0 - heuristic
        return self.args.opponent_probabilities()

    def add_snapshots(self, name: str) -> None:
        """Freeze a copy of both main learners into the league (not in an exploitability run), and
        with `snapshot_bluffs` the cultist's bluffing variant beside it."""
        if self.args.opponents_from:
            return
        for role in ROLES:
            self.league.add(role, self.learners[role].net, f"{role.name.lower()}@{name}", "snapshot")
        if self.args.snapshot_bluffs:
            self.league.add(Role.CULTIST, self.learners[Role.CULTIST].net, f"cultist@{name}{BLUFF_ANCHOR}", "snapshot")

    def add_exploiters(self, name: str) -> None:
        """Freeze a copy of both exploiters into the league."""
        for role, exploiter in self.exploiters.items():
            self.league.add(role, exploiter.net, f"{role.name.lower()}-exploiter@{name}", "exploiter")

    def add_anchors(self, nets: dict[Role, ActorCritic], name: str) -> None:
        """Permanent entries of both roles (`league_anchors`)."""
        for role in ROLES:
            self.league.add(role, nets[role], anchor_entry_name(role, name), "anchor")

    def add_fixed(self, nets: dict[Role, ActorCritic], name: str) -> None:
        """The fixed opponents of an exploitability run."""
        for role in ROLES:
            self.league.add(role, nets[role], f"{role.name.lower()}@{name}", "fixed")

    def record(self, finished: list[FinishedGame]) -> None:
        """Keep the main learners' results against league entries (the PFSP priorities)."""
        for game in finished:
            if game.tags.get("opponent") == "pool" and "opponent_name" in game.tags:
                self.league.record(game.tags["opponent_name"], learner_won(game), game.num_players)

    def __call__(self, index: int) -> GameSpec:
        rng, args = self.rng, self.args
        if index == 0 and args.league_opponents_per_rollout:  # a new rollout: its league opponents
            self.rollout_opponents = {
                (role, False): [self.league.draw(role, rng) for _ in range(args.league_opponents_per_rollout)]
                for role in ROLES if self.league.entries[role]
            }
            if args.league_anchor_share:  # and one anchor per role for its anchor games
                self.rollout_opponents.update({
                    (role, True): [self.league.draw(role, rng, anchors_only=True)]
                    for role in ROLES if self.league.entries[role]
                })
        config = self.configs[rng.choice(args.sizes(self.finetune))]
        seed = rng.getrandbits(63)
        players = dict(self.learners)
        u = rng.random()
        share = 0.0 if self.finetune or not self.exploiters else args.exploiter_share
        if u < share:
            role = rng.choice(ROLES)
            players[role] = self.exploiters[role]
            return GameSpec(config, seed, players, {"learner": f"{role.name.lower()}_exploiter", "opponent": "main"})
        u = (u - share) / (1.0 - share)  # uniform again on [0, 1)
        latest, heuristic, random_ = self.opponent_probabilities(config.num_players)
        if u < latest:
            return GameSpec(config, seed, players, {"learner": "both", "opponent": "latest"})
        if self.finetune:
            investigators = rng.random() < self.args.finetune_investigator_share
            learner_side = Role.INVESTIGATOR if investigators else Role.CULTIST
        else:
            learner_side = rng.choice(self.sides)
        other = other_role(learner_side)
        tags = {"learner": learner_side.name.lower()}
        u -= latest
        if u < heuristic:
            kind = "heuristic"
        elif self.finetune or u < heuristic + random_:  # (the fine-tune's two shares may not add to 1 exactly)
            kind = "random"
        else:
            kind = "pool"
        if kind == "pool":
            anchors = bool(args.league_anchor_share) and rng.random() < args.league_anchor_share
            if args.league_opponents_per_rollout:
                drawn = self.rollout_opponents.get((other, anchors))
                entry = rng.choice(drawn) if drawn else None
            else:
                entry = self.league.draw(other, rng, anchors_only=anchors)
            if entry is not None:
                players[other] = entry.player
                tags["opponent_name"] = entry.name
            else:
                kind = "latest"
        else:
            players[other] = self.bots[kind]
        return GameSpec(config, seed, players, {**tags, "opponent": kind})

    # -- checkpoints ------------------------------------------------------------------------------

    def state_dict(self) -> dict:
        return self.league.state_dict()

    def load_state_dict(self, state: dict) -> None:
        self.league.load_state_dict(state, {role: self.learners[role].net for role in ROLES})
