"""Observation semantics, on scripted states and over random games.

Offsets inside rows are taken from the spec (the env module docstring), not from the encoder.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env import raw_env
from rlyeh_env.engine import GameConfig, Phase, apply_action, legal_actions, new_game
from rlyeh_env.engine import actions as A
from rlyeh_env.observation import HISTORY_LAYOUT, SEAT_LAYOUT, SEATS, TRUTH_LAYOUT, Encoder
from rlyeh_env_testkit import policy, sample_states
from scenario import set_hand, set_pool

# -- offsets from the spec ------------------------------------------------------------------------
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


# -- scripting -----------------------------------------------------------------------------------


def dealt(n=5, seed=0, **config):
    rng = random.Random(seed)
    return new_game(GameConfig(num_players=n, **config), rng), rng


def declared(n=5, seed=0, target=0, **config):
    """A dealt game after the watch holder declared `target`: its turn, phase TURN."""
    state, rng = dealt(n, seed, **config)
    apply_action(state, A.DECLARE + target, rng)
    assert state.phase == Phase.TURN and state.decider == state.watch
    return state, rng


# -- the observer's own data ---------------------------------------------------------------------


@pytest.mark.parametrize("n", range(4, 9))
def test_own_role_hand_and_knowledge_at_the_deal(n):
    state, _ = dealt(n, seed=n)
    for seat, player in enumerate(state.players):
        v = observe(state, seat)
        assert np.array_equal(v["me.role"], one_hot(2, player.role))
        assert np.allclose(v["me.hand"], np.array(player.hand) / state.config.hand_size)
        known = v["me.known_roles"]
        assert np.array_equal(known[0], one_hot(3, 1 + player.role))
        for k in range(1, n):
            assert np.array_equal(known[k], one_hot(3, 0)), "other roles are unknown at the deal"
        assert not known[n:].any()
        assert np.array_equal(v["table.size"], one_hot(5, n - 4))
        assert np.array_equal(v["table.cultists"], one_hot(5, state.num_cultists))
        assert np.array_equal(v["clock.hour"], one_hot(13, state.hour))


def test_hidden_cultist_count_is_not_shown():
    state, _ = dealt(8, seed=1, hidden_cultist_count=True)
    for seat in range(8):
        assert np.array_equal(observe(state, seat)["table.cultists"], one_hot(5, 0))


def test_seat_relative_rows_and_padding():
    state, _ = declared(n=5, seed=4)
    n = 5
    sanity = [5, 4, 3, 2, 1]
    for s in range(n):
        state.players[s].sanity = sanity[s]
        set_hand(state, s, [[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 2, 0]][s])
    state.pool_investigations = [0, 1, 2, 3, 4]
    state.pool_swaps = [4, 3, 2, 1, 0]
    set_pool(state, [(0, 1, False), (1, 2, False), (1, 2, True), (2, 4, False)])
    for seat in range(n):
        v = observe(state, seat)
        for k in range(n):
            s = (seat + k) % n
            p = state.players[s]
            assert v["players"][k, P_PRESENT] == 1.0
            assert v["players"][k, P_SANITY] == pytest.approx(p.sanity / 5)
            assert v["players"][k, P_CHARACTER + p.character] == 1.0
            assert v["players"][k, P_EQUIPMENT + p.equipment] == 1.0
            assert v["players.hand_size"][k] == pytest.approx(p.hand_count / 3)
            assert v["pool.contributions"][k] == pytest.approx(state.pool_contributions[s] / 7)
            assert v["pool.investigations"][k] == pytest.approx(min(state.pool_investigations[s], 4) / 4)
            assert v["pool.swaps"][k] == pytest.approx(min(state.pool_swaps[s], 4) / 4)
        assert np.array_equal(v["turn.watch"], one_hot(SEATS, rel(state, seat, state.watch)))
        assert np.array_equal(v["turn.player"], one_hot(SEATS, rel(state, seat, state.turn_player)))
        for name in SEAT_INDEXED:
            assert not v[name][n:].any(), f"{name}: padded rows must be zero"
        assert v["pool.size"][0] == pytest.approx(4 / 7)
        assert np.allclose(v["pool.face_up"], [0, 1 / 7, 0, 0])
        assert np.allclose(v["me.pool_mine"], np.array(state.players[seat].memory.pool_mine) / 7)
    # the accusation ids name the same relative seats as the rows
    seat = state.decider
    v = observe(state, seat)
    legal = legal_actions(state)
    for k in range(1, n):
        assert (A.ACCUSE + k - 1 in legal) == (v["players"][k, P_REVEALED] == 1.0)


def test_padded_rows_are_zero_in_random_mid_game_states():
    for state in sample_states(seeds=[7], sizes=[4, 5, 6]):
        n = state.num_players
        for seat in range(n):
            v = observe(state, seat, "history")
            for name in SEAT_INDEXED:
                assert not v[name][n:].any(), name
            per_seat = v["history.incantations"][:, I_SEATS : I_SEATS + 4 * SEATS].reshape(-1, SEATS, 4)
            assert not per_seat[:, n:].any()
            for first in (V_PROPOSER, V_ACCUSED, V_YES, V_NO):
                assert not v["history.votes"][:, first + n : first + SEATS].any()


# -- revealed roles, votes -----------------------------------------------------------------------


def _accuse_and_vote(state, rng, accused, yes=True):
    proposer = state.decider
    apply_action(state, A.ACCUSE + rel(state, proposer, accused) - 1, rng)
    voters = []
    while state.phase == Phase.VOTE:
        voters.append(state.decider)
        # the vote in progress is public: every seat sees its kind, proposer and accused
        for seat in range(state.num_players):
            v = observe(state, seat)
            assert np.array_equal(v["decision.vote_kind"], one_hot(2, 0))
            assert np.array_equal(v["decision.vote_proposer"], one_hot(SEATS, rel(state, seat, proposer)))
            assert np.array_equal(v["decision.vote_accused"], one_hot(SEATS, rel(state, seat, accused)))
            assert np.array_equal(v["decision.phase"], one_hot(11, Phase.VOTE))
        apply_action(state, A.VOTE_YES if yes else A.VOTE_NO, rng)
    return proposer, voters


@pytest.mark.parametrize("accuse_cultist", [False, True])
def test_revealed_role_is_shown_to_every_seat(accuse_cultist):
    state, rng = declared(n=6, seed=11)
    proposer = state.decider
    candidates = [s for s, p in enumerate(state.players) if s != proposer and p.role == int(accuse_cultist)]
    accused = candidates[0]
    role = state.players[accused].role
    _, voters = _accuse_and_vote(state, rng, accused)
    assert state.players[accused].revealed
    record = state.votes[-1]
    for seat in range(6):
        v = observe(state, seat)
        k = rel(state, seat, accused)
        assert np.array_equal(v["me.known_roles"][k], one_hot(3, 1 + role))
        assert np.array_equal(v["players"][k, P_REVEALED : P_REVEALED + 3], one_hot(3, 1 + role))
        # the vote is over: no vote context, one vote in the history
        assert not v["decision.vote_kind"].any() and not v["decision.vote_proposer"].any()
        row = v["history.votes"][0]
        assert row[0] == 1.0 and not v["history.votes"][1:].any()
        assert row[V_KIND] == 1.0 and row[V_PROPOSER + rel(state, seat, proposer)] == 1.0
        assert row[V_ACCUSED + k] == 1.0 and row[V_PASSED] == 1.0
        assert np.array_equal(row[V_ROLE : V_ROLE + 2], one_hot(2, role))
        assert row[V_HOUR] == pytest.approx(record.hour / 12)
        yes = [s for s in range(6) if record.votes[s] == 1]
        assert sorted(yes) == sorted(voters + [proposer])
        for s in range(6):
            assert row[V_YES + rel(state, seat, s)] == float(s in yes)
            assert row[V_NO + rel(state, seat, s)] == 0.0
        # suspicion: 5 accusations that revealed an investigator, 6 Yes votes revealing one
        sus = v["history.suspicion"]
        for s in range(6):
            kk = rel(state, seat, s)
            if role == 0:
                assert sus[kk, 5] == (0.25 if s == proposer else 0.0)
                assert sus[kk, 6] == (0.25 if s in yes else 0.0)
            else:
                assert sus[kk, 5] == sus[kk, 6] == sus[kk, 7] == 0.0  # nobody voted No
    if role == 0:
        assert np.array_equal(observe(state, 0)["clock.hour"], one_hot(13, state.hour))


def test_no_votes_against_a_revealed_cultist_are_counted():
    state, rng = declared(n=6, seed=11)
    proposer = state.decider
    accused = next(s for s, p in enumerate(state.players) if p.role == 1 and s != proposer)
    apply_action(state, A.ACCUSE + rel(state, proposer, accused) - 1, rng)
    no_voters = []
    while state.phase == Phase.VOTE:
        # one No, then Yes: the vote still passes with 6 voters (proposer + 3 Yes out of 5)
        vote = A.VOTE_NO if not no_voters else A.VOTE_YES
        if vote == A.VOTE_NO:
            no_voters.append(state.decider)
        apply_action(state, vote, rng)
    assert state.votes[-1].passed and state.players[accused].revealed
    for seat in range(6):
        sus = observe(state, seat)["history.suspicion"]
        for s in range(6):
            assert sus[rel(state, seat, s), 7] == (0.25 if s in no_voters else 0.0)


# -- decision context ----------------------------------------------------------------------------


def test_gambled_cards_are_seen_only_by_the_gambler():
    state, rng = declared(n=5, seed=2)
    gambler = state.decider
    apply_action(state, A.GAMBLE, rng)
    assert state.phase == Phase.GAMBLE_PLAY and len(state.pending.gamble_cards) == 2
    expected = np.zeros(4, dtype=np.float32)
    for c in state.pending.gamble_cards:
        expected[c] += 0.5
    for seat in range(5):
        v = observe(state, seat)
        assert np.array_equal(v["decision.phase"], one_hot(11, Phase.GAMBLE_PLAY))
        if seat == gambler:
            assert np.array_equal(v["decision.gamble_cards"], expected)
        else:
            assert not v["decision.gamble_cards"].any()


def test_decision_context_only_for_the_decider_in_random_states():
    met = set()
    for state in sample_states(seeds=[3], per_phase=2):
        pending = state.pending
        cfg = state.config
        for seat in range(state.num_players):
            v = observe(state, seat)
            mine = seat == state.decider and not state.game_over
            gamble = np.zeros(4)
            taken = np.zeros(4)
            pages = np.zeros(3)
            discarded = 0.0
            if mine and state.phase == Phase.GAMBLE_PLAY:
                for c in pending.gamble_cards:
                    gamble[c] += 0.5
            if mine and state.phase == Phase.INVESTIGATE_GIVE:
                taken[state.pool[pending.taken].sigil] = 1.0
            if mine and state.phase == Phase.NECRONOMICON_PAGE:
                for p in pending.pages:
                    pages[p] += 1 / cfg.necronomicon_offer
            if mine and state.phase == Phase.RESEARCH_DISCARD:
                discarded = pending.discarded / cfg.hand_size
            assert np.allclose(v["decision.gamble_cards"], gamble)
            assert np.allclose(v["decision.taken"], taken)
            assert np.allclose(v["decision.pages"], pages)
            assert v["decision.discarded"][0] == pytest.approx(discarded)
            assert np.array_equal(v["decision.phase"], one_hot(11, state.phase))
            if pending.vote is None:
                assert not v["decision.vote_kind"].any() and not v["decision.vote_proposer"].any()
            else:
                vote = pending.vote
                assert np.array_equal(v["decision.vote_kind"], one_hot(2, vote.kind))
                assert np.array_equal(v["decision.vote_proposer"], one_hot(SEATS, rel(state, seat, vote.proposer)))
                acc = one_hot(SEATS, rel(state, seat, vote.accused)) if vote.accused >= 0 else np.zeros(SEATS)
                assert np.array_equal(v["decision.vote_accused"], acc)
            met.add(state.phase)
    assert {Phase.GAMBLE_PLAY, Phase.INVESTIGATE_GIVE, Phase.NECRONOMICON_PAGE, Phase.RESEARCH_DISCARD, Phase.VOTE} <= met


# -- incantation history and suspicion -----------------------------------------------------------


@pytest.mark.parametrize("success", [False, True])
def test_incantation_record_in_history(success):
    state, rng = declared(n=5, seed=6, target=0)
    w = state.watch
    s1, s2, s3, s4 = [(w + k) % 5 for k in range(1, 5)]
    # Ithaqua is the target, Zhar its opposite. s2 played its Zhar face up.
    cards = [(0, s1, False), (0, s1, False), (1, s2, True), (2, s3, False), (0, s4, False)]
    cards.append((0 if success else 3, s1, False))
    set_pool(state, cards)
    set_hand(state, w, [1, 1, 1, 0])
    mine_before = {s: list(state.players[s].memory.pool_mine) for s in range(5)}
    mine_before[w][0] += 1
    hour = state.hour
    apply_action(state, A.CONTRIBUTE + 0, rng)  # the seventh card: the pool resolves
    record = state.incantations[-1]
    assert record.success == success
    expected_cards = [5, 1, 1, 0] if success else [4, 1, 1, 1]
    assert record.cards == expected_cards
    contributions = {w: 1, s1: 3, s2: 1, s3: 1, s4: 1}
    for seat in range(5):
        for mode in ("seat", "history"):
            v = observe(state, seat, mode)
            row = v["history.incantations"][0]
            assert not v["history.incantations"][1:].any()
            assert row[0] == 1.0
            assert np.array_equal(row[I_TARGET : I_TARGET + 4], one_hot(4, 0))
            assert np.allclose(row[I_CARDS : I_CARDS + 4], np.array(expected_cards) / 7)
            opp = expected_cards[1]
            assert np.allclose(row[I_MATCH : I_MATCH + 3], np.array([expected_cards[0], opp, 7 - expected_cards[0] - opp]) / 7)
            assert row[I_SUCCESS] == float(success)
            assert row[I_HOUR] == pytest.approx(hour / 12)
            per_seat = row[I_SEATS : I_SEATS + 4 * SEATS].reshape(SEATS, 4)
            for s in range(5):
                k = rel(state, seat, s)
                assert per_seat[k, 0] == pytest.approx(contributions[s] / 7)
                assert per_seat[k, 1] == pytest.approx((1 / 7) if s == s2 else 0.0)  # face-up opposite
            assert np.allclose(row[I_MINE : I_MINE + 4], np.array(mine_before[seat]) / 7), "my own cards"
            assert v["sigils.activated"][0] == float(success)
            sus = v["history.suspicion"]
            for s in range(5):
                k = rel(state, seat, s)
                fed = min(contributions[s], 4) / 4
                assert sus[k, 0] == pytest.approx(0.0 if success else fed)
                assert sus[k, 1] == pytest.approx(fed if success else 0.0)
                assert sus[k, 2] == pytest.approx(0.25 if s == s2 else 0.0)
            # the pool of the next incantation is empty, and so is my memory of it
            assert v["pool.size"][0] == 0.0 and not v["me.pool_mine"].any() and not v["pool.contributions"].any()
        assert state.players[seat].memory.past_mine[-1] == mine_before[seat]


def test_history_log_shows_public_and_own_private_events():
    state, rng = declared(n=5, seed=2)
    gambler = state.decider
    apply_action(state, A.GAMBLE, rng)
    from rlyeh_env.engine.state import EVENT_KINDS

    drew = EVENT_KINDS.index("gamble_drew")
    gambled = EVENT_KINDS.index("gambled")
    for seat in range(5):
        log = observe(state, seat, "history")["log"]
        kinds = log[:, : len(EVENT_KINDS)]
        assert kinds[:, gambled].sum() == 1.0
        assert kinds[:, drew].sum() == (2.0 if seat == gambler else 0.0)
        assert (kinds.sum(axis=1) <= 1).all()


# -- ranges, truth, masks over random games ------------------------------------------------------


def _random_env_games(mode, games, seed=0, **config):
    """Yield (env, state) after every step of `games` random games."""
    r = random.Random(seed)
    for g in range(games):
        e = raw_env(num_players=4 + g % 5, observation_mode=mode, **config)
        e.reset(seed=seed * 100 + g)
        yield e
        while not e.game.state.game_over:
            e.step(policy(e.game.state, e.game.legal_actions(), r))
            yield e


def _check_ranges(mode, games, skip=()):
    for e in _random_env_games(mode, games, extra_gods=True):
        layout = e.encoder.layout
        for agent in e.agents:
            obs = e.observe(agent)["observation"]
            for name, view in layout.views(obs).items():
                if name not in skip:
                    assert view.min() >= 0.0 and view.max() <= 1.0, (name, view.max())
        st = e.state()
        assert st.shape == e.state_space.shape and st.dtype == np.float32
        for name in skip:
            st[layout[name].start : layout[name].stop] = 0.0
        assert st.min() >= 0.0 and st.max() <= 1.0


@pytest.mark.parametrize("mode", ["seat", "history"])
def test_values_within_unit_interval(mode):
    _check_ranges(mode, games=15)


def test_values_within_unit_interval_long_games():
    """Games can last more than 12 rounds (Turn back time, Forbidden lore, Cthugha)."""
    for e in _random_env_games("seat", games=40, seed=1):
        for agent in e.agents:
            obs = e.observe(agent)
            assert e.observation_space(agent).contains(obs)


def test_state_contains_the_truth():
    for n in range(4, 9):
        e = raw_env(num_players=n, hidden_cultist_count=n % 2 == 0)
        e.reset(seed=n)
        for _ in range(20):
            e.step(policy(e.game.state, e.game.legal_actions(), random.Random(n)))
        st = e.state()
        assert st.shape == e.state_space.shape
        assert np.array_equal(st[: e.encoder.size], e.observe("player_0")["observation"])
        truth = TRUTH_LAYOUT.views(st[e.encoder.size :])
        state = e.game.state
        for s in range(n):
            assert np.array_equal(truth["truth.roles"][s], one_hot(2, state.players[s].role))
            assert np.allclose(truth["truth.hands"][s], np.array(state.players[s].hand) / 3)
        assert not truth["truth.roles"][n:].any()
        assert np.array_equal(truth["truth.cultist_count"], one_hot(5, state.num_cultists))


def test_masks_over_random_games():
    for e in _random_env_games("seat", games=20, seed=2):
        state = e.game.state
        if state.game_over:
            for agent in e.agents:
                assert not e.observe(agent)["action_mask"].any()
            continue
        assert e.agent_selection == f"player_{state.decider}"
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (A.NUM_ACTIONS,)
            if agent == e.agent_selection:
                assert np.flatnonzero(mask).tolist() == legal_actions(state)
            else:
                assert not mask.any()


@pytest.mark.parametrize("mode", ["seat", "history"])
def test_env_encoder_cache_matches_fresh_encoder(mode):
    """The env's encoder keeps caches across steps of one mutated State; they never go stale."""
    for e in _random_env_games(mode, games=6, seed=4, extra_gods=True):
        fresh = Encoder(e.config, mode)
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            assert np.array_equal(e.observe(agent)["observation"], fresh.observe(e.game.state, seat))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["seat", "history"])
def test_values_within_unit_interval_sweep(mode):
    _check_ranges(mode, games=150, skip={"clock.round"})


