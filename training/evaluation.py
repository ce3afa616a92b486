"""The trainer's evaluation games and the shipping bars of `checkpoints/README.md`.

Tournaments themselves (line-ups, seeds, batched play, win rates and AUCs) are
`rlyeh_env.tournament`; this module seats the live learners there and reads the bars off a
tournament's results.
"""

from __future__ import annotations

import numpy as np

from rlyeh_env.engine import Role
from rlyeh_env.players import ScriptedPlayer
from rlyeh_env.policy.batched import PolicyPlayer
from rlyeh_env.tournament import MatchResult, play_match


def evaluate_against_bots(trainer, games: int) -> dict[str, float]:
    """The learners (sampling, as trained) against the random and heuristic bots, per role, on
    the run's table sizes in turn: win rates of the learner's side and belief AUCs."""
    sizes = trainer.args.table_sizes
    games_at: dict[int, int] = {}  # a size repeated to weight it gets its games once, not the same deals twice
    for k, n in enumerate(sizes):
        games_at[n] = games_at.get(n, 0) + games // len(sizes) + (1 if k < games % len(sizes) else 0)
    figures: dict[str, float] = {}
    for opponent in ("heuristic", "random"):
        for role in (Role.INVESTIGATOR, Role.CULTIST):
            wins = total = 0
            aucs = []
            for n, count in games_at.items():
                if count == 0:
                    continue
                seed = trainer.args.seed + 7919 * trainer.update
                learner = PolicyPlayer(trainer.nets[role], "learner", greedy=False, seed=seed)
                bot = ScriptedPlayer(opponent)
                inv, cult = (learner, bot) if role == Role.INVESTIGATOR else (bot, learner)
                result = play_match(inv, cult, n, count, seed=seed, num_slots=32, config={"sigil_reward": 0.0})
                won = result.investigator_wins if role == Role.INVESTIGATOR else count - result.investigator_wins
                wins, total = wins + won, total + count
                auc = result.investigator_belief_auc if role == Role.INVESTIGATOR else result.cultist_belief_auc
                if auc is not None:  # None: no seat to tell apart (rlyeh_env.metrics.belief_auc)
                    aucs.append(auc)
            key = role.name.lower()
            figures[f"{key}_win_vs_{opponent}"] = wins / total
            if aucs:
                figures[f"{key}_belief_auc_vs_{opponent}"] = float(np.mean(aucs))
    return figures


BAR = 0.10  # the margin over heuristic-vs-heuristic the shipped bots must clear (v1's bar; v0 was held to 15)


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
        f"| players | H vs H | T inv vs H cult (bar: >= +{BAR:.0%} pts) | H inv vs T cult (bar: <= -{BAR:.0%} pts) "
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


def versions_table(results: list[MatchResult], new: str, old: str) -> str | None:
    """The bars of a new version against the one it replaces, per table size, from a tournament
    holding the four line-ups of the two (None when it does not): the new investigators win more
    against the old cultists than the old investigators do, and the old investigators win less
    against the new cultists than against their own; with each line-up's investigators' belief
    AUC."""
    by = {(r.investigators, r.cultists, r.num_players): r for r in results}
    needed = [(old, old), (new, old), (old, new), (new, new)]
    sizes = [n for n in sorted({r.num_players for r in results}) if all((i, c, n) in by for i, c in needed)]
    if not sizes:
        return None

    def cell(result: MatchResult) -> str:
        auc = result.investigator_belief_auc
        return f"{result.investigator_win_rate:.1%} (AUC {'-' if auc is None else f'{auc:.2f}'})"

    rows = [
        f"| players | {old} vs {old} | {new} inv vs {old} cult (bar: > {old} vs {old}) "
        f"| {old} inv vs {new} cult (bar: < {old} vs {old}) | {new} vs {new} |",
        "|---|---|---|---|---|",
    ]
    for n in sizes:
        base, up, down, own = (by[(i, c, n)] for i, c in needed)
        rate = base.investigator_win_rate
        rows.append(
            f"| {n} | {cell(base)} | {cell(up)} ({(up.investigator_win_rate - rate) * 100:+.1f}, "
            f"{'pass' if up.investigator_win_rate > rate else 'FAIL'}) "
            f"| {cell(down)} ({(down.investigator_win_rate - rate) * 100:+.1f}, "
            f"{'pass' if down.investigator_win_rate < rate else 'FAIL'}) | {cell(own)} |"
        )
    return "\n".join(rows)
