"""The reference encoder: one seat's view of a `State` as a flat float32 vector, rebuilt per call.

The rules never encode; this module reads a `State` and writes numbers. What a seat may see is
decided here, in one place: the public fields of the state, the seat's own `Player` (role, hand,
memory) and the decision it is asked to take. Nothing else of the state is read for a seat's
observation (tests/env/test_no_leak.py perturbs everything else and checks the vector is equal).

This is the readable spec of the numbers; `incremental.IncrementalEncoder` gives the same bytes
faster and is checked against it (tests/env/test_encoder_pair.py). Every write goes through a
named piece of the layout (`layout.SEAT_LAYOUT`), so the tensor and its views cannot drift apart.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine.cards import NUM_GODS
from ..engine.config import MIDNIGHT, GameConfig
from ..engine.state import SEAT_TARGET_EVENTS, State
from .features import (
    Float32Fractions,
    decision_context,
    incantation_columns,
    incantation_suspicion,
    vote_columns,
    vote_suspicion,
)
from .layout import (
    CAP,
    DECK_TOP,
    EVENT_FEATURES,
    EVENT_INDEX,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    PLAYER_FEATURES,
    SEATS,
    SUSPICION_FEATURES,
    VOTE_FEATURES,
    VOTE_HISTORY,
    IncantationRow,
    LogRow,
    PlayerRow,
    VoteRow,
    layout_for,
)
from .truth import TRUTH_LAYOUT, truth_vector


class Encoder:
    """Encodes observations for one table configuration.

    `mode` is "seat" (the default layout) or "history" (the same plus a log of the last
    `LOG_LENGTH` events the seat witnessed, oldest first).
    """

    def __init__(self, config: GameConfig, mode: str = "seat"):
        self.config, self.mode = config, mode
        self.layout = layout_for(mode)
        self.size = self.layout.size
        self.truth_size = self.size + TRUTH_LAYOUT.size  # the observation, then `truth_vector`
        self._fractions = Float32Fractions(config.incantation_size)  # as the float32 arrays divide
        self._blocks = {name: slice(piece.start, piece.stop) for name, piece in self.layout.pieces.items()}
        # Blocks that change rarely (the past, the players' public status) are cached, keyed by the
        # state object (held, so its id cannot be reused) and a cheap summary of what they read.
        self._cache: dict[tuple, tuple[State, tuple, np.ndarray]] = {}

    # -- the seat's observation -----------------------------------------------------------------

    def observe(self, state: State, seat: int) -> np.ndarray:
        n = state.num_players
        rel = [(seat + k) % n for k in range(n)]  # relative row k -> absolute seat
        to_rel = {s: k for k, s in enumerate(rel)}
        # Scalars are collected as (index, value) pairs and scattered in one numpy call, because
        # per-element numpy writes would cost more than the rest of an env step. Blocks that only
        # change when a record is added or a status changes are built once in absolute seat order
        # (shared by all observers) and rotated into this seat's order.
        out = np.zeros(self.size, dtype=np.float32)
        cfg = self.config
        me = state.players[seat]
        mem = me.memory
        at = self.layout.starts
        size = cfg.incantation_size
        hand_size = cfg.hand_size
        idx: list[int] = []
        val: list[float] = []

        # the observer's private information
        i = at["me.hand"]
        idx += (i, i + 1, i + 2, i + 3)
        val += [c / hand_size for c in me.hand]
        i = at["me.pool_mine"]
        idx += (i, i + 1, i + 2, i + 3)
        val += [c / size for c in mem.pool_mine]
        i = at["me.pool_look"]
        idx += (i, i + 1, i + 2, i + 3, i + 4, i + 5)
        val += [c / size for c in mem.pool_look]
        val += (mem.pool_look_size / size, float(mem.pool_look_size > 0 and mem.pool_look_size == len(state.pool)))
        seen = at["me.seen_hands"]
        for k, s in enumerate(rel):
            hand = mem.seen_hands[s]
            if hand is not None:
                i = seen + 5 * k
                idx += range(i, i + 5)
                val += [1.0] + [c / hand_size for c in hand]
        top = at["me.deck_top"]
        for k, card in enumerate(mem.deck_top[:DECK_TOP]):
            idx += (top + 5 * k, top + 5 * k + 1 + card)
            val += (1.0, 1.0)

        # the table
        idx += range(at["players.hand_size"], at["players.hand_size"] + n)
        val += [state.players[s].hand_count / hand_size for s in rel]
        i = at["pool.contributions"]
        idx += range(i, i + n)
        val += [state.pool_contributions[s] / size for s in rel]
        i = at["pool.investigations"]
        idx += range(i, i + n)
        val += [min(state.pool_investigations[s], CAP) / CAP for s in rel]
        i = at["pool.swaps"]
        idx += range(i, i + n)
        val += [min(state.pool_swaps[s], CAP) / CAP for s in rel]
        face_up = [0.0, 0.0, 0.0, 0.0]
        for card in state.pool:
            if card.face_up:
                face_up[card.sigil] += 1.0 / size
        i = at["pool.face_up"]
        idx += (i, i + 1, i + 2, i + 3)
        val += face_up
        idx += (
            at["cards.deck_and_discard"], at["cards.deck_and_discard"] + 1, at["clock.round"], at["pool.size"],
            at["clock.hour"] + state.hour,
            at["sigils.target"] + (state.target if state.target >= 0 else 4),
            at["turn.watch"] + to_rel[state.watch],
            at["decision.phase"] + state.phase,
        )  # fmt: skip
        val += (
            len(state.deck) / cfg.deck_size, len(state.discard) / cfg.deck_size, min(state.round, MIDNIGHT) / MIDNIGHT,
            len(state.pool) / size, 1.0, 1.0, 1.0, 1.0,
        )  # fmt: skip
        if not state.game_over:
            idx.append(at["turn.player"] + to_rel[state.turn_player])
            val.append(1.0)

        # the decision: a vote in progress is public, the rest only for the seat taking it
        vote = state.pending.vote
        if vote is not None:
            idx += (at["decision.vote_kind"] + vote.kind, at["decision.vote_proposer"] + to_rel[vote.proposer])
            val += (1.0, 1.0)
            if vote.accused >= 0:
                idx.append(at["decision.vote_accused"] + to_rel[vote.accused])
                val.append(1.0)
        if state.decider == seat:
            context = decision_context(state, cfg)
            if context is not None:
                start, values = context
                idx += range(start, start + len(values))
                val += values

        # status that changes a few times a game
        idx += (
            at["me.role"] + me.role, at["table.size"] + n - 4,
            at["table.cultists"] + (0 if cfg.hidden_cultist_count else state.num_cultists),
        )  # fmt: skip
        val += (1.0, 1.0, 1.0)
        known = at["me.known_roles"]
        idx += [known + 3 * k + mem.known_roles[s] + 1 for k, s in enumerate(rel)]
        val += [1.0] * n
        gods = at["sigils.gods"]
        idx += [gods + NUM_GODS * sigil + god for sigil, god in enumerate(state.gods)]
        val += (1.0, 1.0, 1.0, 1.0)
        i = at["sigils.activated"]
        idx += (i, i + 1, i + 2, i + 3)
        val += state.activated
        i = at["necronomicon"]
        idx += (i, i + 1, i + 2)
        val += (state.necronomicon_read, state.hour >= cfg.necronomicon_earliest_hour, me.proposed_necronomicon)
        out[idx] = val

        blocks = self._blocks
        players = self._cached(("players",), state, _player_key(state), self._players)
        out[blocks["players"]].reshape(SEATS, PLAYER_FEATURES)[:n] = players[rel]
        incantations = self._cached(("incantations",), state, (len(state.incantations),), self._incantations)
        incantations = incantations[:, _rotation(INCANTATION_FEATURES, IncantationRow.SEAT_INDEXED, n, seat)]
        mine = mem.past_mine[-INCANTATION_HISTORY:]
        if mine:
            incantations[: len(mine), IncantationRow.MINE:] = mine
            incantations[: len(mine), IncantationRow.MINE:] /= size
        out[blocks["history.incantations"]] = incantations.ravel()
        votes = self._cached(("votes",), state, (len(state.votes),), self._votes)
        out[blocks["history.votes"]] = votes[:, _rotation(VOTE_FEATURES, VoteRow.SEAT_INDEXED, n, seat)].ravel()
        if state.readings:
            reading = state.readings[-1]
            i = at["history.reading"]
            out[[i, i + 1 + to_rel[reading.reader], i + 1 + SEATS + reading.page]] = 1.0
        totals = self._cached(("suspicion",), state, (len(state.incantations), len(state.votes)), _suspicion)
        out[blocks["history.suspicion"]][: n * SUSPICION_FEATURES] = totals[rel].ravel()
        if self.mode == "history":
            self._log(out[blocks["log"]].reshape(LOG_LENGTH, EVENT_FEATURES), state, seat)
        return out

    def _cached(self, name: tuple, state: State, key: tuple, build) -> np.ndarray:
        hit = self._cache.get(name)
        if hit is not None and hit[0] is state and hit[1] == key:
            return hit[2]
        value = build(state)
        self._cache[name] = (state, key, value)
        return value

    def _players(self, state: State) -> np.ndarray:
        """Public status of every seat, in absolute seat order."""
        block = np.zeros((state.num_players, PLAYER_FEATURES), dtype=np.float32)
        start = self.config.start_sanity
        insanity_unit = 1.0 / self.config.insanity_copies
        for s, p in enumerate(state.players):
            row = block[s]
            row[PlayerRow.PRESENT] = 1.0
            row[PlayerRow.SANITY] = p.sanity / start
            row[PlayerRow.MAD] = float(p.sanity == 0)
            for card in set(p.insanity):
                row[PlayerRow.INSANITY + card] = p.insanity.count(card) * insanity_unit
            row[PlayerRow.REVEALED + (1 + p.role if p.revealed else 0)] = 1.0
            row[PlayerRow.CHARACTER + p.character] = 1.0
            row[PlayerRow.EQUIPMENT + p.equipment] = 1.0
            row[PlayerRow.USED] = p.equipment_used
            row[PlayerRow.PROPOSED] = p.proposed_necronomicon
        return block

    def _incantations(self, state: State) -> np.ndarray:
        """The last incantations in absolute seat order, plus one zero column (see `_rotation`).
        The observer's own cards (IncantationRow.MINE on) are written per observer."""
        block = np.zeros((INCANTATION_HISTORY, INCANTATION_FEATURES + 1), dtype=np.float32)
        for i, record in enumerate(state.incantations[-INCANTATION_HISTORY:]):
            columns, values = zip(*incantation_columns(record, self._fractions))
            block[i, list(columns)] = values
        return block

    def _votes(self, state: State) -> np.ndarray:
        """The last votes in absolute seat order, plus one zero column (see `_rotation`)."""
        block = np.zeros((VOTE_HISTORY, VOTE_FEATURES + 1), dtype=np.float32)
        for i, record in enumerate(state.votes[-VOTE_HISTORY:]):
            columns, values = zip(*vote_columns(record))
            block[i, list(columns)] = values
        return block

    def _log(self, block: np.ndarray, state: State, seat: int) -> None:
        visible = []
        for event in reversed(state.events):
            if event.witnessed_by(seat):
                visible.append(event)
                if len(visible) == LOG_LENGTH:
                    break
        n = state.num_players
        for i, event in enumerate(reversed(visible)):
            row = block[i]
            row[LogRow.KIND + EVENT_INDEX[event.kind]] = 1.0
            row[LogRow.ACTOR + ((event.actor - seat) % n if event.actor >= 0 else SEATS)] = 1.0
            if event.target < 0:
                row[LogRow.TARGET + SEATS] = 1.0
            elif event.kind in SEAT_TARGET_EVENTS:
                row[LogRow.TARGET + (event.target - seat) % n] = 1.0
            else:  # a sigil, a pool size or an end reason: the number, capped at 7
                row[LogRow.TARGET + min(event.target, SEATS - 1)] = 1.0
            row[LogRow.VALUE + min(max(event.value, -1), 9) + 1] = 1.0
            row[LogRow.HOUR] = event.hour / MIDNIGHT

    def truth(self, state: State, seat: int) -> np.ndarray:
        """The seat's observation followed by everything hidden (`truth.truth_vector`), for
        centralised critics."""
        return np.concatenate((self.observe(state, seat), truth_vector(state, seat)))