# -- private knowledge from equipment, and the remaining public blocks ----------------------------


def _use_equipment(item, target_offset=None, n=6, seed=8):
    from rlyeh_env.engine.cards import Equipment

    state, rng = declared(n=n, seed=seed)
    seat = state.decider
    state.players[seat].equipment = int(Equipment[item])
    apply_action(state, A.USE_EQUIPMENT, rng)
    if target_offset is not None:
        assert state.phase == Phase.EQUIPMENT_PLAYER
        apply_action(state, A.TARGET_PLAYER + target_offset - 1, rng)
    assert state.phase == Phase.TURN and state.decider == seat
    return state, seat


def test_spyglass_hand_is_seen_by_its_user_only():
    state, seat = _use_equipment("SPYGLASS", target_offset=2)
    target = (seat + 2) % 6
    seen = state.players[target].hand
    for observer in range(6):
        v = observe(state, observer)
        row = v["me.seen_hands"][rel(state, observer, target)]
        if observer == seat:
            assert row[0] == 1.0 and np.allclose(row[1:], np.array(seen) / 3)
        else:
            assert not v["me.seen_hands"].any()
        p = v["players"][rel(state, observer, seat)]
        assert p[P_EQUIPMENT + 4] == 1.0 and p[P_USED] == 1.0  # the use itself is public


