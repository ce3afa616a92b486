"""`Args`: every setting of a training run, each with its help text, plus the named presets.

The help text lives in each field's metadata, so the command line (`scripts/train.py`, `rlyeh
train`) and the docs are generated from one place: `add_arguments` builds argparse options from
the fields and `from_namespace` reads them back.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field


def _help(text: str, default=dataclasses.MISSING, **kwargs):
    return field(default=default, metadata={"help": text}, **kwargs)


@dataclass(frozen=True)
class Args:
    # -- the run
    run_name: str = _help("name of the run folder under --runs-dir", "rlyeh")
    runs_dir: str = _help("where run folders (TensorBoard logs, checkpoints, plot) are written", "runs")
    seed: int = _help("seeds games, opponent draws, sampling and network initialisation", 1)
    total_decisions: int = _help("stop after this many learner decisions (PPO; the warm start not counted)", 6_000_000)
    threads: int = _help("torch intra-op threads (this machine has 2 cores)", 2)
    checkpoint_every: int = _help("write a checkpoint every N updates (and always at the end)", 10)
    eval_every: int = _help("play evaluation games against random and heuristic bots every N updates (0: never)", 10)
    eval_games: int = _help("games per evaluation match-up (per role and opponent)", 100)
    progress: bool = _help("show a progress bar", True)

    # -- the tables
    table_sizes: tuple[int, ...] = _help("table sizes drawn uniformly for each game", (4, 5, 6, 7, 8))
    sigil_reward: float = _help("reward shaping: +r to investigators, -r to cultists per sigil activated", 0.1)
    num_games: int = _help("games stepped in lockstep (the batch of every policy forward)", 128)
    rollout_workers: int = _help(
        "processes that play each update's rollout, each with its share of the games and decisions and the "
        "current weights (on-policy, no lag); 1 plays in the trainer's process", 1
    )
    decisions_per_rollout: int = _help(
        "learner decisions gathered before each update; games under way then play to their end", 16_384
    )

    imitation_decisions: int = _help(
        "warm start: clone the heuristic bot on this many of its decisions before PPO (0: off; feed-forward "
        "policies only)", 0
    )
    imitation_epochs: int = _help("warm start: passes over the demonstrations", 10)
    imitation_lr: float = _help("warm start: Adam learning rate", 1e-3)
    imitation_minibatch_size: int = _help("warm start: demonstrations per gradient step", 512)

    # -- opponents (per game one side is drawn; the learners play the other)
    opponent_latest: float = _help("probability that both sides are the latest learners (pure self-play)", 0.3)
    opponent_heuristic: float = _help("probability that the opposing side is the heuristic bot", 0.35)
    opponent_random: float = _help(
        "probability that the opposing side is the random bot (also the share of warm-start games with a random side)",
        0.15,
    )
    pool_size: int = _help(
        "past snapshots kept per role; the rest of the probability mass draws one of them uniformly", 8
    )
    snapshot_every: int = _help("add the learners to the opponent pool every N updates", 5)
    finetune_decisions: int = _help(
        "scripted fine-tune: over the run's last N decisions (counted back from total_decisions, so a resume "
        "with a larger total moves it) the opposing side is always a scripted bot (no self-play, no pool)", 0
    )
    finetune_heuristic: tuple[float, ...] = _help(
        "scripted fine-tune: probability that the opposing side is the heuristic bot (else the random bot); one "
        "value for every table size, or five: for 4, 5, 6, 7 and 8 seats in that order", (0.7,)
    )
    finetune_table_sizes: tuple[int, ...] = _help(
        "scripted fine-tune: table sizes drawn uniformly for each game (repeat a size to weight it; empty: "
        "table_sizes)", ()
    )
    finetune_investigator_share: float = _help(
        "scripted fine-tune: probability that the learner plays the investigators (the scripted bot the cultists); "
        "the cultist learner plays the rest", 0.5
    )

    # -- the network
    hidden: tuple[int, ...] = _help(
        "hidden layer widths of the policy trunk and of the value trunk (which shared_trunk drops)", (256, 128)
    )
    recurrent: bool = _help("put a GRU after the policy trunk (masked recurrent PPO)", False)
    sequence_length: int = _help("recurrent only: backpropagation-through-time chunk length", 16)
    central_critic: bool = _help("the value network reads the full truth (env.state()) instead of the observation", False)
    shared_trunk: bool = _help(
        "the value head reads the policy trunk's features instead of having its own trunk: about half the "
        "network's arithmetic (not with central_critic)", False
    )
    belief_coef: float = _help("weight of the auxiliary cultist-belief loss", 0.5)

    # -- PPO
    learning_rate: float = _help("Adam learning rate", 3e-4)
    anneal_lr: bool = _help("decay the learning rate linearly to 0 over the run", True)
    gamma: float = _help("discount factor per own decision", 0.995)
    gae_lambda: float = _help("GAE lambda", 0.95)
    update_epochs: int = _help("passes over each rollout", 3)
    minibatch_size: int = _help("transitions (or recurrent chunks x length) per gradient step", 2048)
    clip_coef: float = _help("PPO ratio clip", 0.2)
    clip_value: bool = _help("clip the value loss as PPO's reference implementation does", True)
    ent_coef: float = _help("entropy bonus (entropy over legal actions only)", 0.01)
    vf_coef: float = _help("value loss weight", 0.5)
    max_grad_norm: float = _help("global gradient-norm clip", 0.5)
    target_kl: float = _help("stop an update's epochs early when approx KL exceeds this (0: never)", 0.0)
    bf16: bool = _help(
        "run the PPO update's network trunks under bfloat16 autocast (output layers, weights, optimizer, losses "
        "and rollouts stay float32): faster matrix products on CPUs with AMX or AVX-512 BF16",
        False,
    )

    def __post_init__(self):
        if isinstance(self.finetune_heuristic, (int, float)):  # one number, as runs before v0.5 stored it
            object.__setattr__(self, "finetune_heuristic", (float(self.finetune_heuristic),))
        checks = [
            (self.total_decisions > 0, "total_decisions must be > 0"),
            (self.threads >= 1, "threads must be >= 1"),
            (self.num_games >= 1, "num_games must be >= 1"),
            (self.decisions_per_rollout >= 1, "decisions_per_rollout must be >= 1"),
            (1 <= self.rollout_workers <= min(self.num_games, self.decisions_per_rollout),
             f"rollout_workers must be in 1..min(num_games, decisions_per_rollout), got {self.rollout_workers}"),
            (len(self.table_sizes) > 0 and all(4 <= n <= 8 for n in self.table_sizes),
             f"table_sizes must be non-empty, each in 4..8, got {self.table_sizes}"),
            (all(0.0 <= p <= 1.0 for p in self.opponent_probabilities()),
             "opponent_latest, opponent_heuristic and opponent_random must each be in [0, 1]"),
            (sum(self.opponent_probabilities()) <= 1.0 + 1e-9,
             "opponent_latest + opponent_heuristic + opponent_random must be <= 1 (the rest draws from the pool)"),
            (self.pool_size >= 0, "pool_size must be >= 0"),
            (self.imitation_decisions >= 0, "imitation_decisions must be >= 0"),
            (self.imitation_epochs >= 1 and self.imitation_minibatch_size >= 1 and self.imitation_lr > 0,
             "imitation_epochs and imitation_minibatch_size must be >= 1, imitation_lr > 0"),
            (self.imitation_decisions == 0 or not self.recurrent,
             "imitation_decisions needs recurrent=False (cloning trains on single decisions, not sequences)"),
            (self.snapshot_every >= 1, "snapshot_every must be >= 1"),
            (0 <= self.finetune_decisions <= self.total_decisions,
             f"finetune_decisions must be in 0..total_decisions ({self.total_decisions}), got "
             f"{self.finetune_decisions} (shortening the full preset? give --finetune-decisions too)"),
            (all(4 <= n <= 8 for n in self.finetune_table_sizes),
             f"finetune_table_sizes must each be in 4..8 (empty: table_sizes), got {self.finetune_table_sizes}"),
            (len(self.finetune_heuristic) in (1, 5) and all(0.0 <= p <= 1.0 for p in self.finetune_heuristic),
             "finetune_heuristic must be one value in [0, 1] or five (for 4, 5, 6, 7 and 8 seats), got "
             f"{self.finetune_heuristic}"),
            (0.0 <= self.finetune_investigator_share <= 1.0, "finetune_investigator_share must be in [0, 1]"),
            (len(self.hidden) > 0 and all(h >= 1 for h in self.hidden), "hidden must list positive widths"),
            (not (self.shared_trunk and self.central_critic),
             "shared_trunk and central_critic exclude each other (the central critic reads the truth, not the "
             "observation)"),
            (self.sequence_length >= 1, "sequence_length must be >= 1"),
            (self.learning_rate > 0, "learning_rate must be > 0"),
            (0.0 < self.gamma <= 1.0, "gamma must be in (0, 1]"),
            (0.0 <= self.gae_lambda <= 1.0, "gae_lambda must be in [0, 1]"),
            (self.update_epochs >= 1, "update_epochs must be >= 1"),
            (self.minibatch_size >= 1, "minibatch_size must be >= 1"),
            (self.clip_coef > 0, "clip_coef must be > 0"),
            (self.ent_coef >= 0 and self.vf_coef >= 0 and self.belief_coef >= 0,
             "ent_coef, vf_coef and belief_coef must be >= 0"),
            (self.sigil_reward >= 0, "sigil_reward must be >= 0"),
            (self.max_grad_norm > 0, "max_grad_norm must be > 0"),
            (self.target_kl >= 0, "target_kl must be >= 0"),
            (self.checkpoint_every >= 1, "checkpoint_every must be >= 1"),
            (self.eval_every >= 0 and self.eval_games >= 1, "eval_every must be >= 0 and eval_games >= 1"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
        if self.pool_size == 0 and sum(self.opponent_probabilities()) < 1.0 - 1e-9:
            raise ValueError("with pool_size 0 the opponent probabilities must add up to 1")

    def opponent_probabilities(self) -> tuple[float, float, float]:
        """(both sides latest, heuristic opposing side, random opposing side) outside the scripted
        fine-tune; the rest draws from the pool."""
        return self.opponent_latest, self.opponent_heuristic, self.opponent_random

    @property
    def opponent_pool(self) -> float:
        """Probability that the opposing side is a past snapshot from the pool."""
        return max(0.0, 1.0 - sum(self.opponent_probabilities()))

    def sizes(self, finetune: bool) -> tuple[int, ...]:
        """The table sizes a training game is drawn from, in the fine-tune or outside it."""
        return (self.finetune_table_sizes or self.table_sizes) if finetune else self.table_sizes

    def finetune_heuristic_at(self, num_players: int) -> float:
        """The scripted fine-tune's probability of a heuristic opposing side at a table of this size."""
        shares = self.finetune_heuristic
        return shares[0] if len(shares) == 1 else shares[num_players - 4]

    def replace(self, **changes) -> "Args":
        return dataclasses.replace(self, **changes)


