"""The bots: legal actions only, determinism, decisions blind to hidden state, the factory."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from rlyeh_env.arena import play_game, play_lineup
from rlyeh_env.bots import Bot, HeuristicBot, RandomBot, make_bot
from rlyeh_env.bots.view import Constants, read
from rlyeh_env.engine import GameConfig, Phase, Role, legal_actions
from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.engine.game import Game
from rlyeh_env.observation import Encoder

VARIANTS = {
    "basic": {},
    "hidden": {"hidden_cultist_count": True},
    "gods": {"extra_gods": True},
    "hidden+gods": {"hidden_cultist_count": True, "extra_gods": True},
    "revealed-cultist-contributes": {"revealed_cultist_contributes": True},  # R7.14, rules version 1
}


class Checked:
    """Wraps a bot: every action it returns must be allowed by the mask it was given."""

    def __init__(self, bot):
        self.bot = bot
        self.decisions = 0

    def reset(self, seed=None):
        self.bot.reset(seed)

    def act(self, observation, action_mask):
        assert observation.dtype == np.float32 and action_mask.shape == (NUM_ACTIONS,)
        action = self.bot.act(observation, action_mask)
        assert isinstance(action, int)
        assert action_mask[action] == 1, f"illegal action {action}; legal: {np.flatnonzero(action_mask).tolist()}"
        self.decisions += 1
        return action


def _factory(name: str, config: GameConfig):
    if name == "heuristic":
        return lambda seed: Checked(HeuristicBot(seed, config=config, strict=True))
    return lambda seed: Checked(RandomBot(seed))


# -- the factory -----------------------------------------------------------------------------------


def test_make_bot_builds_each_known_bot():
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)
    for name in ("random", "heuristic"):
        assert isinstance(make_bot(name, 0), Bot)


def test_make_bot_rejects_unknown_names_listing_the_known_ones():
    with pytest.raises(ValueError, match=r"'greedy'.*heuristic, random"):
        make_bot("greedy", 0)
    with pytest.raises(ValueError, match="known bots"):
        make_bot("", 0)


# -- legality --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_bots_only_choose_legal_actions(n, variant):
    """Both roles of both bots, in every line-up, at every table size and variant."""
    config = GameConfig(num_players=n, **VARIANTS[variant])
    lineups = [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]
    for g, (investigator, cultist) in enumerate(lineups * 2):
        seed = 1000 * n + 10 * list(VARIANTS).index(variant) + g
        result = play_lineup(config, seed, _factory(investigator, config), _factory(cultist, config))
        assert result.decisions > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_bots_only_choose_legal_actions_many_seeds(n, variant):
    config = GameConfig(num_players=n, **VARIANTS[variant])
    r = random.Random(n * 31 + len(variant))
    for g in range(40):
        names = r.choice([("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")])
        play_lineup(config, r.getrandbits(40), _factory(names[0], config), _factory(names[1], config))


def test_heuristic_handles_non_default_rules_it_was_told_about():
    config = GameConfig(num_players=6, hand_size=5, incantation_size=9, incantation_threshold=5, start_sanity=8)
    for g in range(3):
        play_lineup(config, g, _factory("heuristic", config), _factory("heuristic", config))


# -- determinism -----------------------------------------------------------------------------------


class Recorder:
    def __init__(self, bot, log):
        self.bot, self.log = bot, log

    def reset(self, seed=None):
        self.bot.reset(seed)

    def act(self, observation, action_mask):
        action = self.bot.act(observation, action_mask)
        self.log.append(action)
        random.seed(len(self.log))  # the global generators must not matter
        np.random.seed(len(self.log) * 7)
        return action


@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_bots_are_deterministic_given_their_seed(name):
    config = GameConfig(num_players=6, extra_gods=True)
    logs = []
    for _ in range(2):
        log: list[int] = []
        bots = [Recorder(make_bot(name, 100 + s), log) for s in range(6)]
        play_game(config, 42, bots)
        logs.append(log)
    assert logs[0] == logs[1] and len(logs[0]) > 20


def test_reset_reseeds_and_clears_the_game_memory():
    config = GameConfig(num_players=5)
    bot = HeuristicBot(3)
    first: list[int] = []
    play_game(config, 9, [Recorder(bot, first)] + [make_bot("heuristic", s) for s in range(4)])
    again: list[int] = []
    play_game(config, 9, [Recorder(bot, again)] + [make_bot("heuristic", s) for s in range(4)])
    assert first == again  # play_game resets every bot with the same per-seat seeds


# -- blind to hidden state -----------------------------------------------------------------------


def _sample_states(n: int, seed: int, every: int = 7) -> list:
    """Snapshots of a heuristic game in progress (every `every` decisions)."""
    config = GameConfig(num_players=n, extra_gods=seed % 2 == 1, hidden_cultist_count=seed % 3 == 2)
    game = Game(config, seed)
    encoder = Encoder(config)
    bots = [HeuristicBot(seed * 10 + s) for s in range(n)]
    states = []
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    while not game.over:
        if game.state.steps % every == 0:
            states.append(game.state.clone())
        seat = game.decider
        mask[:] = 0
        mask[game.legal_actions()] = 1
        game.step(bots[seat].act(encoder.observe(game.state, seat), mask))
    return states


def _perturb(state, seat: int, r: random.Random):
    """A clone that differs in what `seat` cannot know: the roles of the other unrevealed players
    it has not identified, the other players' hands (sizes kept) and the order of the deck (the
    top cards it saw with the Almanac kept)."""
    other = state.clone()
    me = other.players[seat]
    unknown = [s for s, p in enumerate(other.players) if s != seat and not p.revealed and me.memory.known_roles[s] < 0]
    roles = [other.players[s].role for s in unknown]
    r.shuffle(roles)
    for s, role in zip(unknown, roles):
        other.players[s].role = role
        other.players[s].memory.known_roles[s] = role
    fixed = len(me.memory.deck_top)
    top = other.deck[len(other.deck) - fixed :] if fixed else []
    cards = other.deck[: len(other.deck) - fixed]
    others = [p for s, p in enumerate(other.players) if s != seat]
    for p in others:
        for sigil in range(4):
            cards += [sigil] * p.hand[sigil]
    r.shuffle(cards)
    for p in others:
        count = p.hand_count
        p.hand = [0, 0, 0, 0]
        for _ in range(count):
            p.hand[cards.pop()] += 1
    other.deck = cards + top
    return other


def _mask(state) -> np.ndarray:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[legal_actions(state)] = 1
    return mask


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_decisions_do_not_depend_on_hidden_state(n):
    r = random.Random(n)
    checked = 0
    for seed in range(4):  # short games at the big tables (a late start hour) give fewer states each
        for state in _sample_states(n, 50 * n + seed, every=5):
            if state.game_over:
                continue
            seat = state.decider
            twin = _perturb(state, seat, r)
            obs_a = Encoder(state.config).observe(state, seat)
            obs_b = Encoder(twin.config).observe(twin, seat)
            assert np.array_equal(obs_a, obs_b), f"the observation leaks hidden state (n={n}, step {state.steps})"
            mask_a, mask_b = _mask(state), _mask(twin)
            assert np.array_equal(mask_a, mask_b)
            for bot_seed in (0, 1):
                a = HeuristicBot(bot_seed, strict=True).act(obs_a, mask_a)
                b = HeuristicBot(bot_seed, strict=True).act(obs_b, mask_b)
                assert a == b
            checked += 1
    assert checked > 20


def test_perturbation_really_changes_hidden_state():
    """The check above has teeth: the perturbed clones do differ where the seat cannot see."""
    r = random.Random(0)
    changed = 0
    for state in _sample_states(6, 3):
        twin = _perturb(state, state.decider if state.decider >= 0 else 0, r)
        changed += [p.hand for p in twin.players] != [p.hand for p in state.players]
        changed += [p.role for p in twin.players] != [p.role for p in state.players]
    assert changed > 10


# -- decoding ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 6, 8])
def test_the_decoded_view_matches_the_state(n):
    """`view.read` turns the vector back into the numbers the observer may know."""
    for state in _sample_states(n, 7 * n, every=5):
        for seat in range(n):
            w, k = read(Encoder(state.config).observe(state, seat), lambda m: Constants(num_players=m))
            me = state.players[seat]
            rel = [(seat + j) % n for j in range(n)]
            assert w.n == n and w.hour == state.hour and w.cultist == (me.role == Role.CULTIST)
            assert w.hand == me.hand and w.pool_size == len(state.pool)
            assert w.target == state.target and w.activated == state.activated
            assert w.sanity == [state.players[s].sanity for s in rel]
            assert w.contrib == [state.pool_contributions[s] for s in rel]
            assert w.hand_counts == [state.players[s].hand_count for s in rel]
            assert w.known == [me.memory.known_roles[s] for s in rel]
            assert w.revealed == [state.players[s].role if state.players[s].revealed else -1 for s in rel]
            assert w.character == [state.players[s].character for s in rel]
            assert w.equipment == [state.players[s].equipment for s in rel]
            assert w.phase == state.phase or state.game_over
            assert w.pool_mine == me.memory.pool_mine


def test_heuristic_bot_copies_are_independent():
    bot = HeuristicBot(5)
    twin = copy.deepcopy(bot)
    config = GameConfig(num_players=4)
    a: list[int] = []
    b: list[int] = []
    play_game(config, 1, [Recorder(bot, a)] + [make_bot("random", s) for s in range(3)])
    play_game(config, 1, [Recorder(twin, b)] + [make_bot("random", s) for s in range(3)])
    assert a == b


def test_random_bot_is_uniform_over_the_legal_actions():
    bot = RandomBot(0)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[3, 17, 40]] = 1
    counts = {3: 0, 17: 0, 40: 0}
    for _ in range(3000):
        counts[bot.act(np.zeros(10, dtype=np.float32), mask)] += 1
    assert all(900 < c < 1100 for c in counts.values())
    with pytest.raises(ValueError, match="no legal action"):
        bot.act(np.zeros(10, dtype=np.float32), np.zeros(NUM_ACTIONS, dtype=np.int8))


def test_phases_seen_by_the_heuristic_cover_every_decision_kind():
    """Sanity of the legality test: the heuristic meets every phase in a handful of games."""
    config = GameConfig(num_players=5)
    seen = set()

    class Spy(HeuristicBot):
        def act(self, observation, action_mask):
            w, _ = read(observation, lambda m: Constants(num_players=m))
            seen.add(w.phase)
            return super().act(observation, action_mask)

    for g in range(12):
        play_lineup(config, g, lambda s: Spy(s, strict=True), lambda s: Spy(s, strict=True))
    expected = {p for p in Phase if p not in (Phase.GAME_OVER, Phase.EQUIPMENT_SIGIL)}
    assert expected <= seen
