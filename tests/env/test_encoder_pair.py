"""IncrementalEncoder equals the reference Encoder bit for bit (the byte-identity test of the pair).

Random games over every table size, both observation modes and the variants; every seat observed
at every step, in shuffled orders, twice, across several State objects and clones. Half the games
use the testkit's biased policy (equipment, the Necronomicon, long games), half uniform random play
(many accusations and votes), and a quarter a small incantation size (many incantations, so the
history blocks scroll).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env import raw_env
from rlyeh_env.engine import GameConfig, apply_action, legal_actions, new_game
from rlyeh_env.engine.state import State
from rlyeh_env.observation import HISTORY_LAYOUT, MAX_TRACKED, Encoder, IncrementalEncoder
from rlyeh_env_testkit import VARIANTS, policy

MODES = ("seat", "history")


def config_for(game: int, variant: str) -> GameConfig:
    small_pool = {"incantation_size": 4, "incantation_threshold": 2} if game % 4 == 3 else {}
    return GameConfig(num_players=4 + game % 5, **VARIANTS[variant], **small_pool)


def play(config: GameConfig, seed: int):
    """Yield the state of one game before every step and once over (the same mutated object)."""
    rng, pick = random.Random(seed), random.Random(seed + 1)
    state = new_game(config, rng)
    biased = seed % 2 == 0
    while True:
        yield state
        if state.game_over:
            return
        legal = legal_actions(state)
        apply_action(state, policy(state, legal, pick) if biased else pick.choice(legal), rng)


def assert_same(fast: np.ndarray, ref: np.ndarray, state: State, seat: int) -> None:
    assert fast.dtype == np.float32 and fast.shape == ref.shape
    if fast.tobytes() != ref.tobytes():  # bits, so that -0.0 and 0.0 differ too
        pieces = [
            p.name
            for p in HISTORY_LAYOUT.pieces.values()
            if p.start < len(ref) and fast[p.start : p.stop].tobytes() != ref[p.start : p.stop].tobytes()
        ]
        raise AssertionError(f"differs in {pieces}: n={state.num_players} step={state.steps} seat={seat}")


def check_games(mode: str, variant: str, games: range) -> None:
    order = random.Random(len(games))
    for game in games:
        config = config_for(game, variant)
        fast, ref = IncrementalEncoder(config, mode), Encoder(config, mode)
        for state in play(config, seed=game * 31 + len(variant)):
            seats = list(range(state.num_players))
            order.shuffle(seats)
            for seat in seats:
                assert_same(fast.observe(state, seat), ref.observe(state, seat), state, seat)
            seat = order.choice(seats)  # the same state again, written into a given array this time
            expected = ref.observe(state, seat)
            out = np.full(len(expected), np.nan, dtype=np.float32)
            assert fast.observe(state, seat, out=out) is out
            assert_same(out, expected, state, seat)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("mode", MODES)
def test_every_seat_at_every_step(mode, variant):
    check_games(mode, variant, range(40))


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("mode", MODES)
def test_every_seat_at_every_step_sweep(mode, variant):
    check_games(mode, variant, range(40, 240))


@pytest.mark.parametrize("mode", MODES)
def test_some_seats_now_and_then(mode):
    """Seats observed rarely catch up on many steps at once (and logs longer than LOG_LENGTH)."""
    pick = random.Random(5)
    for game in range(30):
        config = config_for(game, "basic")
        fast, ref = IncrementalEncoder(config, mode), Encoder(config, mode)
        for state in play(config, seed=game):
            if pick.random() < 0.15 or state.game_over:
                seat = pick.randrange(state.num_players)
                assert_same(fast.observe(state, seat), ref.observe(state, seat), state, seat)


@pytest.mark.parametrize("mode", MODES)
def test_several_states_alternately(mode):
    """One encoder follows more games at once than it keeps (MAX_TRACKED), stepped in turn."""
    config = GameConfig(num_players=6, extra_gods=True)
    fast, ref = IncrementalEncoder(config, mode), Encoder(config, mode)
    games = [play(config, seed) for seed in range(MAX_TRACKED + 3)]
    pick = random.Random(3)
    while games:
        game = pick.choice(games)
        state = next(game, None)
        if state is None:
            games.remove(game)
            continue
        for seat in pick.sample(range(6), 2):
            assert_same(fast.observe(state, seat), ref.observe(state, seat), state, seat)


@pytest.mark.parametrize("mode", MODES)
def test_clones(mode):
    """A clone is a new State: observed alongside its original, each going its own way."""
    for seed in range(12):
        config = config_for(seed, "hidden_count")
        fast, ref = IncrementalEncoder(config, mode), Encoder(config, mode)
        rng, pick = random.Random(seed), random.Random(seed + 7)
        state = new_game(config, rng)
        for _ in range(pick.randrange(10, 60)):
            if state.game_over:
                break
            fast.observe(state, state.decider)
            apply_action(state, pick.choice(legal_actions(state)), rng)
        clone, clone_rng = state.clone(), random.Random(seed + 100)
        for _ in range(40):
            for st, r in ((state, rng), (clone, clone_rng)):
                for seat in range(st.num_players):
                    assert_same(fast.observe(st, seat), ref.observe(st, seat), st, seat)
                if not st.game_over:
                    apply_action(st, pick.choice(legal_actions(st)), r)


@pytest.mark.parametrize("mode", MODES)
def test_first_seen_late_in_a_game(mode):
    """A state first observed after many incantations or votes (the history blocks have scrolled)."""
    pick = random.Random(9)
    for game in range(3, 60, 4):  # the small incantation size
        config = config_for(game, "basic")
        for seed in (game, 2 * game):  # uniform play (many votes), biased play (many incantations)
            steps = sum(1 for _ in play(config, seed))
            late = set(pick.sample(range(steps // 2, steps), 2)) | {steps - 1}
            for step, state in enumerate(play(config, seed)):
                if step in late:
                    fast, ref = IncrementalEncoder(config, mode), Encoder(config, mode)
                    for seat in range(state.num_players):
                        assert_same(fast.observe(state, seat), ref.observe(state, seat), state, seat)


@pytest.mark.parametrize("mode", MODES)
def test_truth(mode):
    for game in range(15):
        config = config_for(game, "extra_gods")
        fast, ref = IncrementalEncoder(config, mode), Encoder(config, mode)
        assert (fast.size, fast.truth_size, fast.layout) == (ref.size, ref.truth_size, ref.layout)
        for state in play(config, seed=game):
            seat = state.steps % state.num_players
            assert_same(fast.truth(state, seat), ref.truth(state, seat), state, seat)


def test_hand_edited_state_needs_forget():
    """The encoder trusts the engine to announce changes; `forget` starts afresh after an edit."""
    config = GameConfig(num_players=5)
    fast, ref = IncrementalEncoder(config), Encoder(config)
    state = new_game(config, random.Random(0))
    fast.observe(state, 0)
    state.players[3].sanity -= 1  # no event: a scripted test might do this
    fast.forget(state)
    assert_same(fast.observe(state, 0), ref.observe(state, 0), state, 0)


def test_pickled_and_copied_encoders_start_afresh():
    import copy
    import pickle

    config = GameConfig(num_players=7, extra_gods=True)
    fast, ref = IncrementalEncoder(config, "history"), Encoder(config, "history")
    for step, late in enumerate(play(config, seed=4)):
        if step == 60:
            break
    states = (late, new_game(config, random.Random(1)))
    for state in states:
        fast.observe(state, 0)
    for other in (pickle.loads(pickle.dumps(fast)), copy.deepcopy(fast)):
        for state in states:
            for seat in range(7):
                assert_same(other.observe(state, seat), ref.observe(state, seat), state, seat)


def test_env_uses_the_incremental_encoder():
    e = raw_env(num_players=5)
    assert isinstance(e.encoder, IncrementalEncoder)
    e.reset(seed=1)
    ref = Encoder(e.config)
    for agent in e.agents:
        assert_same(e.observe(agent)["observation"], ref.observe(e.game.state, e._seat[agent]), e.game.state, 0)
