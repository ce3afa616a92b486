"""The tournament runner: line-ups of players at table sizes, with win rates and belief AUCs.

`rlyeh eval` / `scripts/evaluate.py`, `scripts/balance.py` and the trainer's evaluation all play
their games here. A line-up names the investigators' player and the cultists' player
(`rlyeh_env.players`); roles are dealt by the engine, and each side's player fills every seat of
its role. Many games run in lockstep through `Table`s; every table waiting on the same player is
answered in one call, so a checkpoint runs one batched forward for all of them.

Game i of every match-up at a table size uses the same engine seed (`game_seed`), so line-ups
are compared on the same deals, and results do not depend on the number of workers.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import asdict, dataclass, field

import numpy as np

from .engine import EndReason, GameConfig, Role
from .metrics import belief_auc, deal_belief_targets, wilson_interval
from .observation import IncrementalEncoder
from .players import PolicyCache, make_side_player
from .table import Table, legal_masks
from .usage import count_decision, count_game


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
    mean_rounds: float = 0.0  # rounds started per game (the round in progress at the end counts)
    mean_decisions: float = 0.0
    ends: dict[str, int] = field(default_factory=dict)  # how the games ended: end reason -> games
    usage: dict[str, int] = field(default_factory=dict)  # what the players did (rlyeh_env.usage)

    @property
    def investigator_win_rate(self) -> float:
        return self.investigator_wins / self.games if self.games else float("nan")


def game_seed(seed: int, num_players: int, index: int) -> int:
    return random.Random(f"eval-{seed}-{num_players}-{index}").getrandbits(63)


class _Game:
    """A table in flight, who plays each seat, and the belief targets of each seat."""

    def __init__(self, table: Table, index: int, sides: dict[Role, object]):
        self.table, self.index = table, index
        self.players = [sides[Role(role)] for role in table.roles]
        self.beliefs = deal_belief_targets(tuple(table.roles.tolist()))
        self.decisions = 0


class _Beliefs:
    """A side's belief logits at every decision, with the true roles they should find."""

    def __init__(self):
        self.logits, self.targets, self.valid = [], [], []

    def add(self, logits: np.ndarray, games: list[_Game], seats: list[int]) -> None:
        for row, game, seat in zip(logits, games, seats):
            target, valid = game.beliefs[seat]  # fixed for the game: computed once at its start
            self.logits.append(row)
            self.targets.append(target)
            self.valid.append(valid)

    def auc(self) -> float | None:
        if not self.logits:
            return None
        return belief_auc(np.stack(self.logits), np.stack(self.targets), np.stack(self.valid))


def play_match(
    investigators, cultists, num_players: int, games: int, seed: int = 0, num_slots: int = 64,
    config: dict | None = None, names: tuple[str, str] | None = None,
) -> MatchResult:
    """`games` seeded games with `investigators` on every investigator seat and `cultists` on
    every cultist seat (players from `rlyeh_env.players.make_side_player`, or any object with
    `new_match`, `start`, `act` and `finish` as they have)."""
    game_config = GameConfig(num_players=num_players, **(config or {}))
    sides = {Role.INVESTIGATOR: investigators, Role.CULTIST: cultists}
    investigators.new_match(seed)
    cultists.new_match(seed + 1)
    beliefs = {id(investigators): _Beliefs(), id(cultists): _Beliefs()}
    encoders = [IncrementalEncoder(game_config) for _ in range(min(num_slots, games))]  # one per slot: it follows one game
    tally: Counter = Counter()
    usage: Counter = Counter()
    started = 0

    def start(slot: int) -> _Game | None:
        nonlocal started
        if started >= games:
            return None
        seed_of_game = game_seed(seed, num_players, started)
        game = _Game(Table(game_config, seed_of_game, encoders[slot]), started, sides)
        seats = random.Random(seed_of_game ^ 0xB075)  # each seat's bot its own reproducible stream
        for seat, player in enumerate(game.players):
            player.start((game.index, seat), seats.getrandbits(63), game_config)
        started += 1
        return game

    slots = [start(i) for i in range(len(encoders))]
    while any(slots):
        waiting: dict[int, list[int]] = {}  # player -> the slots whose decider it plays
        for i, game in enumerate(slots):
            if game is not None:
                waiting.setdefault(id(game.players[game.table.decider]), []).append(i)
        for indices in waiting.values():
            group = [slots[i] for i in indices]
            player = group[0].players[group[0].table.decider]
            seats = [game.table.decider for game in group]
            observations = np.empty((len(group), group[0].table.encoder.size), dtype=np.float32)
            for row, (game, seat) in enumerate(zip(group, seats)):
                game.table.observation(seat, out=observations[row])
            masks = legal_masks([game.table for game in group], dtype=np.int8)
            actions, belief_logits = player.act([(g.index, s) for g, s in zip(group, seats)], observations, masks)
            if belief_logits is not None:
                beliefs[id(player)].add(belief_logits, group, seats)
            for i, game, seat, action in zip(indices, group, seats, actions):
                count_decision(usage, game.table, seat, action)
                game.table.step(action)
                game.decisions += 1
                if game.table.over:
                    _tally(tally, game)
                    count_game(usage, game.table.state)
                    for seat, seat_player in enumerate(game.players):
                        seat_player.finish((game.index, seat))
                    slots[i] = start(i)
    low, high = wilson_interval(tally["investigators"], games)
    names = names or (investigators.name, cultists.name)
    return MatchResult(
        names[0], names[1], num_players, games, tally["investigators"], low, high,
        beliefs[id(investigators)].auc(), beliefs[id(cultists)].auc(),
        tally["rounds"] / max(games, 1), tally["decisions"] / max(games, 1),
        {reason.name.lower(): tally[reason] for reason in EndReason if tally[reason]},
        dict(sorted(usage.items())),
    )


