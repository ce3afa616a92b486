"""The encoder: one seat's view of a `State` as a flat float32 vector, and the truth for critics.

The rules never encode; this module reads a `State` and writes numbers. What a seat may see is
decided here, in one place: the public fields of the state, the seat's own `Player` (role, hand,
memory) and the decision it is asked to take. Nothing else of the state is read for a seat's
observation (tests/env/test_no_leak.py perturbs everything else and checks the vector is equal).

Every write goes through a named view of the output vector (`Layout.views`), so the tensor and
its views cannot drift apart.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine.cards import NUM_CHARACTERS, NUM_EQUIPMENT, NUM_GODS, NUM_INSANITY, NUM_PAGES, Role, VoteKind, opposite
from ..engine.config import MIDNIGHT, GameConfig
from ..engine.state import EVENT_KINDS, SEAT_TARGET_EVENTS, Phase, State
from .layout import (
    DECK_TOP,
    INCANTATION_FEATURES,
    PLAYER_FEATURES,
    VOTE_FEATURES,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    SEAT_LAYOUT,
    SEATS,
    SUSPICION_FEATURES,
    VOTE_HISTORY,
    Layout,
)

_EVENT_INDEX = {kind: i for i, kind in enumerate(EVENT_KINDS)}
EVENT_FEATURES = len(EVENT_KINDS) + (SEATS + 1) + (SEATS + 1) + 11 + 1
"""Per logged event: kind, actor (relative seat or none), target (relative seat or none), value
(one-hot of -1..9, clipped), hour / 12."""
HISTORY_LAYOUT = Layout(
    [(p.name, p.shape) for p in SEAT_LAYOUT.pieces.values()] + [("log", (LOG_LENGTH, EVENT_FEATURES))]
)

TRUTH_LAYOUT = Layout(
    [
        ("truth.roles", (SEATS, 2)),
        ("truth.hands", (SEATS, 4)),
        ("truth.deck", (4,)),
        ("truth.deck_top", (DECK_TOP, 4)),
        ("truth.discard", (4,)),
        ("truth.pool", (4,)),
        ("truth.pool_by_seat", (SEATS, 4)),
        ("truth.gamble_cards", (4,)),
        ("truth.pages", (3,)),
        ("truth.votes_so_far", (SEATS, 2)),
        ("truth.cultist_count", (5,)),
    ]
)


CAP = 4  # counts that can grow without bound are shown as min(count, CAP) / CAP


class Encoder:
    """Encodes observations for one table configuration.

    `mode` is "seat" (the default layout) or "history" (the same plus a log of the last
    `LOG_LENGTH` events the seat witnessed, oldest first).
    """

    def __init__(self, config: GameConfig, mode: str = "seat"):
        if mode not in ("seat", "history"):
            raise ValueError(f"observation_mode must be 'seat' or 'history', got {mode!r}")
        self.config = config
        self.mode = mode
        self.layout = SEAT_LAYOUT if mode == "seat" else HISTORY_LAYOUT
        self.size = self.layout.size
        self.truth_size = self.layout.size + TRUTH_LAYOUT.size
        self._at = {name: piece.start for name, piece in self.layout.pieces.items()}
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
        at = self._at
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
            self._decision(idx, val, state)

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
        incantations = incantations[:, _rotation(INCANTATION_FEATURES, _INC_SEGMENTS, n, seat)]
        mine = mem.past_mine[-INCANTATION_HISTORY:]
        if mine:
            incantations[: len(mine), -4:] = mine
            incantations[: len(mine), -4:] /= size
        out[blocks["history.incantations"]] = incantations.ravel()
        votes = self._cached(("votes",), state, (len(state.votes),), self._votes)
        out[blocks["history.votes"]] = votes[:, _rotation(VOTE_FEATURES, _VOTE_SEGMENTS, n, seat)].ravel()
        if state.readings:
            reading = state.readings[-1]
            i = at["history.reading"]
            out[[i, i + 1 + to_rel[reading.reader], i + 1 + SEATS + reading.page]] = 1.0
        totals = self._cached(("suspicion",), state, (len(state.incantations), len(state.votes)), _suspicion)
        out[blocks["history.suspicion"]][: n * SUSPICION_FEATURES] = totals[rel].ravel()
        if self.mode == "history":
            self._log(out[blocks["log"]].reshape(LOG_LENGTH, EVENT_FEATURES), state, seat, to_rel)
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
            row[0] = 1.0
            row[1] = p.sanity / start
            row[2] = float(p.sanity == 0)
            for card in set(p.insanity):
                row[3 + card] = p.insanity.count(card) * insanity_unit
            row[_P_REVEALED + (1 + p.role if p.revealed else 0)] = 1.0
            row[_P_CHARACTER + p.character] = 1.0
            row[_P_EQUIPMENT + p.equipment] = 1.0
            row[_P_USED] = p.equipment_used
            row[_P_USED + 1] = p.proposed_necronomicon
        return block

    def _decision(self, idx: list[int], val: list[float], state: State) -> None:
        """Context only the deciding seat sees (its gambled cards, its discards, its pages)."""
        pending = state.pending
        phase = state.phase
        at = self._at

        def put(start: int, values) -> None:
            idx.extend(range(start, start + len(values)))
            val.extend(values)

        if phase == Phase.GAMBLE_PLAY:
            cards = [0.0, 0.0, 0.0, 0.0]
            for card in pending.gamble_cards:
                cards[card] += 0.5
            put(at["decision.gamble_cards"], cards)
        elif phase == Phase.RESEARCH_DISCARD:
            put(at["decision.discarded"], (pending.discarded / self.config.hand_size,))
        elif phase == Phase.INVESTIGATE_GIVE:
            put(at["decision.taken"] + state.pool[pending.taken].sigil, (1.0,))
        elif phase == Phase.NECRONOMICON_PAGE:
            pages = [0.0] * NUM_PAGES
            for page in pending.pages:
                pages[page] += 1.0 / self.config.necronomicon_offer
            put(at["decision.pages"], pages)

    def _incantations(self, state: State) -> np.ndarray:
        """The last incantations in absolute seat order, plus one zero column (see `_rotation`).
        The observer's own cards (the last 4 features) are written per observer."""
        block = np.zeros((INCANTATION_HISTORY, INCANTATION_FEATURES + 1), dtype=np.float32)
        size = self.config.incantation_size
        for i, record in enumerate(state.incantations[-INCANTATION_HISTORY:]):
            row = block[i]
            t = record.target
            cards = record.cards
            opp = opposite(t)
            row[0] = 1.0
            row[1 + t] = 1.0
            row[5:9] = cards
            row[5:9] /= size
            row[9] = cards[t] / size
            row[10] = cards[opp] / size
            row[11] = (size - cards[t] - cards[opp]) / size
            row[12] = record.success
            row[13] = record.hour / MIDNIGHT
            n = len(record.contributions)
            seats = row[_INC_SEATS : _INC_SEATS + 4 * n].reshape(n, 4)
            seats[:, 0] = record.contributions
            seats[:, 0] /= size
            seats[:, 1] = [face_up[opp] / size for face_up in record.face_up]
            seats[:, 2] = np.minimum(record.investigations, CAP) / CAP
            seats[:, 3] = np.minimum(record.swaps, CAP) / CAP
        return block

    def _votes(self, state: State) -> np.ndarray:
        """The last votes in absolute seat order, plus one zero column (see `_rotation`)."""
        block = np.zeros((VOTE_HISTORY, VOTE_FEATURES + 1), dtype=np.float32)
        for i, record in enumerate(state.votes[-VOTE_HISTORY:]):
            row = block[i]
            row[0] = 1.0
            row[1 + record.kind] = 1.0
            row[3 + record.proposer] = 1.0
            if record.accused >= 0:
                row[3 + SEATS + record.accused] = 1.0
            for s, vote in enumerate(record.votes):
                if vote == 1:
                    row[3 + 2 * SEATS + s] = 1.0
                elif vote == -1:
                    row[3 + 3 * SEATS + s] = 1.0
            row[3 + 4 * SEATS] = record.passed
            if record.revealed_role >= 0:
                row[4 + 4 * SEATS + record.revealed_role] = 1.0
            row[6 + 4 * SEATS] = record.hour / MIDNIGHT
        return block

    def _log(self, block: np.ndarray, state: State, seat: int, to_rel: dict) -> None:
        visible = []
        for event in reversed(state.events):
            if event.seat == -1 or event.seat == seat:
                visible.append(event)
                if len(visible) == LOG_LENGTH:
                    break
        o_actor = len(EVENT_KINDS)
        o_target = o_actor + SEATS + 1
        o_value = o_target + SEATS + 1
        for i, event in enumerate(reversed(visible)):
            row = block[i]
            row[_EVENT_INDEX[event.kind]] = 1.0
            row[o_actor + (to_rel[event.actor] if event.actor >= 0 else SEATS)] = 1.0
            if event.target < 0:
                row[o_target + SEATS] = 1.0
            elif event.kind in SEAT_TARGET_EVENTS:
                row[o_target + to_rel[event.target]] = 1.0
            else:  # a sigil, a pool size or an end reason: the number, capped at 7
                row[o_target + min(event.target, SEATS - 1)] = 1.0
            row[o_value + min(max(event.value, -1), 9) + 1] = 1.0
            row[-1] = event.hour / MIDNIGHT

    # -- the truth, for centralised critics --------------------------------------------------------

    def truth(self, state: State, seat: int) -> np.ndarray:
        """The seat's observation followed by everything hidden, seat-relative to `seat`."""
        out = np.zeros(self.truth_size, dtype=np.float32)
        out[: self.size] = self.observe(state, seat)
        v = TRUTH_LAYOUT.views(out[self.size :])
        n = state.num_players
        rel = [(seat + k) % n for k in range(n)]
        to_rel = {s: k for k, s in enumerate(rel)}
        deck_size = self.config.deck_size
        for k, s in enumerate(rel):
            p = state.players[s]
            v["truth.roles"][k, p.role] = 1.0
            v["truth.hands"][k] = np.asarray(p.hand, dtype=np.float32) / self.config.hand_size
        for card in state.deck:
            v["truth.deck"][card] += 1.0 / deck_size
        for i, card in enumerate(reversed(state.deck[-DECK_TOP:])):
            v["truth.deck_top"][i, card] = 1.0
        for card in state.discard:
            v["truth.discard"][card] += 1.0 / deck_size
        size = self.config.incantation_size
        for card in state.pool:
            v["truth.pool"][card.sigil] += 1.0 / size
            v["truth.pool_by_seat"][to_rel[card.contributor], card.sigil] += 1.0 / size
        for card in state.pending.gamble_cards:
            v["truth.gamble_cards"][card] += 0.5
        for page in state.pending.pages:
            v["truth.pages"][page] += 1.0 / self.config.necronomicon_offer
        if state.pending.vote is not None:
            for s, vote in enumerate(state.pending.vote.votes):
                if vote:
                    v["truth.votes_so_far"][to_rel[s], int(vote == 1)] = 1.0
        v["truth.cultist_count"][state.num_cultists] = 1.0
        return out


