"""The hidden truth of a state as a flat float32 vector, for centralised critics.

Everything a seat's observation leaves out (roles, hands, the deck, who put what into the pool,
the secret votes so far), seat-relative to the seat it is built for, so that a critic reading
`observation + truth` sees the table from the same chair as the actor. Never part of what a
policy acts on. Both encoders' `truth` methods append it to their observation.
"""

from __future__ import annotations

import numpy as np

from ..engine.state import State
from .layout import DECK_TOP, SEATS, Layout

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


def truth_vector(state: State, seat: int) -> np.ndarray:
    """Everything hidden in `state`, laid out as `TRUTH_LAYOUT`, seat-relative to `seat`."""
    out = np.zeros(TRUTH_LAYOUT.size, dtype=np.float32)
    v = TRUTH_LAYOUT.views(out)
    cfg = state.config
    n = state.num_players
    rel = [(seat + k) % n for k in range(n)]
    to_rel = {s: k for k, s in enumerate(rel)}
    deck_size = cfg.deck_size
    for k, s in enumerate(rel):
        p = state.players[s]
        v["truth.roles"][k, p.role] = 1.0
        v["truth.hands"][k] = np.asarray(p.hand, dtype=np.float32) / cfg.hand_size
    for card in state.deck:
        v["truth.deck"][card] += 1.0 / deck_size
    for i, card in enumerate(reversed(state.deck[-DECK_TOP:])):
        v["truth.deck_top"][i, card] = 1.0
    for card in state.discard:
        v["truth.discard"][card] += 1.0 / deck_size
    size = cfg.incantation_size
    for card in state.pool:
        v["truth.pool"][card.sigil] += 1.0 / size
        v["truth.pool_by_seat"][to_rel[card.contributor], card.sigil] += 1.0 / size
    for card in state.pending.gamble_cards:
        v["truth.gamble_cards"][card] += 0.5
    for page in state.pending.pages:
        v["truth.pages"][page] += 1.0 / cfg.necronomicon_offer
    if state.pending.vote is not None:
        for s, vote in enumerate(state.pending.vote.votes):
            if vote:
                v["truth.votes_so_far"][to_rel[s], int(vote == 1)] = 1.0
    v["truth.cultist_count"][state.num_cultists] = 1.0
    return out
