"""Decoding one seat's observation vector into plain Python numbers for the heuristic bot.

Everything here reads the flat vector only (through `SEAT_LAYOUT`'s index ranges), never the
engine state. Seats are *relative*, as in the observation: seat 0 is the observer, seat k the
player k seats to its left. The counts the encoder divides by a config number (hand size,
incantation size, ...) are multiplied back with the numbers of the `GameConfig` the bot was
built with (the defaults unless told otherwise).
"""

from __future__ import annotations

import numpy as np

from ..engine.cards import NUM_CHARACTERS, NUM_EQUIPMENT, NUM_GODS, NUM_INSANITY
from ..engine.config import MIDNIGHT, GameConfig
from ..observation.layout import (
    CAP,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    PLAYER_FEATURES,
    SEAT_LAYOUT,
    SEATS,
    VOTE_FEATURES,
    VOTE_HISTORY,
    IncantationRow,
    PlayerRow,
    VoteRow,
)

_AT = SEAT_LAYOUT.starts
_HIST_INC = SEAT_LAYOUT["history.incantations"]
_HIST_VOTE = SEAT_LAYOUT["history.votes"]
_P = PLAYER_FEATURES  # the stride of the players block


def _argmax(v: list[float], start: int, count: int) -> int:
    """Index of the hot entry of a one-hot block (-1 when the block is all zero)."""
    try:
        return v.index(1.0, start, start + count) - start
    except ValueError:
        return -1


class Constants:
    """The config numbers needed to undo the encoder's normalisation (and the rules' numbers the
    bot plans with). Without a config, those of the default rules for the table size."""

    def __init__(self, config: GameConfig | None = None, num_players: int = 5):
        cfg = config if config is not None else GameConfig(num_players=num_players)
        self.hand_size = cfg.hand_size
        self.size = cfg.incantation_size
        self.threshold = cfg.incantation_threshold
        self.cancels = cfg.opposite_cancels
        self.start_sanity = cfg.start_sanity
        self.deck_size = cfg.deck_size
        self.offer = cfg.necronomicon_offer
        self.wrong_hours = cfg.wrong_accusation_hours
        self.hours_back = cfg.necronomicon_hours_back
        self.config = cfg


class Record:
    """One resolved incantation as the observer knows it (relative seats)."""

    __slots__ = ("target", "cards", "success", "contrib", "face_up_opp", "investigations", "swaps", "mine", "hour")


class Vote:
    """One finished vote (relative seats); `accused` is -1 for a Necronomicon proposal."""

    __slots__ = ("kind", "proposer", "accused", "yes", "no", "passed", "revealed", "hour")


class View:
    """The observation, decoded. Built by `read`."""

    __slots__ = (
        "n", "cultist", "hand", "pool_mine", "look", "look_size", "look_current", "known", "seen_hands",
        "deck_top", "cultists", "hour", "activated", "target", "gods", "pool_size", "face_up", "contrib",
        "investigations", "swaps", "deck", "discard", "watch", "player", "sanity", "mad", "insanity",
        "revealed", "character", "equipment", "used", "proposed", "hand_counts", "necro_read", "necro_open",
        "i_proposed", "phase", "gamble", "discarded", "taken", "vote_kind", "vote_proposer", "vote_accused",
        "pages", "records", "votes", "reading", "vector",
    )  # fmt: skip