def test_ouija_role_is_known_by_its_user_only():
    state, seat = _use_equipment("OUIJA_BOARD", target_offset=3)
    target = (seat + 3) % 6
    role = state.players[target].role
    for observer in range(6):
        row = observe(state, observer)["me.known_roles"][rel(state, observer, target)]
        if observer == seat:
            assert np.array_equal(row, one_hot(3, 1 + role))
        elif observer != target:
            assert np.array_equal(row, one_hot(3, 0))
        assert not state.players[target].revealed


def test_almanac_deck_top_is_seen_by_its_user_only():
    state, seat = _use_equipment("ALMANAC")
    top = state.deck[::-1][:3]
    for observer in range(6):
        v = observe(state, observer)["me.deck_top"]
        if observer == seat:
            for k, card in enumerate(top):
                assert np.array_equal(v[k], np.concatenate([[1.0], one_hot(4, card)]))
        else:
            assert not v.any()


def test_lantern_look_is_seen_by_its_user_only():
    state, rng = declared(n=5, seed=9)
    seat = state.decider
    state.players[seat].equipment = 0  # Lantern
    set_pool(state, [(2, (seat + 1) % 5, False), (3, (seat + 2) % 5, False), (2, (seat + 3) % 5, False)])
    apply_action(state, A.USE_EQUIPMENT, rng)
    look = state.players[seat].memory.pool_look
    assert sum(look) == 2
    for observer in range(5):
        v = observe(state, observer)
        if observer == seat:
            assert np.allclose(v["me.pool_look"], np.array(look) / 7)
            assert v["me.pool_look_size"][0] == pytest.approx(3 / 7) and v["me.pool_look_current"][0] == 1.0
        else:
            assert not v["me.pool_look"].any() and not v["me.pool_look_size"].any()
    # one more card: the look is no longer current
    apply_action(state, A.CONTRIBUTE + state.players[seat].hand.index(max(state.players[seat].hand)), rng)
    v = observe(state, seat)
    assert v["me.pool_look_size"][0] == pytest.approx(3 / 7) and v["me.pool_look_current"][0] == 0.0


def test_clock_target_gods_and_necronomicon_blocks():
    state, _ = declared(n=7, seed=5, target=2, extra_gods=True)
    state.hour = state.config.necronomicon_earliest_hour
    state.round = 3
    state.players[2].proposed_necronomicon = True
    for observer in range(7):
        v = observe(state, observer)
        assert np.array_equal(v["clock.hour"], one_hot(13, state.hour))
        assert v["clock.round"][0] == pytest.approx(3 / 12)
        assert np.array_equal(v["sigils.target"], one_hot(5, 2))
        for sigil, god in enumerate(state.gods):
            assert np.array_equal(v["sigils.gods"][sigil], one_hot(9, god)) and god >= 4
        assert np.array_equal(v["necronomicon"], [0.0, 1.0, float(observer == 2)])
        assert v["players"][rel(state, observer, 2), P_PROPOSED] == 1.0
        assert v["cards.deck_and_discard"][0] == pytest.approx(len(state.deck) / 48)
    state.target = -1
    assert np.array_equal(observe(state, 0)["sigils.target"], one_hot(5, 4))
