"""Tournaments: any line-up of random, heuristic and checkpoint players, per table size.

A player is named by a string: `random`, `heuristic`, `checkpoint` (the shipped bots,
`checkpoints/rlyeh_v0.pt`) or the path of a checkpoint file. Checkpoint players play batched
(one forward for every game waiting on them), so thousands of games take minutes. Game i of
every match-up at a table size uses the same seed, so line-ups are compared on the same deals.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from rlyeh_env.arena import wilson_interval
from rlyeh_env.engine import GameConfig, Role

from .collector import Collector, GameSpec
from .metrics import belief_auc
from .players import BotPlayer, NetPlayer
from .policy_bot import SHIPPED_CHECKPOINT, load_policies
from .progress import progress_bar


@dataclass
class MatchResult:
    investigators: str
    cultists: str
    num_players: int
    games: int
    investigator_wins: int
    ci_low: float
    ci_high: float
    investigator_belief_auc: float | None = None
    cultist_belief_auc: float | None = None

    @property
    def investigator_win_rate(self) -> float:
        return self.investigator_wins / self.games if self.games else float("nan")


def make_player(name: str, role: Role, greedy: bool = False, cache: dict | None = None):
    """The player a line-up name stands for, on the side of `role`."""
    if name in ("random", "heuristic"):
        return BotPlayer(name)
    path = SHIPPED_CHECKPOINT if name == "checkpoint" else Path(name)
    cache = cache if cache is not None else {}
    if path not in cache:
        cache[path] = load_policies(path)
    return NetPlayer(cache[path][role], f"{name}:{role.name.lower()}", greedy=greedy, track_beliefs=True)


def game_seed(seed: int, num_players: int, index: int) -> int:
    return random.Random(f"eval-{seed}-{num_players}-{index}").getrandbits(63)


def play_match(
    investigators, cultists, num_players: int, games: int, seed: int = 0, num_slots: int = 64,
    config: dict | None = None, names: tuple[str, str] | None = None,
) -> MatchResult:
    """`games` seeded games with `investigators` on every investigator seat and `cultists` on
    every cultist seat (players from `make_player`)."""
    game_config = GameConfig(num_players=num_players, **(config or {}))
    for player in (investigators, cultists):
        if isinstance(player, NetPlayer):
            player.belief_records.clear()

    def next_game(index: int) -> GameSpec:
        return GameSpec(game_config, game_seed(seed, num_players, index),
                        {Role.INVESTIGATOR: investigators, Role.CULTIST: cultists})

    generator = torch.Generator().manual_seed(seed)
    _, finished = Collector(min(num_slots, games), generator).run(next_game, num_games=games)
    wins = sum(g.investigators_won for g in finished)
    low, high = wilson_interval(wins, games)
    names = names or (investigators.name, cultists.name)
    return MatchResult(names[0], names[1], num_players, games, wins, low, high,
                       _auc(investigators), _auc(cultists))


def _auc(player) -> float | None:
    if not isinstance(player, NetPlayer) or not player.belief_records:
        return None
    logits, targets, valid = (np.concatenate(parts) for parts in zip(*player.belief_records))
    return belief_auc(logits, targets, valid)


def tournament(
    lineups: list[tuple[str, str]], table_sizes: list[int], games: int, seed: int = 0, greedy: bool = False,
    config: dict | None = None, progress: bool = True, workers: int = 1,
) -> list[MatchResult]:
    """Every (investigators, cultists) line-up at every table size; with `workers` > 1 the
    match-ups are shared among processes (each on one torch thread). Results do not depend on
    `workers`: every game's seed is fixed by (seed, table size, game index)."""
    jobs = [(inv, cult, n, games, seed, greedy, config) for n in table_sizes for inv, cult in lineups]
    bar = progress_bar(progress, len(jobs) * games, "tournament", unit="game")
    results: list[MatchResult] = []
    try:
        if workers <= 1:
            for job in jobs:
                results.append(_play_job(job))
                if bar is not None:
                    bar.update(games)
        else:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(workers, initializer=_worker_init) as pool:
                for result in pool.imap(_play_job, jobs):
                    results.append(result)
                    if bar is not None:
                        bar.update(games)
    finally:
        if bar is not None:
            bar.close()
    return results


_CACHE: dict = {}  # checkpoint path -> policies, per process


def _worker_init() -> None:
    torch.set_num_threads(1)


def _play_job(job) -> MatchResult:
    inv, cult, n, games, seed, greedy, config = job
    return play_match(
        make_player(inv, Role.INVESTIGATOR, greedy, _CACHE), make_player(cult, Role.CULTIST, greedy, _CACHE),
        n, games, seed, config=config, names=(inv, cult),
    )