def read(obs: np.ndarray, constants) -> tuple[View, Constants]:
    """Decode `obs`; `constants(n)` gives the `Constants` for a table of n players."""
    v = obs[: _HIST_INC.start].tolist()  # the history blocks are decoded lazily (records, votes)
    at = _AT
    w = View()
    w.vector = obs
    n = 4 + _argmax(v, at["table.size"], 5)
    k = constants(n)
    hs, size = k.hand_size, k.size
    w.n = n
    w.cultist = v[1] > 0.5
    i = at["me.hand"]
    w.hand = [int(x * hs + 0.5) for x in v[i : i + 4]]
    i = at["me.pool_mine"]
    w.pool_mine = [int(x * size + 0.5) for x in v[i : i + 4]]
    i = at["me.pool_look"]
    w.look = [int(x * size + 0.5) for x in v[i : i + 4]]
    w.look_size = int(v[at["me.pool_look_size"]] * size + 0.5)
    w.look_current = v[at["me.pool_look_current"]] > 0.5
    i = at["me.known_roles"]
    blk = v[i : i + 3 * n]
    w.known = [0 if a else (1 if b else -1) for a, b in zip(blk[1::3], blk[2::3])]
    i = at["me.seen_hands"]
    w.seen_hands = [
        [int(x * hs + 0.5) for x in v[i + 5 * s + 1 : i + 5 * s + 5]] if v[i + 5 * s] > 0.5 else None for s in range(n)
    ]
    i = at["me.deck_top"]
    w.deck_top = [_argmax(v, i + 5 * j + 1, 4) for j in range(3) if v[i + 5 * j] > 0.5]
    w.cultists = _argmax(v, at["table.cultists"], 5)
    w.hour = _argmax(v, at["clock.hour"], 13)
    i = at["sigils.activated"]
    w.activated = [x > 0.5 for x in v[i : i + 4]]
    t = _argmax(v, at["sigils.target"], 5)
    w.target = t if t < 4 else -1
    i = at["sigils.gods"]
    w.gods = obs[i : i + 4 * NUM_GODS].reshape(4, NUM_GODS).argmax(axis=1).tolist()
    w.pool_size = int(v[at["pool.size"]] * size + 0.5)
    i = at["pool.face_up"]
    w.face_up = [int(x * size + 0.5) for x in v[i : i + 4]]
    i = at["pool.contributions"]
    w.contrib = [int(x * size + 0.5) for x in v[i : i + n]]
    i = at["pool.investigations"]
    w.investigations = [int(x * CAP + 0.5) for x in v[i : i + n]]
    i = at["pool.swaps"]
    w.swaps = [int(x * CAP + 0.5) for x in v[i : i + n]]
    i = at["cards.deck_and_discard"]
    w.deck = int(v[i] * k.deck_size + 0.5)
    w.discard = int(v[i + 1] * k.deck_size + 0.5)
    w.watch = _argmax(v, at["turn.watch"], SEATS)
    w.player = _argmax(v, at["turn.player"], SEATS)
    base = at["players"]
    ss = k.start_sanity
    blk = v[base : base + _P * n]
    w.sanity = [int(x * ss + 0.5) for x in blk[PlayerRow.SANITY::_P]]
    w.mad = [x > 0.5 for x in blk[PlayerRow.MAD::_P]]
    w.insanity = [blk[r + PlayerRow.INSANITY : r + PlayerRow.INSANITY + NUM_INSANITY] for r in range(0, _P * n, _P)]
    w.revealed = [
        1 if c > 0.5 else (0 if i > 0.5 else -1)
        for i, c in zip(blk[PlayerRow.REVEALED + 1 :: _P], blk[PlayerRow.REVEALED + 2 :: _P])
    ]
    rows = obs[base : base + _P * n].reshape(n, _P)
    w.character = rows[:, PlayerRow.CHARACTER : PlayerRow.CHARACTER + NUM_CHARACTERS].argmax(axis=1).tolist()
    w.equipment = rows[:, PlayerRow.EQUIPMENT : PlayerRow.EQUIPMENT + NUM_EQUIPMENT].argmax(axis=1).tolist()
    w.used = [x > 0.5 for x in blk[PlayerRow.USED::_P]]
    w.proposed = [x > 0.5 for x in blk[PlayerRow.PROPOSED::_P]]
    i = at["players.hand_size"]
    w.hand_counts = [int(x * hs + 0.5) for x in v[i : i + n]]
    i = at["necronomicon"]
    w.necro_read, w.necro_open, w.i_proposed = v[i] > 0.5, v[i + 1] > 0.5, v[i + 2] > 0.5
    w.phase = _argmax(v, at["decision.phase"], 11)
    i = at["decision.gamble_cards"]
    w.gamble = [int(x * 2 + 0.5) for x in v[i : i + 4]]
    w.discarded = int(v[at["decision.discarded"]] * hs + 0.5)
    w.taken = _argmax(v, at["decision.taken"], 4)
    w.vote_kind = _argmax(v, at["decision.vote_kind"], 2)
    w.vote_proposer = _argmax(v, at["decision.vote_proposer"], SEATS)
    w.vote_accused = _argmax(v, at["decision.vote_accused"], SEATS)
    i = at["decision.pages"]
    w.pages = [x > 0 for x in v[i : i + 3]]
    w.records = None  # decoded lazily (see records / votes below)
    w.votes = None
    i = at["history.reading"]
    reading = obs[i : i + 1 + SEATS + 3].tolist()
    w.reading = (_argmax(reading, 1, SEATS), _argmax(reading, 1 + SEATS, 3)) if reading[0] > 0.5 else None
    return w, k


