"""The encoder: one seat's view of a `State` as a flat float32 vector, and the truth for critics.

The rules never encode; this module reads a `State` and writes numbers. What a seat may see is
decided here, in one place: the public fields of the state, the seat's own `Player` (role, hand,
memory) and the decision it is asked to take. Nothing else of the state is read for a seat's
observation (tests/env/test_no_leak.py perturbs everything else and checks the vector is equal).

Every write goes through a named view of the output vector (`Layout.views`), so the tensor and
its views cannot drift apart.
"""

from __future__ import annotations

import numpy as np

from .engine.cards import NUM_INSANITY, Role, VoteKind, opposite
from .engine.config import MIDNIGHT, GameConfig
from .engine.state import EVENT_KINDS, SEAT_TARGET_EVENTS, Phase, State
from .layout import (
    DECK_TOP,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    SEAT_LAYOUT,
    SEATS,
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


def _capped(counts: list[int], rel: list[int]) -> np.ndarray:
    return np.minimum(np.asarray(counts, dtype=np.float32)[rel], CAP) / CAP


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

    # -- the seat's observation -----------------------------------------------------------------

    def observe(self, state: State, seat: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        v = self.layout.views(out)
        n = state.num_players
        cfg = self.config
        me = state.players[seat]
        rel = [(seat + k) % n for k in range(n)]  # relative row k -> absolute seat
        to_rel = {s: k for k, s in enumerate(rel)}

        # the observer's private information
        v["me.role"][me.role] = 1.0
        v["me.hand"][:] = np.asarray(me.hand, dtype=np.float32) / cfg.hand_size
        mem = me.memory
        size = cfg.incantation_size
        v["me.pool_mine"][:] = np.asarray(mem.pool_mine, dtype=np.float32) / size
        v["me.pool_look"][:] = np.asarray(mem.pool_look, dtype=np.float32) / size
        v["me.pool_look_size"][0] = mem.pool_look_size / size
        v["me.pool_look_current"][0] = float(mem.pool_look_size > 0 and mem.pool_look_size == len(state.pool))
        known = v["me.known_roles"]
        seen = v["me.seen_hands"]
        for k, s in enumerate(rel):
            known[k, mem.known_roles[s] + 1] = 1.0
            hand = mem.seen_hands[s]
            if hand is not None:
                seen[k, 0] = 1.0
                seen[k, 1:] = np.asarray(hand, dtype=np.float32) / cfg.hand_size
        top = v["me.deck_top"]
        for i, card in enumerate(mem.deck_top[:DECK_TOP]):
            top[i, 0] = 1.0
            top[i, 1 + card] = 1.0

        # the table
        v["table.size"][n - 4] = 1.0
        v["table.cultists"][0 if cfg.hidden_cultist_count else state.num_cultists] = 1.0
        v["clock.hour"][state.hour] = 1.0
        v["clock.round"][0] = state.round / MIDNIGHT
        v["sigils.activated"][:] = state.activated
        v["sigils.target"][state.target if state.target >= 0 else 4] = 1.0
        gods = v["sigils.gods"]
        for sigil, god in enumerate(state.gods):
            gods[sigil, god] = 1.0
        v["pool.size"][0] = len(state.pool) / size
        face_up = v["pool.face_up"]
        for card in state.pool:
            if card.face_up:
                face_up[card.sigil] += 1.0 / size
        v["pool.contributions"][:n] = np.asarray(state.pool_contributions, dtype=np.float32)[rel] / size
        v["pool.investigations"][:n] = _capped(state.pool_investigations, rel)
        v["pool.swaps"][:n] = _capped(state.pool_swaps, rel)
        v["cards.deck_and_discard"][:] = (len(state.deck) / cfg.deck_size, len(state.discard) / cfg.deck_size)
        v["turn.watch"][to_rel[state.watch]] = 1.0
        self._players(v["players"], state, rel)
        v["necronomicon"][:] = (
            state.necronomicon_read,
            state.hour >= cfg.necronomicon_earliest_hour,
            me.proposed_necronomicon,
        )

        # the decision: a vote in progress is public, the rest only for the seat taking it
        v["decision.phase"][state.phase] = 1.0
        if state.pending.vote is not None:
            vote = state.pending.vote
            v["decision.vote_kind"][vote.kind] = 1.0
            v["decision.vote_proposer"][to_rel[vote.proposer]] = 1.0
            if vote.accused >= 0:
                v["decision.vote_accused"][to_rel[vote.accused]] = 1.0
        if state.decider == seat:
            self._decision(v, state)

        # the past
        self._incantations(v["history.incantations"], state, rel, mem.past_mine)
        self._votes(v["history.votes"], state, to_rel)
        if state.readings:
            reading = state.readings[-1]
            row = v["history.reading"]
            row[0] = 1.0
            row[1 + to_rel[reading.reader]] = 1.0
            row[1 + SEATS + reading.page] = 1.0
        self._suspicion(v["history.suspicion"], state, rel)
        if self.mode == "history":
            self._log(v["log"], state, seat, to_rel)
        return out

    def _players(self, block: np.ndarray, state: State, rel: list[int]) -> None:
        start = self.config.start_sanity
        hand_size = self.config.hand_size
        insanity_unit = 1.0 / self.config.insanity_copies
        turn_player = state.turn_player if not state.game_over else -1
        o_ins = 3
        o_rev = o_ins + NUM_INSANITY
        o_char = o_rev + 3
        o_equip = o_char + 8
        o_tail = o_equip + 8
        for k, s in enumerate(rel):
            p = state.players[s]
            row = block[k]
            row[0] = 1.0
            row[1] = p.sanity / start
            row[2] = float(p.sanity == 0)
            for card in p.insanity:
                row[o_ins + card] += insanity_unit
            row[o_rev + (1 + p.role if p.revealed else 0)] = 1.0
            row[o_char + p.character] = 1.0
            row[o_equip + p.equipment] = 1.0
            row[o_tail] = p.equipment_used
            row[o_tail + 1] = p.proposed_necronomicon
            row[o_tail + 2] = sum(p.hand) / hand_size
            row[o_tail + 3] = float(s == turn_player)

    def _decision(self, v: dict, state: State) -> None:
        pending = state.pending
        phase = state.phase
        if phase == Phase.GAMBLE_PLAY:
            for card in pending.gamble_cards:
                v["decision.gamble_cards"][card] += 0.5
        elif phase == Phase.RESEARCH_DISCARD:
            v["decision.discarded"][0] = pending.discarded / self.config.hand_size
        elif phase == Phase.INVESTIGATE_GIVE:
            v["decision.taken"][state.pool[pending.taken].sigil] = 1.0
        elif phase == Phase.NECRONOMICON_PAGE:
            for page in pending.pages:
                v["decision.pages"][page] += 1.0 / self.config.necronomicon_offer

    def _incantations(self, block: np.ndarray, state: State, rel: list[int], past_mine: list) -> None:
        size = self.config.incantation_size
        records = state.incantations[-INCANTATION_HISTORY:]
        first = len(state.incantations) - len(records)
        o_seats = 1 + 4 + 4 + 3 + 1 + 1
        for i, record in enumerate(records):
            row = block[i]
            t = record.target
            cards = record.cards
            row[0] = 1.0
            row[1 + t] = 1.0
            row[5:9] = np.asarray(cards, dtype=np.float32) / size
            opp = opposite(t)
            row[9] = cards[t] / size
            row[10] = cards[opp] / size
            row[11] = (size - cards[t] - cards[opp]) / size
            row[12] = record.success
            row[13] = record.hour / MIDNIGHT
            seats = row[o_seats : o_seats + SEATS * 4].reshape(SEATS, 4)
            for k, s in enumerate(rel):
                seats[k, 0] = record.contributions[s] / size
                seats[k, 1] = record.face_up[s][opp] / size
                seats[k, 2] = min(record.investigations[s], CAP) / CAP
                seats[k, 3] = min(record.swaps[s], CAP) / CAP
            row[o_seats + SEATS * 4 :] = np.asarray(past_mine[first + i], dtype=np.float32) / size

    def _votes(self, block: np.ndarray, state: State, to_rel: dict) -> None:
        for i, record in enumerate(state.votes[-VOTE_HISTORY:]):
            row = block[i]
            row[0] = 1.0
            row[1 + record.kind] = 1.0
            row[3 + to_rel[record.proposer]] = 1.0
            if record.accused >= 0:
                row[3 + SEATS + to_rel[record.accused]] = 1.0
            for s, vote in enumerate(record.votes):
                if vote == 1:
                    row[3 + 2 * SEATS + to_rel[s]] = 1.0
                elif vote == -1:
                    row[3 + 3 * SEATS + to_rel[s]] = 1.0
            row[3 + 4 * SEATS] = record.passed
            if record.revealed_role >= 0:
                row[4 + 4 * SEATS + record.revealed_role] = 1.0
            row[6 + 4 * SEATS] = record.hour / MIDNIGHT

    def _suspicion(self, block: np.ndarray, state: State, rel: list[int]) -> None:
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
        block[:n] = np.minimum(totals[rel], CAP) / CAP

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
            if event.kind in SEAT_TARGET_EVENTS:
                row[o_target + (to_rel[event.target] if event.target >= 0 else SEATS)] = 1.0
            else:
                row[o_target + SEATS] = 1.0
                # a non-seat target (a sigil, a reason, a pool size) is folded into the value slot
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