PRESETS: dict[str, dict] = {
    # Under two minutes end to end on 2 cores; exercised by tests/training/test_smoke.py.
    "smoke": dict(
        run_name="smoke",
        total_decisions=6_000,
        num_games=16,
        decisions_per_rollout=2_000,
        hidden=(64, 64),
        eval_every=2,
        eval_games=4,
        checkpoint_every=2,
        snapshot_every=1,
        pool_size=2,
        minibatch_size=512,
        imitation_decisions=1_000,
        imitation_epochs=2,
    ),
    # The recipe of the shipped bots in checkpoints/ (see checkpoints/README.md): 6M decisions of
    # mixed self-play, then 24M against the scripted bots, which lifted the investigators most. The
    # fine-tune gives them nine games in ten (the cultists already clear their bars by far), and 7
    # and 8 seats twice the weight of the other sizes, with the random bot as the opposing side in
    # 70% of those games (45% at 4-6): there the investigators were furthest from their bar
    # against random cultists. The network is small and shares its trunk with the value head, 256
    # games play in lockstep and each rollout gets 2 epochs: about 1.5 times as many decisions per
    # second as v0.5's (256, 128) networks with their own value trunks and 3 epochs, at no loss.
    "full": dict(
        run_name="full",
        total_decisions=30_000_000,
        finetune_decisions=24_000_000,
        finetune_table_sizes=(4, 5, 6, 7, 7, 8, 8),
        finetune_heuristic=(0.55, 0.55, 0.55, 0.3, 0.3),
        finetune_investigator_share=0.9,
        imitation_decisions=400_000,
        hidden=(128, 128),
        shared_trunk=True,
        update_epochs=2,
        num_games=256,
        bf16=True,
        rollout_workers=2,
        eval_every=20,
    ),
}


