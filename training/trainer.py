"""`Trainer`: PPO self-play of the investigator and the cultist policy at once.

One update = one rollout of complete games (`Collector`, opponents from `Matchmaker`), then a
PPO update of each policy on its own decisions: the two main learners and, in a league run, the
two exploiters. Around that: learning-rate annealing, the league (snapshots, exploiters joining
it, the win rates PFSP draws by), evaluation against the scripted bots, TensorBoard logs, a
progress bar, atomic checkpoints (resumable bit for bit, league included, with the league's
win-rate table beside them as league.json) and a learning-curve plot at the end.

Everything random draws from generators seeded by `Args.seed` and saved in checkpoints: Python's
`random.Random` (tables, seeds, opponents), one `torch.Generator` for action sampling and one
for minibatch order; network initialisation uses torch's global generator, seeded once.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
import time
from pathlib import Path

import torch

from rlyeh_env.engine import Role
from rlyeh_env.engine.config import MIN_PLAYERS
from rlyeh_env.files import atomic_write_text
from rlyeh_env.metrics import belief_auc_by_size, win_rate
from rlyeh_env.observation import SEAT_LAYOUT
from rlyeh_env.policy.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from rlyeh_env.policy.shipped import SHIPPED_VERSIONS, shipped_checkpoint
from rlyeh_env.progress import progress_bar

from .collector import Collector
from .config import Args, split_anchor
from .evaluation import evaluate_against_bots
from .hardware import available_memory
from .interrupts import TrainingInterrupted, interrupt_deferred
from .opponents import Matchmaker, anchor_entry_name, learner_won
from .players import ROLES, exploiter_players, learner_players, trainee_key, trainees
from .ppo import ppo_update
from .workers import RolloutWorkers, to_numpy


NETWORK_SETTINGS = ("hidden", "recurrent", "central_critic", "shared_trunk")  # fixed by the saved networks' shapes


def args_from_dict(data: dict) -> Args:
    fields = {f.name for f in dataclasses.fields(Args)}
    return Args(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields})


_TABLE_SIZE = slice(SEAT_LAYOUT["table.size"].start, SEAT_LAYOUT["table.size"].stop)


def table_sizes(obs: torch.Tensor):
    """Each observation row's table size, read from its `table.size` one-hot (4..8 players)."""
    return (MIN_PLAYERS + obs[:, _TABLE_SIZE].argmax(1)).numpy()


