"""Ablated players (rlyeh_env/ablation.py): `NAME:no-BLOCK` plays NAME without the actions of
BLOCK, from the same observation; every ablatable block leaves a legal choice at every decision;
bad names are refused with what can be ablated."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env.ablation import ABLATABLE, AblatedPlayer, blocked_ids, split_name
from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.engine import actions as A
from rlyeh_env.players import (
    PolicyCache, ScriptedPlayer, UnknownPlayerError, check_checkpoints, check_player, checkpoint_file, make_bot,
    make_side_player,
)
from rlyeh_env.table import Table

ACCUSE_IDS = set(range(A.ACCUSE, A.ACCUSE + A.MAX_OFFSET))


def test_names_split_into_the_player_and_the_blocks_it_goes_without():
    assert split_name("heuristic") == ("heuristic", ())
    assert split_name("v4:no-accuse:no-vote-yes") == ("v4", ("accuse", "vote_yes"))
    assert check_player("heuristic:no-accuse:no-investigate") == "heuristic:no-accuse:no-investigate"
    with pytest.raises(UnknownPlayerError, match="cannot take away 'gamble'; a player can go without accuse, curse"):
        check_player("heuristic:no-gamble")  # Gambling fever can force a Gamble: nothing would be left
    with pytest.raises(UnknownPlayerError, match="'nobody' is not a bot"):
        check_player("nobody:no-accuse")
    with pytest.raises(UnknownPlayerError, match="has no checkpoint file of its own"):
        checkpoint_file("v4:no-accuse")


def test_blocked_ids_are_the_blocks_action_ids():
    assert set(blocked_ids(("accuse",)).tolist()) == ACCUSE_IDS
    assert blocked_ids(("vote_yes", "investigate")).tolist() == [A.INVESTIGATE, A.VOTE_YES]


def _heuristic_actions(name: str, games: int) -> list[int]:
    """Every action the investigators take in `games` games at 5 seats against random cultists."""
    config, taken = GameConfig(num_players=5), []
    for game in range(games):
        table = Table(config, game)
        bots = [make_bot(name if role == Role.INVESTIGATOR else "random", 100 * game + seat, config)
                for seat, role in enumerate(table.roles)]
        while not table.over:
            seat = table.decider
            action = int(bots[seat].act(table.observation(seat), table.action_mask()))
            if table.roles[seat] == Role.INVESTIGATOR:
                taken.append(action)
            table.step(action)
    return taken


def test_an_ablated_bot_never_takes_the_blocked_actions_the_plain_one_takes():
    plain, ablated = _heuristic_actions("heuristic", 30), _heuristic_actions("heuristic:no-accuse", 30)
    assert ACCUSE_IDS & set(plain), "the heuristic accuses random cultists: the test could not fail otherwise"
    assert not ACCUSE_IDS & set(ablated)


class _Recorder:
    name = "recorder"

    def __init__(self):
        self.seen = []

    def act(self, keys, observations, masks):
        self.seen.append((observations, masks))
        return [int(np.flatnonzero(m)[0]) for m in masks], None


def test_an_ablated_side_player_sees_its_observation_unchanged_and_a_smaller_mask():
    inner = _Recorder()
    player = AblatedPlayer(inner, ("accuse", "vote_yes"))
    observations = np.random.default_rng(0).random((2, 5)).astype(np.float32)
    masks = np.zeros((2, A.NUM_ACTIONS), dtype=np.int8)
    masks[0, [A.RESEARCH, A.ACCUSE, A.ACCUSE + 3]] = 1
    masks[1, [A.VOTE_NO, A.VOTE_YES]] = 1
    actions, _ = player.act([(0, 1), (1, 2)], observations, masks)
    seen_obs, seen_masks = inner.seen[0]
    assert seen_obs is observations
    assert np.flatnonzero(seen_masks[0]).tolist() == [A.RESEARCH]
    assert np.flatnonzero(seen_masks[1]).tolist() == [A.VOTE_NO]
    assert actions == [A.RESEARCH, A.VOTE_NO]
    assert masks[0, A.ACCUSE] == 1, "the caller's mask is not changed"
    assert player.name == "recorder:no-accuse:no-vote-yes"
    forced = np.zeros((1, A.NUM_ACTIONS), dtype=np.int8)
    forced[0, A.VOTE_YES] = 1
    with pytest.raises(RuntimeError, match="without a legal action"):
        player.act([(0, 1)], observations[:1], forced)


def test_every_ablatable_block_leaves_a_legal_action_at_every_decision():
    """The guarantee behind ABLATABLE, over whole random games at every size."""
    ids = {block: blocked_ids((block,)) for block in ABLATABLE}
    rng = random.Random(7)
    decisions = 0
    for n in range(4, 9):
        for game in range(6):
            table = Table(GameConfig(num_players=n), 1000 * n + game)
            while not table.over:
                mask = table.action_mask()
                for block, block_ids in ids.items():
                    without = mask.copy()
                    without[block_ids] = 0
                    assert without.any(), (block, np.flatnonzero(mask).tolist())
                table.step(rng.choice(np.flatnonzero(mask).tolist()))
                decisions += 1
    assert decisions > 1000


def test_side_players_and_checkpoint_bots_take_ablated_names():
    check_checkpoints([("heuristic:no-accuse", "random:no-curse")], PolicyCache())  # no file to load
    scripted = make_side_player("heuristic:no-investigate", Role.INVESTIGATOR)
    assert isinstance(scripted, AblatedPlayer) and isinstance(scripted.player, ScriptedPlayer)
    assert scripted.player.name == "heuristic"
    pytest.importorskip("torch")
    policy = make_side_player("v4:no-accuse", Role.INVESTIGATOR)
    assert policy.name == "v4:investigator:no-accuse"
    bot = make_bot("v4:no-accuse", 1, GameConfig(num_players=5))
    assert bot.beliefs.__self__ is bot.bot  # the watch table asks a policy bot for its beliefs