def preset(name: str, **overrides) -> Args:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    return Args(**{**PRESETS[name], **overrides})


# -- command line -------------------------------------------------------------------------------


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One `--kebab-case` option per `Args` field (default: the preset's value), plus `--preset`."""
    parser.add_argument("--preset", choices=sorted(PRESETS), help="starting values (default: full)")
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        preset_values = ", ".join(f"{name} {values[f.name]}" for name, values in PRESETS.items() if f.name in values)
        help_text = f.metadata["help"] + f" (default: {f.default}" + (f"; {preset_values})" if preset_values else ")")
        if f.type in ("bool", bool):
            parser.add_argument(flag, type=_parse_bool, metavar="BOOL", help=help_text)
        elif f.type in ("tuple[int, ...]", "tuple[float, ...]"):
            # A field whose default is empty may be given empty (the flag alone) to mean that default.
            kind, metavar = (int, "N") if f.type == "tuple[int, ...]" else (float, "P")
            parser.add_argument(flag, type=kind, nargs="*" if f.default == () else "+", metavar=metavar, help=help_text)
        else:
            kind = {"int": int, "float": float, "str": str}[f.type]
            parser.add_argument(flag, type=kind, help=help_text)


def given_options(namespace: argparse.Namespace) -> dict:
    """The `Args` fields given on the command line, as field values."""
    overrides = {}
    for f in dataclasses.fields(Args):
        value = getattr(namespace, f.name, None)
        if value is not None:
            overrides[f.name] = tuple(value) if isinstance(value, list) else value
    return overrides


def from_namespace(namespace: argparse.Namespace) -> Args:
    """The preset named by `--preset` (full when not given), with every option given applied."""
    return preset(namespace.preset or "full", **given_options(namespace))