class Trainer:
    def __init__(self, args: Args, fresh: bool = True):
        """`fresh`: a new run (False when `resume` fills in a saved state: the files named by
        `init_from` and `opponents_from` are then not read again)."""
        self.args = args
        if args.imitation_decisions and fresh:
            from .imitation import check_demonstrations_fit

            check_demonstrations_fit(args, available_memory())
        torch.set_num_threads(args.threads)
        torch.manual_seed(args.seed)
        self.rng = random.Random(args.seed)
        self.sample_generator = torch.Generator().manual_seed(args.seed)
        self.shuffle_generator = torch.Generator().manual_seed(args.seed + 1)
        self.learners = learner_players(args)
        self.nets = {role: player.net for role, player in self.learners.items()}
        self.optimizers = {role: self._optimizer(net) for role, net in self.nets.items()}
        self.exploiters = exploiter_players(args)
        self.exploiter_optimizers: dict[Role, torch.optim.Optimizer] = {}  # made by _restart_exploiters, below
        # The league's anchors, read now so that a bad path fails before any work; they join when
        # PPO starts (after the warm start). A resumed run has them in its saved league already
        # (and any it is given beyond those join in `resume`: _join_resumed_league).
        self._anchors = self._read_anchors(args.league_anchors) if fresh else []
        if args.init_from and fresh:
            _load_policies_into(args.init_from, self.nets)
        self._restart_exploiters()
        self.matchmaker = Matchmaker(args, self.learners, self.rng, self.exploiters)
        if not args.imitation_decisions:
            self._add_anchors()
        if args.opponents_from and fresh:
            from rlyeh_env.policy.bot import load_policies

            self.matchmaker.add_fixed(load_policies(args.opponents_from), "target")
        self.collector = Collector(args.num_games, self.sample_generator, args.central_critic)
        self.workers = None  # RolloutWorkers (or Ray's), started by the first update when rollout_workers > 1 or backend is ray
        self.update = 0
        self.decisions = 0
        self.imitated = 0  # heuristic decisions cloned (the warm start runs once, before update 1)
        self.history: list[dict] = []  # one row of figures per update
        self.run_dir = Path(args.runs_dir) / args.run_name

    def _read_anchors(self, league_anchors) -> list[tuple[str, dict | None]]:
        """(name, networks per role) of each of `league_anchors`: the untrained ones copied now,
        checkpoints loaded and checked now; warm-start is None until PPO starts."""
        anchors = []
        for anchor in league_anchors:
            source, modifiers = split_anchor(anchor)
            suffix = "".join(modifiers)  # how the league plays an entry of that name
            if source == "warm-start":
                anchors.append((anchor, None))
            elif source == "untrained":
                anchors.append((anchor, {role: copy.deepcopy(net) for role, net in self.nets.items()}))
            else:  # a shipped version or a checkpoint file
                anchors.append((Path(source).stem + suffix, _checked_policies(source, self.nets, "league_anchors")))
        names = [name for name, _ in anchors]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:  # the league keeps its records by name
            raise ValueError(f"league_anchors: two anchors would be named {', '.join(twice)}: give the files "
                             "different names")
        return anchors

    def _add_anchors(self) -> None:
        """The anchors join the league, in the order `league_anchors` gives them."""
        for name, nets in self._anchors:
            self.matchmaker.add_anchors(nets or self.nets, name)
        self._anchors = []

    def _join_resumed_league(self, saved_anchors) -> None:
        """Anchors given to a resumed run beyond its saved ones join its league now (for example
        an exploiter that `scripts/exploit.py` found, so the learners train against it). A saved
        anchor cannot leave, and only a shipped version or a checkpoint file can join: warm-start
        and untrained name the networks the run started from, which a resumed run no longer has."""
        gone = [anchor for anchor in saved_anchors if anchor not in self.args.league_anchors]
        if gone:
            raise ValueError(f"league_anchors: a resumed league keeps its anchors ({', '.join(saved_anchors)}); "
                             f"{', '.join(gone)} cannot leave it: give the saved ones, then those to add")
        added = [anchor for anchor in self.args.league_anchors if anchor not in saved_anchors]
        late = [anchor for anchor in added if split_anchor(anchor)[0] in ("warm-start", "untrained")]
        if late:
            raise ValueError(f"league_anchors: {', '.join(late)} cannot join a resumed league (it names the "
                             "networks the run started from); add a shipped version or a checkpoint file")
        anchors = self._read_anchors(added)
        taken = {entry.name for role in ROLES for entry in self.matchmaker.league.entries[role]}
        clash = sorted(name for name, _ in anchors
                       if any(anchor_entry_name(role, name) in taken for role in ROLES))
        if clash:
            raise ValueError(f"league_anchors: the league already has an anchor named {', '.join(clash)}: give the "
                             "file another name")
        self._anchors = anchors
        self._add_anchors()

    def _optimizer(self, net, lr: float | None = None) -> torch.optim.Optimizer:
        return torch.optim.Adam(net.parameters(), lr=lr or self.args.learning_rate, eps=1e-5)

    def _restart_exploiters(self) -> None:
        """Each exploiter starts over as a copy of its role's main learner, with a fresh optimizer."""
        for role, exploiter in self.exploiters.items():
            exploiter.net.load_state_dict(self.nets[role].state_dict())
            self.exploiter_optimizers[role] = self._optimizer(exploiter.net, self.args.exploiter_learning_rate)

    def trained(self) -> dict[str, tuple[torch.nn.Module, torch.optim.Optimizer]]:
        """Every network an update trains, with its optimizer, by `trainee_key`."""
        out = {trainee_key(role): (net, self.optimizers[role]) for role, net in self.nets.items()}
        for role, exploiter in self.exploiters.items():
            out[trainee_key(role, exploiter=True)] = (exploiter.net, self.exploiter_optimizers[role])
        return out

    # -- the loop ---------------------------------------------------------------------------------

    def train(self, max_updates: int | None = None) -> dict:
        """Train until `total_decisions` (or `max_updates` more updates); return the last figures."""
        args = self.args
        self.run_dir.mkdir(parents=True, exist_ok=True)
        writer = _summary_writer(self.run_dir / "tb", args)
        if args.imitation_decisions and not self.imitated:
            self._warm_start(writer)
        bar = progress_bar(args.progress, args.total_decisions, args.run_name, initial=self.decisions)
        row: dict = {}
        done_updates = 0
        interrupted = False
        try:
            while self.decisions < args.total_decisions and (max_updates is None or done_updates < max_updates):
                row = self.train_one_update(bar)
                done_updates += 1
                for name, value in row.items():
                    if isinstance(value, (int, float)) and math.isfinite(value):
                        writer.add_scalar(name, value, self.decisions)
                if bar is not None:
                    bar.set_postfix_str(_postfix(row), refresh=False)
                if self.update % args.checkpoint_every == 0:
                    self.save(self.run_dir / "checkpoint.pt")
        except KeyboardInterrupt:  # the state is that of the last finished update (train_one_update)
            interrupted = True
        finally:
            if bar is not None:
                bar.close()
            writer.close()
            self.close()
        try:
            with interrupt_deferred():  # the run's files are written whole, even under Ctrl-C
                self.save(self.run_dir / "checkpoint.pt")
                self.export_policies(self.run_dir / "policies.pt")
                atomic_write_text(self.run_dir / "history.json", json.dumps(self.history, indent=1))
                if not interrupted:
                    from .plots import plot_learning_curves

                    plot_learning_curves(self.history, self.run_dir / "learning_curves.png")
        except KeyboardInterrupt:
            interrupted = True
        if interrupted:
            raise TrainingInterrupted(self.run_dir / "checkpoint.pt", self.update)
        return row

    def _warm_start(self, writer) -> None:
        """Clone the teacher (training/imitation.py), log it, save the clone's policies as
        `warm_start.pt`, evaluate, and checkpoint."""
        from .imitation import imitate

        rows = imitate(self, self.args.progress)
        for epoch, row in enumerate(rows):
            for name, value in row.items():
                writer.add_scalar(name, value, epoch + 1)
        self.imitated = sum(v for k, v in rows[-1].items() if k.endswith("/decisions"))
        # the clone as a bot of its own: a later run can seat it as a league anchor
        self.export_policies(self.run_dir / "warm_start.pt")
        self._restart_exploiters()  # the exploiters start from the warm-started learners
        self._add_anchors()
        if self.args.eval_every:
            row = {f"eval/{name}": value for name, value in evaluate_against_bots(self, self.args.eval_games).items()}
            for name, value in row.items():
                writer.add_scalar(name, value, 0)
            self.history.append({"update": 0, "charts/decisions": 0, **row})
        self.save(self.run_dir / "checkpoint.pt")

    def train_one_update(self, bar=None) -> dict:
        args = self.args
        started = time.perf_counter()
        if args.anneal_lr or args.exploiter_learning_rate:
            lr = args.learning_rate
            if args.anneal_lr:
                lr *= max(0.0, 1.0 - self.decisions / args.total_decisions)
            for optimizer in self.optimizers.values():
                optimizer.param_groups[0]["lr"] = lr
            for optimizer in self.exploiter_optimizers.values():
                optimizer.param_groups[0]["lr"] = args.exploiter_learning_rate or lr
        self.matchmaker.finetune = self.decisions >= args.total_decisions - args.finetune_decisions
        generators = self._generator_states()
        learning = False
        try:
            batches, finished = self._rollout(bar)
            with interrupt_deferred():  # the update and its bookkeeping finish before a Ctrl-C acts
                learning = True
                return self._learn(batches, finished, started, time.perf_counter() - started)
        except KeyboardInterrupt:
            if not learning:  # nothing learnt yet: back to the state the last update left
                self._set_generator_states(generators)
            raise

    def _learn(self, batches, finished, started: float, rollout_seconds: float) -> dict:
        """The PPO update on a rollout, then the figures, snapshots and evaluation of the update."""
        args = self.args
        made = sum(len(batch["actions"]) for batch in batches.values())
        row: dict = {"update": self.update + 1}
        trained = self.trained()
        for trainee, batch in batches.items():
            net, optimizer = trained[trainee]
            key = trainee.lower()
            stats = ppo_update(net, optimizer, batch, args, self.shuffle_generator)
            for name, value in stats.items():
                row[f"losses/{key}/{name}"] = value
            auc = belief_auc_by_size(*(batch[name].numpy() for name in ("belief_logits", "belief_targets", "belief_valid")),
                                     table_sizes(batch["obs"]))
            if auc is not None:  # None: no seat to tell apart (one cultist a table: the cultist's)
                row[f"belief/{key}_auc"] = auc
        self.update += 1
        self.decisions += made
        seconds = time.perf_counter() - started
        self.matchmaker.record(finished)
        row.update(self._rollout_figures(finished))
        row["charts/decisions"] = self.decisions
        row["charts/decisions_per_second"] = made / seconds
        # Every decision of the rollout's games, the frozen opponents' and scripted bots' included:
        # the learners' share of them is what a league pays for its opponents.
        played = sum(game.decisions for game in finished)
        row["charts/decisions_played"] = played
        row["charts/learner_share"] = made / played if played else 0.0
        row["charts/rollout_fraction"] = rollout_seconds / seconds
        row["charts/learning_rate"] = self.optimizers[Role.INVESTIGATOR].param_groups[0]["lr"]
        row["charts/finetune"] = float(self.matchmaker.finetune)
        if self.update % args.snapshot_every == 0:
            self.matchmaker.add_snapshots(f"u{self.update}")
        if self.exploiters and self.update % args.exploiter_period == 0:
            self.matchmaker.add_exploiters(f"u{self.update}")
            self._restart_exploiters()
        row.update(self._league_figures())  # the league as the next rollout finds it
        if args.snapshot_files_every and self.update % args.snapshot_files_every == 0:
            self.export_policies(self.run_dir / "snapshots" / f"u{self.update:05d}.pt")
        if args.eval_every and self.update % args.eval_every == 0:
            for name, value in evaluate_against_bots(self, args.eval_games).items():
                row[f"eval/{name}"] = value
        self.history.append(row)
        return row

    def _rollout(self, bar) -> tuple[dict[Role, dict[str, torch.Tensor]], list]:
        """This update's games: each learner role's batch (GAE done) and the finished games."""
        args = self.args
        if args.rollout_workers > 1 or args.backend == "ray":
            if self.workers is None:
                self.workers = _rollout_workers(args)
            weights = {key: to_numpy(net.state_dict()) for key, (net, _) in self.trained().items()}
            joined, finished = self.workers.collect(
                weights, self.matchmaker, args.seed, self.update, args.decisions_per_rollout
            )
            if bar is not None:
                bar.update(sum(len(batch["actions"]) for batch in joined.values()))
            return joined, finished
        # Rollout forwards are small batches: one thread does them as fast as two, and does not
        # stall when the other core is busy. The update's big matrix products get `threads`.
        torch.set_num_threads(1)
        buffers, finished = self.collector.run(
            self.matchmaker, trainees(self.learners, self.exploiters), learner_decisions=args.decisions_per_rollout,
            on_decisions=bar.update if bar is not None else None,
        )
        torch.set_num_threads(args.threads)
        batches = {key: buffer.finish(args.gamma, args.gae_lambda) for key, buffer in buffers.items() if len(buffer)}
        return batches, finished

    def _generator_states(self) -> tuple:
        return (self.rng.getstate(), self.sample_generator.get_state(), self.shuffle_generator.get_state(),
                torch.get_rng_state())

    def _set_generator_states(self, states: tuple) -> None:
        python, sample, shuffle, global_torch = states
        self.rng.setstate(python)
        self.sample_generator.set_state(sample)
        self.shuffle_generator.set_state(shuffle)
        torch.set_rng_state(global_torch)

    def close(self) -> None:
        """Stop the rollout workers, if any (also done when the trainer is garbage-collected)."""
        if self.workers is not None:
            self.workers.close()
            self.workers = None

    def _rollout_figures(self, finished) -> dict:
        """Investigators' win rate in the rollout's games, by who played which side."""
        groups: dict[str, list[bool]] = {}
        for game in finished:
            learner, opponent = game.tags["learner"], game.tags["opponent"]
            if learner == "both":
                groups.setdefault("rollout/selfplay_investigator_win", []).append(game.investigators_won)
            else:
                groups.setdefault(f"rollout/{learner}_win_vs_{opponent}", []).append(learner_won(game))
        figures = {name: win_rate(outcomes) for name, outcomes in groups.items()}
        figures["rollout/games"] = len(finished)
        return figures

    def _league_figures(self) -> dict:
        """Per role: how many entries the league holds, and the opposing main learner's recorded
        win rate against them (mean, and against the hardest entry)."""
        league, figures = self.matchmaker.league, {}
        for role in ROLES:
            entries = league.entries[role]
            figures[f"league/{role.name.lower()}_entries"] = len(entries)
            if entries:
                rates = [league.win_rate(entry) for entry in entries]
                against = "cultists" if role == Role.CULTIST else "investigators"
                figures[f"league/win_rate_vs_{against}_mean"] = sum(rates) / len(rates)
                figures[f"league/win_rate_vs_{against}_hardest"] = min(rates)
        return figures

    # -- checkpoints ------------------------------------------------------------------------------

    def _policies(self, with_critic: bool = True) -> dict:
        out = {}
        for role, net in self.nets.items():
            weights = {k: v for k, v in net.state_dict().items() if with_critic or not k.startswith("critic.")}
            out[role.name] = {"spec": net.spec(), "weights": weights}
        return out

    def save(self, path: Path) -> None:
        save_checkpoint(
            path,
            {
                "kind": "training",
                "args": dataclasses.asdict(self.args),
                "policies": self._policies(),
                "optimizers": {role.name: opt.state_dict() for role, opt in self.optimizers.items()},
                "exploiters": {
                    role.name: {"weights": p.net.state_dict(), "optimizer": self.exploiter_optimizers[role].state_dict()}
                    for role, p in self.exploiters.items()
                },
                "pool": self.matchmaker.state_dict(),
                "rng": {
                    "python": _encode_random_state(self.rng.getstate()),
                    "sample": self.sample_generator.get_state(),
                    "shuffle": self.shuffle_generator.get_state(),
                    "torch": torch.get_rng_state(),
                },
                "update": self.update,
                "decisions": self.decisions,
                "imitated": self.imitated,
                "history": json.dumps(self.history),
            },
        )
        atomic_write_text(path.with_name("league.json"), json.dumps(self.matchmaker.league.table(), indent=1))

    def export_policies(self, path: Path) -> None:
        """The two policies alone (no value network, optimizer or pool): what a bot needs."""
        save_checkpoint(
            path,
            {
                "kind": "policy",
                "args": dataclasses.asdict(self.args),
                "policies": self._policies(with_critic=False),
                "update": self.update,
                "decisions": self.decisions,
            },
        )

    @classmethod
    def resume(cls, path: str | Path, **overrides) -> "Trainer":
        """A trainer in exactly the state `save` wrote (settings may be overridden, e.g. a
        longer `total_decisions`)."""
        data = load_checkpoint(path, kind="training")
        saved = args_from_dict(data["args"])  # fields a checkpoint predates take their defaults
        fixed = sorted(
            name for name in NETWORK_SETTINGS
            if name in overrides and _as_tuple(overrides[name]) != _as_tuple(getattr(saved, name))
        )
        if fixed:
            raise CheckpointError(
                f"{', '.join(fixed)} cannot change when resuming: the saved networks were built with "
                + ", ".join(f"{name}={getattr(saved, name)!r}" for name in fixed)
            )
        args = saved.replace(**overrides)
        trainer = cls(args, fresh=False)
        try:
            for role in ROLES:
                trainer.nets[role].load_state_dict(data["policies"][role.name]["weights"])
                trainer.optimizers[role].load_state_dict(data["optimizers"][role.name])
            trainer._restart_exploiters()  # exploiters a resume switches on start from the learners
            for role, exploiter in trainer.exploiters.items():
                if role.name in data.get("exploiters", {}):
                    exploiter.net.load_state_dict(data["exploiters"][role.name]["weights"])
                    trainer.exploiter_optimizers[role].load_state_dict(data["exploiters"][role.name]["optimizer"])
        except (KeyError, RuntimeError, ValueError) as err:
            raise CheckpointError(f"{path}: the saved networks do not fit these settings: {err}") from err
        trainer.matchmaker.load_state_dict(data["pool"])
        trainer._join_resumed_league(saved.league_anchors)
        trainer.rng.setstate(_decode_random_state(data["rng"]["python"]))
        trainer.sample_generator.set_state(data["rng"]["sample"])
        trainer.shuffle_generator.set_state(data["rng"]["shuffle"])
        torch.set_rng_state(data["rng"]["torch"])
        trainer.update, trainer.decisions, trainer.imitated = data["update"], data["decisions"], data["imitated"]
        trainer.history = json.loads(data["history"])
        return trainer