# Offsets inside one row of `players` (see PLAYER_FEATURES).
_P_REVEALED = 3 + NUM_INSANITY
_P_CHARACTER = _P_REVEALED + 3
_P_EQUIPMENT = _P_CHARACTER + NUM_CHARACTERS
_P_USED = _P_EQUIPMENT + NUM_EQUIPMENT

# Seat-indexed segments of the history rows, as (first column, columns per seat).
_INC_SEATS = 14
_INC_SEGMENTS = ((_INC_SEATS, 4),)
_VOTE_SEGMENTS = ((3, 1), (3 + SEATS, 1), (3 + 2 * SEATS, 1), (3 + 3 * SEATS, 1))


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
    """Per seat, running totals a deducer would keep (each shown as min(count, CAP) / CAP):
    0 cards fed to failed incantations, 1 cards fed to successful ones, 2 face-up cards of
    the opposite sigil played, 3 investigations, 4 swaps, 5 accusations that revealed an
    investigator, 6 Yes votes on accusations that revealed an investigator, 7 No votes on
    accusations that revealed a cultist."""
    n = state.num_players
    totals = np.zeros((n, 8), dtype=np.float32)
    for record in state.incantations:
        col = 1 if record.success else 0
        opp = opposite(record.target)
        for s in range(n):
            totals[s, col] += record.contributions[s]
            totals[s, 2] += record.face_up[s][opp]
            totals[s, 3] += record.investigations[s]
            totals[s, 4] += record.swaps[s]
    for record in state.votes:
        if record.kind != VoteKind.ACCUSATION or record.revealed_role < 0:
            continue
        if record.revealed_role == Role.INVESTIGATOR:
            totals[record.proposer, 5] += 1
            for s, vote in enumerate(record.votes):
                totals[s, 6] += vote == 1
        else:
            for s, vote in enumerate(record.votes):
                totals[s, 7] += vote == -1
    return np.minimum(totals, CAP) / CAP


def _player_key(state: State) -> tuple:
    """Everything `Encoder._players` reads that can change during a game."""
    return tuple(
        (p.sanity, tuple(p.insanity), p.revealed, p.equipment_used, p.proposed_necronomicon) for p in state.players
    )