def markdown_table(results: list[MatchResult]) -> str:
    rows = [
        "| players | investigators | cultists | games | investigators win | 95% CI | belief AUC (inv / cult) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        aucs = " / ".join("-" if a is None else f"{a:.3f}" for a in (r.investigator_belief_auc, r.cultist_belief_auc))
        rows.append(
            f"| {r.num_players} | {r.investigators} | {r.cultists} | {r.games} | {r.investigator_win_rate:.1%} "
            f"| {r.ci_low:.1%}-{r.ci_high:.1%} | {aucs} |"
        )
    return "\n".join(rows)


def results_json(results: list[MatchResult]) -> list[dict]:
    """Plain JSON values: an undefined AUC (no class to tell apart) becomes null, not NaN."""
    def clean(value):
        return None if isinstance(value, float) and not math.isfinite(value) else value

    return [{k: clean(v) for k, v in {**asdict(r), "investigator_win_rate": r.investigator_win_rate}.items()}
            for r in results]


def evaluate_against_bots(trainer, games: int) -> dict[str, float]:
    """The learners (sampling, as trained) against the random and heuristic bots, per role, on
    the run's table sizes in turn: win rates of the learner's side and belief AUCs."""
    sizes = trainer.args.table_sizes
    figures: dict[str, float] = {}
    for opponent in ("heuristic", "random"):
        for role in (Role.INVESTIGATOR, Role.CULTIST):
            wins = total = 0
            aucs = []
            for k, n in enumerate(sizes):
                count = games // len(sizes) + (1 if k < games % len(sizes) else 0)
                if count == 0:
                    continue
                learner = NetPlayer(trainer.nets[role], "learner", track_beliefs=True)
                bot = BotPlayer(opponent)
                inv, cult = (learner, bot) if role == Role.INVESTIGATOR else (bot, learner)
                result = play_match(inv, cult, n, count, seed=trainer.args.seed + 7919 * trainer.update,
                                    num_slots=32, config={"sigil_reward": 0.0})
                won = result.investigator_wins if role == Role.INVESTIGATOR else count - result.investigator_wins
                wins, total = wins + won, total + count
                auc = _auc(learner)
                if auc is not None and np.isfinite(auc):
                    aucs.append(auc)
            key = role.name.lower()
            figures[f"{key}_win_vs_{opponent}"] = wins / total
            if aucs:
                figures[f"{key}_belief_auc_vs_{opponent}"] = float(np.mean(aucs))
    return figures


BAR = 0.15  # the margin over the heuristic-vs-heuristic win rate the shipped bots must clear


def bars_table(results: list[MatchResult], trained: str = "checkpoint") -> str | None:
    """The shipping bars of checkpoints/README.md, per table size, from a tournament holding the
    needed line-ups (None when it does not): investigators' win rate of each line-up against
    the heuristic-vs-heuristic figure of the same run, and against random compared with the
    heuristic's own figure against random."""
    by = {(r.investigators, r.cultists, r.num_players): r.investigator_win_rate for r in results}
    sizes = sorted({r.num_players for r in results})
    needed = [("heuristic", "heuristic"), (trained, "heuristic"), ("heuristic", trained), (trained, "random"),
              ("heuristic", "random"), ("random", trained), ("random", "heuristic")]
    sizes = [n for n in sizes if all((inv, cult, n) in by for inv, cult in needed)]
    if not sizes:
        return None
    rows = [
        "| players | H vs H | T inv vs H cult (bar: >= +15 pts) | H inv vs T cult (bar: <= -15 pts) "
        "| T inv vs random (bar: > H inv vs random) | T cult vs random inv (bar: >= H cult) |",
        "|---|---|---|---|---|---|",
    ]

    def mark(ok: bool) -> str:
        return "pass" if ok else "FAIL"

    for n in sizes:
        base = by[("heuristic", "heuristic", n)]
        t_inv, t_cult = by[(trained, "heuristic", n)], by[("heuristic", trained, n)]
        t_vs_random, h_vs_random = by[(trained, "random", n)], by[("heuristic", "random", n)]
        # cultists' side: the trained cultists hold random investigators to at most what the heuristic does
        r_vs_t, r_vs_h = by[("random", trained, n)], by[("random", "heuristic", n)]
        rows.append(
            f"| {n} | {base:.1%} | {t_inv:.1%} ({(t_inv - base) * 100:+.1f}, {mark(t_inv - base >= BAR - 1e-9)}) "
            f"| {t_cult:.1%} ({(t_cult - base) * 100:+.1f}, {mark(base - t_cult >= BAR - 1e-9)}) "
            f"| {t_vs_random:.1%} vs {h_vs_random:.1%} ({mark(t_vs_random > h_vs_random)}) "
            f"| random inv win {r_vs_t:.1%} vs {r_vs_h:.1%} ({mark(r_vs_t <= r_vs_h)}) |"
        )
    return "\n".join(rows)