def _rollout_workers(args: Args):
    """The workers of the chosen backend (Ray is imported only when chosen)."""
    if args.backend == "ray":
        from .ray_workers import RayRolloutWorkers

        return RayRolloutWorkers(args, args.rollout_workers)
    return RolloutWorkers(args, args.rollout_workers)


def _checked_policies(path: str, nets: dict, setting: str) -> dict:
    """The policies of a checkpoint file or shipped version (v4), each checked to have the shape
    of the learners' network of its role (a saved league rebuilds its entries in the learners'
    shape)."""
    from rlyeh_env.policy.bot import load_policies

    path = shipped_checkpoint(path) if path in SHIPPED_VERSIONS else path
    policies = load_policies(path, any_rules=setting == "init_from")  # a start point may predate the rules
    for role, source in policies.items():
        if source.spec() != nets[role].spec():
            raise CheckpointError(
                f"{setting} {path}: its {role.name.lower()} network is {source.spec()}, these settings build "
                f"{nets[role].spec()}: give the same hidden, shared_trunk and recurrent"
            )
    return policies


def _load_policies_into(path: str, nets: dict) -> None:
    """`init_from`: the checkpoint's networks into the learners (a policy file has no value
    networks: `load_policies` leaves those freshly initialised)."""
    for role, source in _checked_policies(path, nets, "init_from").items():
        nets[role].load_state_dict(source.state_dict())


def _as_tuple(value):
    return tuple(value) if isinstance(value, list) else value


def _encode_random_state(state: tuple) -> list:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _decode_random_state(data: list) -> tuple:
    version, internal, gauss = data
    return version, tuple(internal), gauss


def _summary_writer(path: Path, args: Args):
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(path))
    table = "\n".join(f"|{k}|{v}|" for k, v in dataclasses.asdict(args).items())
    writer.add_text("hyperparameters", f"|setting|value|\n|-|-|\n{table}")
    return writer


def _postfix(row: dict) -> str:
    parts = [f"{row.get('charts/decisions_per_second', 0):,.0f} dec/s"]
    for key, label in (
        ("rollout/investigator_win_vs_heuristic", "inv>heur"),
        ("rollout/cultist_win_vs_heuristic", "cult>heur"),
        ("rollout/selfplay_investigator_win", "self inv"),
    ):
        value = row.get(key)
        if value is not None and math.isfinite(value):
            parts.append(f"{label} {value:.0%}")
    return " ".join(parts)
