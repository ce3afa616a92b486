"""Helpers of the observation semantics tests (tests/env/test_observation_*.py): the offsets
inside rows as the spec (the env module docstring) states them, the seat's named views, and
scripted deals.

The offsets are written out from the spec, not taken from the encoder's layout, so that the tests
check the encoder against the documentation; tests/env/test_layout.py checks that the layout's
row columns (`PlayerRow`, ...) are these numbers.
"""

from __future__ import annotations

import random

import numpy as np

from rlyeh_env.engine import GameConfig, Phase, apply_action, new_game
from rlyeh_env.engine import actions as A
from rlyeh_env.observation import HISTORY_LAYOUT, SEAT_LAYOUT, Encoder

# players row: present, sanity, mad, insanity (6), revealed (none, investigator, cultist),
# character (8), equipment (8), equipment used, proposed the Necronomicon
P_PRESENT, P_SANITY, P_MAD, P_INSANITY, P_REVEALED, P_CHARACTER, P_EQUIPMENT, P_USED, P_PROPOSED = (
    0, 1, 2, 3, 9, 12, 20, 28, 29,
)  # fmt: skip
# incantation row: present, target (4), cards (4), matches / opposites / others, success, hour,
# per seat (8 x contributions, face-up opposite, investigations, swaps), my own cards (4)
I_TARGET, I_CARDS, I_MATCH, I_SUCCESS, I_HOUR, I_SEATS, I_MINE = 1, 5, 9, 12, 13, 14, 46
# vote row: present, kind (2), proposer (8), accused (8), yes (8), no (8), passed, revealed role (2), hour
V_KIND, V_PROPOSER, V_ACCUSED, V_YES, V_NO, V_PASSED, V_ROLE, V_HOUR = 1, 3, 11, 19, 27, 35, 36, 38
SEAT_INDEXED = [
    "me.known_roles", "me.seen_hands", "pool.contributions", "pool.investigations", "pool.swaps",
    "turn.watch", "turn.player", "players", "players.hand_size", "decision.vote_proposer",
    "decision.vote_accused", "history.suspicion",
]  # fmt: skip


def views(obs):
    return (HISTORY_LAYOUT if obs.size == HISTORY_LAYOUT.size else SEAT_LAYOUT).views(obs)


def observe(state, seat, mode="seat"):
    return views(Encoder(state.config, mode).observe(state, seat))


def rel(state, seat, other):
    return (other - seat) % state.num_players


def one_hot(size, i):
    v = np.zeros(size, dtype=np.float32)
    v[i] = 1.0
    return v


# -- scripting -------------------------------------------------------------------------------------


def dealt(n=5, seed=0, **config):
    rng = random.Random(seed)
    return new_game(GameConfig(num_players=n, **config), rng), rng


def declared(n=5, seed=0, target=0, **config):
    """A dealt game after the watch holder declared `target`: its turn, phase TURN."""
    state, rng = dealt(n, seed, **config)
    apply_action(state, A.DECLARE + target, rng)
    assert state.phase == Phase.TURN and state.decider == state.watch
    return state, rng
