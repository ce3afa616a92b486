"""`League`: the frozen opponents of a run, per role, and the win rates recorded against them.

Each entry is a frozen policy of one role with the main learner's record against it (the
learner of the other role: wins and games, from the rollouts' finished games). Entries join as

- ``snapshot``: a copy of a main learner, every `Args.snapshot_every` updates;
- ``exploiter``: an exploiter at the end of its period (`Args.exploiter_period`), after it
  trained against the main learners only (training/opponents.py seats it);
- ``anchor``: a permanent entry of `Args.league_anchors`, kept for the whole run: the warm-start
  policy, an untrained network (close to uniform over the legal actions) or a past version's
  policy, sampled, or greedy when its name ends in ``:greedy`` (the warm start played greedily is
  the nearest a network comes to the scripted heuristic it cloned, which plays deterministically);
  with ``:bluffs`` its cultists also accuse a random legal seat at `Args.league_bluff_rate` and vote
  Yes on accusations, so that the investigators' vote meets accusers it must turn down. Fictitious
  play keeps every past policy; a league of a few recent ones forgets the weak and off-style
  opponents, and learners trained only against skilled play lose to them;
- ``fixed``: the policies of `Args.opponents_from`, the whole pool of an exploitability run; they
  never leave and nothing else joins.

A role keeps at most `Args.pool_size` snapshots and exploiters, the oldest leaving first; anchors
and fixed entries do not count towards it.

Which entry a pool game draws is prioritised fictitious self-play (PFSP, as in AlphaStar's
league): entry e is drawn with probability proportional to f(p_e), where p_e is the learner's
win rate against e with `Args.pfsp_prior_games` pseudo-games at 50% added (so a new entry, with
no record yet, counts as an even match and is drawn). The league also keeps each entry's record
per table size; with `Args.pfsp_by_size`, p_e is the learner's win rate at the size of
`Args.table_sizes` where it is lowest (each size with its own prior), so that an opponent which
beats the learner at one table size only is not hidden by the sizes where it does not: pooled
records let a cultist exploiter that wins big at 5 seats look ordinary. The sizes are not even
games, though (the cultists win most at 4 seats, the investigators at 8), so the lowest raw rate
is at the same size for nearly every entry; with `Args.pfsp_size_relative` an entry's rate at a
size is read against the learner's rate at that size over the role's whole league, 0.5 + p - the
league's average, and the draw favours the entries harder than the rest at some size.

With `Args.league_anchor_share`, that share of pool games draws among the anchors alone, weighted
by `Args.league_anchor_pfsp`: anchors are there for coverage, and by `hard` the weakest of them
(the untrained network) would hardly ever be drawn. The weightings:

- ``uniform``: f(p) = 1, plain fictitious self-play;
- ``hard``: f(p) = (1 - p) ** `Args.pfsp_power`, the opponents the learner loses to most;
- ``even``: f(p) = p (1 - p), the opponents it beats about half the time.

The records travel with the pool to the rollout workers and are saved in training checkpoints,
so a resumed run draws exactly as the run it continues; `table()` is the league's win-rate table
written beside the checkpoint (`league.json`).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from rlyeh_env.engine import Role
from rlyeh_env.policy.network import ActorCritic

from .config import BLUFF_ANCHOR, GREEDY_ANCHOR, Args, split_anchor
from .players import ROLES, NetPlayer

KINDS = ("snapshot", "exploiter", "anchor", "fixed")
PERMANENT = ("anchor", "fixed")  # kinds that never leave the league


@dataclass(eq=False)
class Entry:
    player: NetPlayer
    kind: str
    wins: float = 0.0  # the opposing main learner's wins against this entry (a draw counts 0.5)
    games: int = 0
    by_size: dict[int, tuple[float, int]] = field(default_factory=dict)  # table size -> (wins, games)

    @property
    def name(self) -> str:
        return self.player.name


def frozen_player(net: ActorCritic, name: str, bluff_rate: float) -> NetPlayer:
    """A league entry's player: greedy, and bluffing at `bluff_rate`, when its name's modifiers
    say so (the name travels to the rollout workers with the weights, and into saved leagues)."""
    _, modifiers = split_anchor(name)
    return NetPlayer(net, name, greedy=GREEDY_ANCHOR in modifiers,
                     bluff_rate=bluff_rate if BLUFF_ANCHOR in modifiers else 0.0)


def pfsp_weight(win_rate: float, weighting: str, power: float) -> float:
    """f(p) of the module docstring: how strongly an opponent the learner beats with
    probability `win_rate` is drawn."""
    if weighting == "uniform":
        return 1.0
    if weighting == "hard":
        return (1.0 - win_rate) ** power
    if weighting == "even":
        return win_rate * (1.0 - win_rate)
    raise ValueError(f"unknown PFSP weighting {weighting!r}")


class League:
    def __init__(self, args: Args):
        self.args = args
        self.entries: dict[Role, list[Entry]] = {role: [] for role in ROLES}
        self.version = 0  # changes whenever the entries' weights do (rollout workers keep a copy)

    def __len__(self) -> int:
        return sum(len(entries) for entries in self.entries.values())

    def add(self, role: Role, net: ActorCritic, name: str, kind: str) -> None:
        """A frozen copy of `net` joins `role`'s entries (the oldest non-fixed one may leave)."""
        if kind not in KINDS:
            raise ValueError(f"unknown league entry kind {kind!r}; known: {', '.join(KINDS)}")
        if self.args.pool_size == 0 and kind not in PERMANENT:
            return
        frozen = copy.deepcopy(net).requires_grad_(False)
        entries = self.entries[role]
        entries.append(Entry(frozen_player(frozen, name, self.args.league_bluff_rate), kind))
        movable = [entry for entry in entries if entry.kind not in PERMANENT]
        for leaving in movable[: max(0, len(movable) - self.args.pool_size)]:
            entries.remove(leaving)
        self.version += 1

    # -- prioritised fictitious self-play ----------------------------------------------------------

    def win_rate(self, entry: Entry) -> float:
        """The learner's win rate against `entry`, with the prior's pseudo-games at 50%."""
        return self._smoothed(entry.wins, entry.games)

    def _smoothed(self, wins: float, games: int) -> float:
        prior = self.args.pfsp_prior_games
        return (wins + 0.5 * prior) / (games + prior) if games + prior > 0 else 0.5

    def win_rate_by_size(self, entry: Entry) -> dict[int, float]:
        """The learner's win rate against `entry` at each table size of the run (with the prior)."""
        return {n: self._smoothed(*entry.by_size.get(n, (0.0, 0))) for n in sorted(set(self.args.table_sizes))}

    def league_win_rate_by_size(self, role: Role) -> dict[int, float]:
        """The learner's win rate at each table size of the run against all of `role`'s entries
        together (with the prior)."""
        totals = {n: (0.0, 0) for n in sorted(set(self.args.table_sizes))}
        for entry in self.entries[role]:
            for n, (wins, games) in entry.by_size.items():
                if n in totals:
                    totals[n] = (totals[n][0] + wins, totals[n][1] + games)
        return {n: self._smoothed(wins, games) for n, (wins, games) in totals.items()}

    def pfsp_win_rate(self, entry: Entry, role: Role, league: dict[int, float] | None = None) -> float:
        """The p of the PFSP weighting for `role`'s `entry`: the pooled win rate, or with
        `pfsp_by_size` the lowest per size (with `pfsp_size_relative`, of 0.5 + its rate - the
        league's at that size, within 0 to 1; `league`: `league_win_rate_by_size(role)`, when the
        caller has it already)."""
        if not self.args.pfsp_by_size:
            return self.win_rate(entry)
        rates = self.win_rate_by_size(entry)
        if self.args.pfsp_size_relative:
            league = league if league is not None else self.league_win_rate_by_size(role)
            rates = {n: min(1.0, max(0.0, 0.5 + rate - league[n])) for n, rate in rates.items()}
        return min(rates.values())

    def candidates(self, role: Role, anchors_only: bool = False) -> list[Entry]:
        """`role`'s entries, or its anchors alone (all entries while it has no anchors)."""
        entries = self.entries[role]
        anchors = [entry for entry in entries if entry.kind == "anchor"] if anchors_only else []
        return anchors or entries

    def weighting(self, entries: list[Entry], anchors_only: bool) -> str:
        """The PFSP weighting a draw among `entries` (`candidates`) uses: the anchors' own in an
        anchor game that has anchors to draw."""
        anchors = anchors_only and entries and all(entry.kind == "anchor" for entry in entries)
        return self.args.league_anchor_pfsp if anchors else self.args.pfsp

    def probabilities(self, role: Role, anchors_only: bool = False) -> list[float]:
        """The chance that a pool game draws each of `role`'s entries (in order), or each of its
        anchors when the game is an anchor game."""
        entries = self.candidates(role, anchors_only)
        weighting = self.weighting(entries, anchors_only)
        league = self.league_win_rate_by_size(role) if self.args.pfsp_size_relative else None  # once a draw
        weights = [pfsp_weight(self.pfsp_win_rate(e, role, league), weighting, self.args.pfsp_power) for e in entries]
        total = sum(weights)
        if total <= 0:  # every entry always beaten (or never): draw them evenly
            return [1.0 / len(weights)] * len(weights) if weights else []
        return [w / total for w in weights]

    def draw(self, role: Role, rng: random.Random, anchors_only: bool = False) -> Entry | None:
        """One of `role`'s entries (or of its anchors) by PFSP (None while it has none)."""
        entries = self.candidates(role, anchors_only)
        if not entries:
            return None
        if self.weighting(entries, anchors_only) == "uniform":
            return rng.choice(entries)  # as the pool before the league drew: same stream, same games
        return rng.choices(entries, weights=self.probabilities(role, anchors_only))[0]

    # -- records -----------------------------------------------------------------------------------

    def record(self, name: str, learner_won: bool, num_players: int) -> None:
        """One finished game of the main learner against entry `name` at a table of `num_players`
        (ignored if the entry has left)."""
        for entries in self.entries.values():
            for entry in entries:
                if entry.name == name:
                    entry.wins += float(learner_won)
                    entry.games += 1
                    wins, games = entry.by_size.get(num_players, (0.0, 0))
                    entry.by_size[num_players] = (wins + float(learner_won), games + 1)
                    return

    def records(self) -> dict[str, tuple[float, int, dict[int, tuple[float, int]]]]:
        """Per entry name: (wins, games, {table size: (wins, games)}), the learner's."""
        return {e.name: (e.wins, e.games, dict(e.by_size)) for entries in self.entries.values() for e in entries}

    def set_records(self, records: dict[str, tuple[float, int, dict[int, tuple[float, int]]]]) -> None:
        for entries in self.entries.values():
            for entry in entries:
                entry.wins, entry.games, by_size = records.get(entry.name, (0.0, 0, {}))
                entry.by_size = dict(by_size)

    def table(self) -> dict:
        """The league's win-rate table (league.json): per role, every entry with its record, the
        learner's win rate against it and its current draw probability."""
        out = {}
        for role in ROLES:
            rows = []
            anchor_odds = iter(self.probabilities(role, anchors_only=True))
            for entry, p in zip(self.entries[role], self.probabilities(role)):
                row = {
                    "name": entry.name, "kind": entry.kind, "games": entry.games, "learner_wins": entry.wins,
                    "learner_win_rate": round(self.win_rate(entry), 4), "draw_probability": round(p, 4),
                    "learner_win_rate_by_size": {str(n): round(rate, 4)
                                                 for n, rate in self.win_rate_by_size(entry).items()},
                    "games_by_size": {str(n): games for n, (_, games) in sorted(entry.by_size.items())},
                }
                if entry.kind == "anchor":  # its chance in an anchor game (league_anchor_share)
                    row["anchor_draw_probability"] = round(next(anchor_odds), 4)
                rows.append(row)
            out[role.name.lower()] = rows
        return {"pfsp": self.args.pfsp, "pfsp_power": self.args.pfsp_power, "pfsp_by_size": self.args.pfsp_by_size,
                "pfsp_size_relative": self.args.pfsp_size_relative,
                "league_anchor_pfsp": self.args.league_anchor_pfsp, "entries": out,
                "learner_win_rate_by_size": {role.name.lower(): {str(n): round(rate, 4) for n, rate in
                                                                 self.league_win_rate_by_size(role).items()}
                                             for role in ROLES}}

    # -- checkpoints ---------------------------------------------------------------------------------

    def state_dict(self) -> dict:
        return {
            role.name: [(e.name, e.kind, e.wins, e.games, e.player.net.state_dict(), dict(e.by_size))
                        for e in self.entries[role]]
            for role in ROLES
        }

    def load_state_dict(self, state: dict, template: dict[Role, ActorCritic]) -> None:
        """Entries as `state_dict` wrote them; `template` gives each role's network shape. Pools of
        runs before the league (name, weights) load as unrecorded snapshots, and leagues saved
        before the per-size records (five fields) with none."""
        self.version += 1
        for role in ROLES:
            self.entries[role] = []
            for item in state[role.name]:
                if len(item) == 2:
                    item = (item[0], "snapshot", 0.0, 0, item[1])
                name, kind, wins, games, weights, by_size = item if len(item) == 6 else (*item, {})
                net = copy.deepcopy(template[role])
                net.load_state_dict(weights)
                net.requires_grad_(False)
                player = frozen_player(net, name, self.args.league_bluff_rate)
                self.entries[role].append(Entry(player, kind, float(wins), int(games), dict(by_size)))