def records(w: View, k: Constants) -> list[Record]:
    """The resolved incantations kept in the observation, oldest first."""
    if w.records is not None:
        return w.records
    v = w.vector
    n, size = w.n, k.size
    block = v[_HIST_INC.start : _HIST_INC.stop].reshape(INCANTATION_HISTORY, INCANTATION_FEATURES)
    out = []
    for row in block.tolist():
        if row[IncantationRow.PRESENT] < 0.5:
            continue
        r = Record()
        r.target = _argmax(row, IncantationRow.TARGET, 4)
        r.cards = [int(x * size + 0.5) for x in row[IncantationRow.CARDS : IncantationRow.CARDS + 4]]
        r.success = row[IncantationRow.SUCCESS] > 0.5
        r.hour = int(row[IncantationRow.HOUR] * MIDNIGHT + 0.5)
        per = IncantationRow.PER_SEAT  # contributions, face-up opposite cards, investigations, swaps
        seats = row[IncantationRow.BY_SEAT : IncantationRow.BY_SEAT + per * n]
        r.contrib = [int(x * size + 0.5) for x in seats[0::per]]
        r.face_up_opp = [int(x * size + 0.5) for x in seats[1::per]]
        r.investigations = [int(x * CAP + 0.5) for x in seats[2::per]]
        r.swaps = [int(x * CAP + 0.5) for x in seats[3::per]]
        r.mine = [int(x * size + 0.5) for x in row[IncantationRow.MINE:]]
        out.append(r)
    w.records = out
    return out


def votes(w: View) -> list[Vote]:
    """The finished votes kept in the observation, oldest first."""
    if w.votes is not None:
        return w.votes
    v = w.vector
    n = w.n
    block = v[_HIST_VOTE.start : _HIST_VOTE.stop].reshape(VOTE_HISTORY, VOTE_FEATURES)
    out = []
    for row in block.tolist():
        if row[VoteRow.PRESENT] < 0.5:
            continue
        r = Vote()
        r.kind = _argmax(row, VoteRow.KIND, 2)
        r.proposer = _argmax(row, VoteRow.PROPOSER, SEATS)
        r.accused = _argmax(row, VoteRow.ACCUSED, SEATS)
        r.yes = [x > 0.5 for x in row[VoteRow.YES : VoteRow.YES + n]]
        r.no = [x > 0.5 for x in row[VoteRow.NO : VoteRow.NO + n]]
        r.passed = row[VoteRow.PASSED] > 0.5
        r.revealed = _argmax(row, VoteRow.REVEALED, 2)
        r.hour = int(row[VoteRow.HOUR] * MIDNIGHT + 0.5)
        out.append(r)
    w.votes = out
    return out


def history_key(obs: np.ndarray) -> bytes:
    """Bytes of every piece the beliefs read from the past (changes a few times a game)."""
    return obs[_HIST_INC.start : SEAT_LAYOUT["history.reading"].stop].tobytes()