def _tally(tally: Counter, game: _Game) -> None:
    state = game.table.state
    tally["investigators"] += game.table.investigators_won
    tally["rounds"] += state.round + 1
    tally["decisions"] += game.decisions
    tally[EndReason(state.end_reason)] += 1


Job = tuple  # (investigators, cultists, num_players, games, seed, greedy, config)


def tournament(
    lineups: list[tuple[str, str]], table_sizes: list[int], games: int, seed: int = 0, greedy: bool = False,
    config: dict | None = None, progress: bool = True, workers: int = 1,
) -> list[MatchResult]:
    """Every (investigators, cultists) line-up at every table size, by name. With `workers` > 1
    the match-ups are shared among processes (each on one torch thread); never more workers
    than match-ups."""
    return list(tournament_results(lineups, table_sizes, games, seed, greedy, config, progress, workers))


def tournament_results(
    lineups: list[tuple[str, str]], table_sizes: list[int], games: int, seed: int = 0, greedy: bool = False,
    config: dict | None = None, progress: bool = True, workers: int = 1,
):
    """`tournament`'s results one match-up at a time, in order, as each finishes (so a caller
    interrupted half way keeps the finished ones)."""
    jobs = [(inv, cult, n, games, seed, greedy, config) for n in table_sizes for inv, cult in lineups]
    yield from job_results(jobs, progress, workers)


def job_results(jobs: list[Job], progress: bool = True, workers: int = 1):
    """The results of explicit match-ups (`Job`s, each with its own rules `config`), in order, as
    each finishes: `tournament_results` for callers whose match-ups differ by more than the line-up
    and the table size (scripts/calibrate.py tries other settings per size)."""
    from .progress import progress_bar

    bar = progress_bar(progress, sum(job[3] for job in jobs), "tournament", unit="game")
    workers = max(1, min(workers, len(jobs)))
    results = _results(jobs, workers)
    try:
        for result, job in zip(results, jobs):
            if bar is not None:
                bar.update(job[3])
            yield result
    finally:
        results.close()  # stops the workers now, wherever the caller was interrupted
        if bar is not None:
            bar.close()


def until_interrupted(results) -> tuple[list[MatchResult], bool]:
    """The results of `tournament_results` as they come, until they end or Ctrl-C: (the finished
    ones, whether it was interrupted)."""
    finished = []
    try:
        for result in results:
            finished.append(result)
    except KeyboardInterrupt:
        return finished, True
    return finished, False


class TournamentError(RuntimeError):
    """A worker process died or gave no result in time."""


def job_timeout(games: int) -> float:
    """Seconds one match-up may take in a worker before it counts as stuck: generous (8-seat games
    between checkpoints take well under a second each on one thread)."""
    return 120.0 + 3.0 * games


def _results(jobs: list[Job], workers: int):
    if workers == 1:
        yield from map(play_job, jobs)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, TimeoutError
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_one_thread) as pool:
        futures = [pool.submit(play_job, job) for job in jobs]
        try:
            for future, job in zip(futures, jobs):
                timeout = job_timeout(job[3])
                try:
                    yield future.result(timeout=timeout)
                except TimeoutError:
                    raise TournamentError(
                        f"a worker gave no result for {job[0]},{job[1]} at {job[2]} players in {timeout:.0f} s"
                    ) from None
                except BrokenProcessPool as err:
                    raise TournamentError(f"a tournament worker died ({err}); no result for {job[0]},{job[1]}") from err
        except BaseException:  # an error, a timeout or Ctrl-C: stop the workers before leaving
            for future in futures:
                future.cancel()
            # The executor has no public way to stop a busy worker; a stuck one would keep the
            # shutdown below (and the interpreter's exit) waiting forever.
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
            raise


POLICIES = PolicyCache()  # per process: a checkpoint in many match-ups is loaded once


def play_job(job: Job) -> MatchResult:
    inv, cult, n, games, seed, greedy, config = job
    return play_match(
        make_side_player(inv, Role.INVESTIGATOR, greedy, cache=POLICIES),
        make_side_player(cult, Role.CULTIST, greedy, cache=POLICIES),
        n, games, seed, config=config, names=(inv, cult),
    )


def _one_thread() -> None:
    """A worker: one torch thread, and Ctrl-C left to the parent, which stops the workers."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(1)


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
