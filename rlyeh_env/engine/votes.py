"""Votes: accusations and Necronomicon proposals.

Who votes: every player except the accused and revealed cultists. The proposer's own vote is Yes.
Votes are asked clockwise from the proposer's left; nobody sees a vote until all are cast.
A vote passes on a strict majority of Yes among those who vote (a tie fails).
"""

from __future__ import annotations

import random

from .cards import Insanity, Phobia, Role, VoteKind
from .clock import advance_clock
from .sanity import holds, strike_phobia
from .state import Event, PendingVote, Phase, State, VoteRecord

# Enum members read on most votes, looked up once: reading a member off its class is slow.
_CATATONIA, _PARANOIA, _ACCUSATION, _VOTE = Insanity.CATATONIA, Insanity.PARANOIA, VoteKind.ACCUSATION, Phase.VOTE


def eligible_voters(state: State, accused: int) -> list[int]:
    return [
        seat
        for seat, player in enumerate(state.players)
        if seat != accused and not (player.revealed and player.role == Role.CULTIST)
    ]


def start_vote(
    state: State, kind: VoteKind, proposer: int, accused: int, rng: random.Random
) -> VoteRecord | None:
    """Open a vote; returns its record at once when nobody needs to be asked."""
    n = state.num_players
    voters = set(eligible_voters(state, accused))
    votes = [0] * n
    votes[proposer] = 1
    to_ask = []
    for offset in range(1, n):
        seat = (proposer + offset) % n
        if seat not in voters:
            continue
        player = state.players[seat]
        if holds(player, _CATATONIA):
            votes[seat] = -1
        elif holds(player, _PARANOIA):
            votes[seat] = 1
        else:
            to_ask.append(seat)
    state.pending.vote = PendingVote(int(kind), proposer, accused, to_ask, votes)
    if kind == _ACCUSATION:
        state.events.append(Event("accused", actor=proposer, target=accused, hour=state.hour))
        strike_phobia(state, [accused], Phobia.SUSPICION, rng)
    else:
        state.events.append(Event("proposed_necronomicon", actor=proposer, hour=state.hour))
    return _ask_next(state, rng)


def cast_vote(state: State, yes: bool, rng: random.Random) -> VoteRecord | None:
    """Record the deciding seat's vote; returns the record once the last vote is in."""
    vote = state.pending.vote
    seat = vote.to_ask.pop(0)
    vote.votes[seat] = 1 if yes else -1
    return _ask_next(state, rng)


def _ask_next(state: State, rng: random.Random) -> VoteRecord | None:
    vote = state.pending.vote
    if vote.to_ask:
        state.phase = _VOTE
        state.decider = vote.to_ask[0]
        return None
    return _finish(state, rng)


def _finish(state: State, rng: random.Random) -> VoteRecord:
    vote = state.pending.vote
    state.pending.vote = None
    yes_voters = [s for s, v in enumerate(vote.votes) if v == 1]
    cast = len(vote.votes) - vote.votes.count(0)
    passed = 2 * len(yes_voters) > cast
    for seat, v in enumerate(vote.votes):
        if v:
            state.events.append(Event("voted", actor=seat, value=int(v == 1), hour=state.hour))
    revealed_role = -1
    if vote.kind == _ACCUSATION and passed:
        accused = state.players[vote.accused]
        accused.revealed = True
        revealed_role = accused.role
        for player in state.players:
            player.memory.known_roles[vote.accused] = accused.role
    record = VoteRecord(vote.kind, vote.proposer, vote.accused, vote.votes, passed, revealed_role, state.hour)
    state.votes.append(record)
    state.events.append(
        Event("vote_result", actor=vote.proposer, target=vote.accused, value=int(passed), hour=state.hour)
    )
    if not passed:
        strike_phobia(state, yes_voters, Phobia.DISSENT, rng)
        return record
    if vote.kind == VoteKind.NECRONOMICON:
        return record
    state.events.append(Event("role_revealed", target=vote.accused, value=revealed_role, hour=state.hour))
    if revealed_role == Role.INVESTIGATOR:
        strike_phobia(state, yes_voters, Phobia.GUILT, rng)
        advance_clock(state, state.config.wrong_accusation_hours)
    else:
        strike_phobia(state, range(state.num_players), Phobia.WITNESS, rng)
    return record