@functools.lru_cache(maxsize=None)
def _rotation(width: int, segments: tuple, n: int, seat: int) -> np.ndarray:
    """Column gather that turns a row in absolute seat order into the observer's relative order.

    A row built in absolute order is stored with one extra zero column at index `width`;
    relative seat k < n reads absolute seat (seat + k) % n, and padded seats k >= n read zero.
    """
    gather = np.arange(width)
    for first, per_seat in segments:
        for k in range(SEATS):
            for j in range(per_seat):
                source = first + ((seat + k) % n) * per_seat + j if k < n else width
                gather[first + k * per_seat + j] = source
    return gather


def _suspicion(state: State) -> np.ndarray:
    """Per seat, the running totals of `history.suspicion` (`features.incantation_suspicion`,
    `features.vote_suspicion`), each shown as min(count, CAP) / CAP."""
    totals = np.zeros((state.num_players, SUSPICION_FEATURES), dtype=np.float32)
    for record in state.incantations:
        for s, column, amount in incantation_suspicion(record):
            totals[s, column] += amount
    for record in state.votes:
        for s, column, amount in vote_suspicion(record):
            totals[s, column] += amount
    return np.minimum(totals, CAP) / CAP


def _player_key(state: State) -> tuple:
    """Everything `Encoder._players` reads that can change during a game."""
    return tuple(
        (p.sanity, tuple(p.insanity), p.revealed, p.equipment_used, p.proposed_necronomicon) for p in state.players
    )
