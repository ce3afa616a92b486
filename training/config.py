"""`Args`: every setting of a training run, each with its help text, plus the named presets.

The help text is the docstring under each field, as in CleanRL: the `train` command line
(`training/train_cli.py`, parsed by tyro) reads it from there, so the code, `--help` and the
options cannot drift apart. Each is one line, however long: tyro keeps a docstring's line breaks
in the help. This module does not import tyro: workers and bots load `Args` too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rlyeh_env.checkpoints import VERSIONS as SHIPPED_VERSIONS  # names only: no torch here

from .hardware import native_bf16

PFSP_WEIGHTINGS = ("uniform", "hard", "even")  # training/league.py
BUILT_IN_ANCHORS = ("warm-start", "untrained")
GREEDY_ANCHOR = ":greedy"  # an anchor named NAME:greedy plays NAME's most probable legal action
BLUFF_ANCHOR = ":bluffs"  # an anchor named NAME:bluffs plays NAME, its cultists accusing at league_bluff_rate
ANCHOR_MODIFIERS = (GREEDY_ANCHOR, BLUFF_ANCHOR)
BACKENDS = ("local", "ray")  # training/workers.py, training/ray_workers.py


def split_anchor(name: str) -> tuple[str, tuple[str, ...]]:
    """An anchor (or a league entry's name) as its policies and its trailing modifiers
    (`ANCHOR_MODIFIERS`, in any order): `v4:greedy:bluffs` -> (`v4`, (`:greedy`, `:bluffs`))."""
    modifiers = []
    while name.endswith(ANCHOR_MODIFIERS):
        cut = name.rindex(":")
        name, modifiers = name[:cut], [name[cut:], *modifiers]
    return name, tuple(modifiers)


@dataclass(frozen=True)
class Args:
    """Every setting of a training run (validated on construction)."""

    # -- the run
    run_name: str = "rlyeh"
    """name of the run folder under --runs-dir"""
    runs_dir: str = "runs"
    """where run folders (TensorBoard logs, checkpoints, plot) are written"""
    seed: int = 1
    """seeds games, opponent draws, sampling and network initialisation"""
    total_decisions: int = 6_000_000
    """stop after this many learner decisions (PPO; the warm start not counted)"""
    threads: int = 2
    """torch intra-op threads (this machine has 2 cores)"""
    checkpoint_every: int = 10
    """write a checkpoint every N updates (and always at the end)"""
    eval_every: int = 10
    """play evaluation games against random and heuristic bots every N updates (0: never)"""
    eval_games: int = 100
    """games per evaluation match-up (per role and opponent)"""
    progress: bool = True
    """show a progress bar"""

    # -- the tables
    table_sizes: tuple[int, ...] = (4, 5, 6, 7, 8)
    """table sizes drawn uniformly for each game"""
    sigil_reward: float = 0.1
    """reward shaping: +r to investigators, -r to cultists per sigil activated"""
    num_games: int = 128
    """games stepped in lockstep (the batch of every policy forward)"""
    rollout_workers: int = 1
    """processes (with backend ray: Ray actors) that play each update's rollout, each with its share of the games and decisions and the current weights (on-policy, no lag); 1 plays in the trainer's process (also --num-workers)"""
    backend: str = "local"
    """where the rollouts are played: local (the trainer's process, or rollout_workers processes) or ray (rollout_workers Ray actors: on a local cluster, or the one at ray_address; needs the ray extra)"""
    ray_address: str = "local"
    """with backend ray: local starts a cluster on this machine (rollout_workers CPUs, no dashboard); auto or HOST:PORT joins a running one (README.md: Training on a Ray cluster)"""
    decisions_per_rollout: int = 16_384
    """learner decisions gathered before each update; games under way then play to their end"""

    imitation_decisions: int = 0
    """warm start: clone the teacher (imitation_teacher) on this many of its decisions before PPO (0: off; feed-forward policies only)"""
    imitation_teacher: str = "heuristic"
    """warm start: whose play is cloned: heuristic (the scripted bot on every seat), or a shipped version (v4) or a checkpoint's path (.pt), its policies sampled; with init_from the learners start from a checkpoint and learn what the teacher does differently"""
    imitation_accuse_at: float = 0.0
    """warm start from a checkpoint teacher: its investigators accuse the seat their belief head is surest of from this P(cultist) on, and vote on accusations by imitation_vote_at (rlyeh_env/accuser.py), so that self-play starts outside the trap where nobody accuses because nobody votes Yes (0: the teacher plays as trained)"""
    imitation_vote_at: float = 0.5
    """warm start with imitation_accuse_at: the teacher's investigators vote Yes on an accusation from this belief in the accused on, No below it"""
    imitation_cultist_accuse_rate: float = 0.0
    """warm start: the teacher's cultists accuse a legal seat drawn at random at this rate wherever they may accuse, and vote Yes on every accusation (rlyeh_env/accuser.py, BluffingCultist), so that self-play starts with cultists' accusations for the investigators' vote to tell apart from right ones (0: the teacher's cultists play as they do)"""
    imitation_epochs: int = 10
    """warm start: passes over the demonstrations"""
    imitation_lr: float = 1e-3
    """warm start: Adam learning rate"""
    imitation_minibatch_size: int = 512
    """warm start: demonstrations per gradient step"""

    # -- opponents (per game one side is drawn; the learners play the other)
    opponent_latest: float = 0.3
    """probability that both sides are the latest learners (pure self-play)"""
    opponent_heuristic: float = 0.35
    """probability that the opposing side is the heuristic bot"""
    opponent_random: float = 0.15
    """probability that the opposing side is the random bot (also the share of warm-start games with a random side)"""
    pool_size: int = 8
    """league entries (past snapshots, retired exploiters) kept per role, the oldest leaving first; the rest of the opponent probability mass draws one of them (see pfsp)"""
    snapshot_every: int = 5
    """add the learners to the opponent pool every N updates"""
    snapshot_bluffs: bool = False
    """each cultist snapshot also joins the league as NAME:bluffs, the same policy with its cultists accusing a random legal seat at league_bluff_rate and voting Yes on every accusation: cultists as skilled as the learners' own who accuse, so that the investigators' vote keeps meeting wrong accusations from players they cannot easily tell apart (both count towards pool_size)"""
    snapshot_files_every: int = 50
    """also write the learners as a light policy file runs/NAME/snapshots/uNNNNN.pt every N updates, so the run's history can be rated (scripts/crossplay.py; 0: never)"""
    pfsp: str = "uniform"
    """how a pool game draws its opponent from the league (training/league.py): uniform; hard: prioritised fictitious self-play, weight (1 - p) ** pfsp_power for an entry the learner beats with recorded win rate p; even: weight p (1 - p)"""
    pfsp_power: float = 2.0
    """the exponent of the hard PFSP weighting (higher: the hardest opponents more often)"""
    league_opponents_per_rollout: int = 0
    """draw this many league entries per role by PFSP when a rollout (or a worker's share of it) starts, and let that rollout's pool games choose among them uniformly: the same opponent distribution over many rollouts, in far fewer and larger forwards than one entry per game (0: one PFSP draw per game)"""
    pfsp_prior_games: float = 4.0
    """pseudo-games at 50% added to every league entry's record, so a new entry counts as an even match until it has games"""
    pfsp_by_size: bool = False
    """PFSP reads each league entry's record at the table size (of table_sizes) where the learner does worst against it, each size with its own pfsp_prior_games, instead of the record pooled over sizes: an opponent that beats the learner at one table size only is drawn as often as one that beats it at every size (the league keeps both records either way)"""
    pfsp_size_relative: bool = False
    """with pfsp_by_size, an entry's win rate at a table size is read against the learner's win rate at that size over the role's whole league (0.5 + p - league average): the sizes' own balance (the cultists win most games at 4 seats, the investigators at 8) then no longer makes every entry's worst size the same one, and the draw follows the entries that are harder than the rest at some size"""
    league_anchors: tuple[str, ...] = ()
    """permanent league entries of both roles, never leaving and not counted in pool_size: warm-start (the learners as PPO starts from them, e.g. the heuristic's clone), untrained (the learners' initial networks: close to uniform over the legal actions), a shipped version (v4: checkpoints/rlyeh_v4.pt) or a checkpoint's path (.pt); any of them followed by :greedy plays its most probable legal action instead of sampling (warm-start:greedy: the heuristic's clone played as deterministically as the heuristic plays), and followed by :bluffs its cultists accuse a random legal seat at league_bluff_rate and vote Yes on every accusation (so the learners' investigators meet skilled cultists who accuse); drawn by PFSP like every entry, and in an anchor game (league_anchor_share) by league_anchor_pfsp; a resumed run keeps its anchors and may add shipped versions or checkpoint files after them (an exploiter found by scripts/exploit.py, so the learners train against it)"""
    league_bluff_rate: float = 0.1
    """how often the cultists of a league anchor named NAME:bluffs accuse, at their decisions where accusing is legal (rlyeh_env/accuser.py, BluffingCultist's rule)"""
    league_anchor_pfsp: str = "uniform"
    """how an anchor game (league_anchor_share) draws among the anchors: uniform, hard or even, as pfsp (hard would almost never draw the anchor the learner beats most, the untrained one)"""
    league_anchor_share: float = 0.0
    """probability that a pool game draws its opponent among the anchors alone (weighted by league_anchor_pfsp), so that weak and off-style play keeps a fixed share of the games however large the league grows (0: anchors are drawn like any entry)"""
    learner_sides: tuple[str, ...] = ("investigator", "cultist")
    """the sides a main learner takes against a scripted bot or a league entry, drawn evenly; one side alone trains only that role (an exploiter of scripts/exploit.py: needs opponent_latest and exploiter_share 0)"""
    exploiter_share: float = 0.0
    """probability that a game is an exploiter game: one role's exploiter (a separate learner per role) against the latest main learner of the other role; 0: no exploiters"""
    exploiter_period: int = 20
    """every N updates each exploiter joins the league as an entry and restarts from its role's current main learner"""
    exploiter_learning_rate: float = 0.0
    """the exploiters' Adam rate, held constant (each exploiter restarts every exploiter_period updates, so a late one learns as fast as the first), as scripts/exploit.py's best responses learn at the league preset's rate while a league's main learners may learn far slower; 0: the learners' rate, annealed with theirs"""
    opponents_from: str = ""
    """an exploitability run: the two policies of this checkpoint are the whole league, fixed for the run (the learners' snapshots never join), and every game is a learner against its fixed other side (scripts/exploit.py)"""
    init_from: str = ""
    """start both learners from the policies of this shipped version (v4) or checkpoint file instead of a fresh initialisation (hidden, shared_trunk and recurrent must match its networks; the value networks start fresh where it has none; it may come from earlier rules: fine-tuning it to new ones is what it is for)"""
    finetune_decisions: int = 0
    """scripted fine-tune: over the run's last N decisions (counted back from total_decisions, so a resume with a larger total moves it) the opposing side is always a scripted bot (no self-play, no pool)"""
    finetune_heuristic: tuple[float, ...] = (0.7,)
    """scripted fine-tune: probability that the opposing side is the heuristic bot (else the random bot); one value for every table size, or five: for 4, 5, 6, 7 and 8 seats in that order"""
    finetune_table_sizes: tuple[int, ...] = ()
    """scripted fine-tune: table sizes drawn uniformly for each game (repeat a size to weight it; empty: table_sizes)"""
    finetune_investigator_share: float = 0.5
    """scripted fine-tune: probability that the learner plays the investigators (the scripted bot the cultists); the cultist learner plays the rest"""

    # -- the network
    hidden: tuple[int, ...] = (256, 128)
    """hidden layer widths of the policy trunk and of the value trunk (which shared_trunk drops)"""
    recurrent: bool = False
    """put a GRU after the policy trunk (masked recurrent PPO)"""
    sequence_length: int = 16
    """recurrent only: backpropagation-through-time chunk length"""
    central_critic: bool = False
    """the value network reads the full truth (env.state()) instead of the observation"""
    shared_trunk: bool = False
    """the value head reads the policy trunk's features instead of having its own trunk: about half the network's arithmetic (not with central_critic)"""
    belief_coef: float = 0.5
    """weight of the auxiliary cultist-belief loss"""

    # -- PPO
    learning_rate: float = 3e-4
    """Adam learning rate"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over the run"""
    gamma: float = 0.995
    """discount factor per own decision"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    update_epochs: int = 3
    """passes over each rollout"""
    minibatch_size: int = 2048
    """transitions (or recurrent chunks x length) per gradient step"""
    clip_coef: float = 0.2
    """PPO ratio clip"""
    clip_value: bool = True
    """clip the value loss as PPO's reference implementation does"""
    ent_coef: float = 0.01
    """entropy bonus (entropy over legal actions only)"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """global gradient-norm clip"""
    target_kl: float = 0.0
    """stop an update's epochs early when approx KL exceeds this (0: never)"""
    bf16: bool = False
    """run the PPO update's network trunks under bfloat16 autocast (output layers, weights, optimizer, losses and rollouts stay float32): faster matrix products on CPUs with AMX or AVX-512 BF16"""

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
            (self.backend in BACKENDS, f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}"),
            (bool(self.ray_address.strip()), "ray_address must be local, auto or HOST:PORT"),
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
            (self.snapshot_files_every >= 0, "snapshot_files_every must be >= 0"),
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
        checks += [
            (self.pfsp in PFSP_WEIGHTINGS, f"pfsp must be one of {', '.join(PFSP_WEIGHTINGS)}, got {self.pfsp!r}"),
            (self.league_anchor_pfsp in PFSP_WEIGHTINGS,
             f"league_anchor_pfsp must be one of {', '.join(PFSP_WEIGHTINGS)}, got {self.league_anchor_pfsp!r}"),
            (self.pfsp_power > 0 and self.pfsp_prior_games >= 0, "pfsp_power must be > 0 and pfsp_prior_games >= 0"),
            (self.pfsp_by_size or not self.pfsp_size_relative, "pfsp_size_relative needs pfsp_by_size"),
            (self.league_opponents_per_rollout >= 0, "league_opponents_per_rollout must be >= 0"),
            (0.0 <= self.exploiter_share < 1.0, "exploiter_share must be in [0, 1)"),
            (self.exploiter_period >= 1, "exploiter_period must be >= 1"),
            (self.exploiter_learning_rate >= 0, "exploiter_learning_rate must be >= 0"),
            (len(self.learner_sides) >= 1 and len(set(self.learner_sides)) == len(self.learner_sides)
             and set(self.learner_sides) <= {"investigator", "cultist"},
             f"learner_sides must name investigator, cultist or both, each once, got {self.learner_sides}"),
            (len(self.learner_sides) == 2 or (self.opponent_latest == 0 and self.exploiter_share == 0),
             "one learner side trains only that role: opponent_latest and exploiter_share must be 0"),
            (not self.opponents_from or (sum(self.opponent_probabilities()) == 0 and self.exploiter_share == 0
                                         and self.finetune_decisions == 0),
             "opponents_from (an exploitability run) needs opponent_latest, opponent_heuristic, opponent_random, "
             "exploiter_share and finetune_decisions all 0: the learners play the fixed opponents only"),
            (len(set(self.league_anchors)) == len(self.league_anchors)
             and all(a in BUILT_IN_ANCHORS + SHIPPED_VERSIONS or a.endswith(".pt")
                     for a in (split_anchor(anchor)[0] for anchor in self.league_anchors)),
             f"league_anchors must each be {', '.join(BUILT_IN_ANCHORS + SHIPPED_VERSIONS)} or a checkpoint path "
             f"ending in .pt, optionally followed by {' and '.join(ANCHOR_MODIFIERS)}, each once, got "
             f"{self.league_anchors}"),
            (0.0 <= self.league_bluff_rate <= 1.0, f"league_bluff_rate must be in [0, 1], got {self.league_bluff_rate}"),
            (0.0 <= self.league_anchor_share <= 1.0 and (self.league_anchor_share == 0 or self.league_anchors),
             "league_anchor_share must be in [0, 1], and above 0 only with league_anchors"),
            (not (self.league_anchors and self.opponents_from),
             "league_anchors and opponents_from exclude each other: an exploitability run's league is the fixed "
             "checkpoint alone"),
            (not (self.init_from and self.imitation_decisions and self.imitation_teacher == "heuristic"),
             "init_from and a warm start from the heuristic exclude each other: the learners start from the "
             "checkpoint (a checkpoint imitation_teacher may follow init_from)"),
            (self.imitation_teacher in ("heuristic",) + SHIPPED_VERSIONS or self.imitation_teacher.endswith(".pt"),
             f"imitation_teacher must be heuristic, {', '.join(SHIPPED_VERSIONS)} or a checkpoint path ending in "
             f".pt, got {self.imitation_teacher!r}"),
            (0.0 <= self.imitation_accuse_at <= 1.0 and 0.0 <= self.imitation_vote_at <= 1.0
             and 0.0 <= self.imitation_cultist_accuse_rate <= 1.0,
             "imitation_accuse_at, imitation_vote_at and imitation_cultist_accuse_rate must be in [0, 1]"),
            (self.imitation_accuse_at == 0 or self.imitation_teacher != "heuristic",
             "imitation_accuse_at needs a checkpoint imitation_teacher (it acts on the policy's belief head)"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
        league_kept = self.opponents_from or self.league_anchors  # entries a pool game can draw with pool_size 0
        if not league_kept and self.pool_size == 0 and sum(self.opponent_probabilities()) < 1.0 - 1e-9:
            raise ValueError("with pool_size 0 (and no league_anchors) the opponent probabilities must add up to 1")

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


# The shipped recipes' network and speed settings: a small network sharing its trunk with the value
# head, 256 games in lockstep, 2 epochs per rollout, 2 rollout workers, the bf16 update where the
# CPU has native bfloat16 (training/hardware.py).
SHIPPED_NETWORK_AND_SPEED = dict(
    hidden=(128, 128),
    shared_trunk=True,
    update_epochs=2,
    num_games=256,
    bf16=native_bf16(),
    rollout_workers=2,
    eval_every=20,
)

# Self-play only, the league recipe. The scripted bots give the warm start (cloning the
# heuristic) and the evaluation, never a training game. After the warm start every game is
# self-play: both sides the latest learners (35%), a main learner against a league entry of
# the other side drawn by hard PFSP (the ones it loses to most), or an exploiter game (30%): a
# per-role exploiter against the latest main learner, joining the league every 100 updates
# and starting over from the main learner. Three anchors stay in the league for the whole
# run: the warm-start policy sampled and played greedily (the heuristic's style, and its
# deterministic habits) and the untrained network (about random play), and half of the league
# games draw among them, evenly: the first run without anchors learnt to beat skilled cultists
# and lost to the heuristic and random ones, one with anchors but no share let its
# investigators vote Yes on random accusations, and one drawing its anchors by hard PFSP hardly
# ever met the untrained one and lost to random cultists (checkpoints/README.md). Bots of
# earlier rules versions cannot be anchors (they are refused), so no shipped version is one.
# The network and the speed settings are the full preset's.
_LEAGUE = dict(
    run_name="league",
    total_decisions=30_000_000,
    imitation_decisions=400_000,
    opponent_latest=0.35,
    opponent_heuristic=0.0,
    opponent_random=0.0,
    pool_size=16,
    snapshot_every=10,
    pfsp="hard",
    league_opponents_per_rollout=2,
    exploiter_share=0.3,
    exploiter_period=100,
    league_anchors=("warm-start", "warm-start:greedy", "untrained"),
    league_anchor_share=0.5,
    league_anchor_pfsp="uniform",
    **SHIPPED_NETWORK_AND_SPEED,
)

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
    # v0's recipe (retired with rules version 1; checkpoints/README.md, "History"): 6M decisions of
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
        **SHIPPED_NETWORK_AND_SPEED,
    ),
    "league": _LEAGUE,
    # (`accuse`, v2's warm start from v1 cloned accusing on its belief, left with v1 and rules
    # version 2; checkpoints/README.md, "History", says where it lives on.)
}


def preset(name: str, **overrides) -> Args:
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    return Args(**{**PRESETS[name], **overrides})
