"""No leak through the browser table: whole games played through the server, several people at
each, and every message each seat received is exactly that seat's projection at that step
(tests/env/test_seat_view.py shows a projection does not change when anything the seat cannot
know changes) with the truth only once the game is over."""

from __future__ import annotations

import json
import random

import pytest

from web_testkit import create_table, join, link_secret, room_of, running_server

from rlyeh_env.replays import Frames, load_replay
from rlyeh_env.seat_view import project_seat
from rlyeh_env.web.truth import truth_dict

VIEW_KEYS = {"type", "table", "step", "seats", "view", "result"}

TABLES = [
    (["human", "heuristic", "human", "random"], {}),
    (["heuristic", "human", "random", "human", "human"], {"extra_gods": True}),
    (["human", "human", "heuristic", "heuristic", "random", "human", "heuristic"], {"hidden_cultists": True}),
    (["human"] * 8, {}),
]


def _play(client, table: dict, rng: random.Random) -> dict[int, list[dict]]:
    """Play the whole game as every human seat, choosing at random; every message each received."""
    sockets, sessions, received = {}, [], {}
    try:
        for index, link in enumerate(table["links"]):
            seat, _ = link_secret(link)
            sockets[seat], session = join(client, table, index)
            sessions.append(session)
            received[seat] = []
        latest = {seat: None for seat in sockets}

        def read(seat: int) -> dict:
            message = sockets[seat].receive_json()
            received[seat].append(message)
            if message["type"] == "view":
                latest[seat] = message
            return message

        watcher = next(iter(sockets))  # follows the table: every seat is sent every change
        while True:
            message = read(watcher)
            if message["type"] != "view":
                continue
            if message["result"] is not None:
                break
            decider = message["view"]["board"]["decider"]
            if decider not in sockets:
                continue  # a bot's move: the next view follows
            while latest[decider] is None or latest[decider]["step"] != message["step"]:
                read(decider)
            choices = latest[decider]["view"]["choices"]
            assert choices, "the deciding seat is offered its choices"
            action = rng.choice(choices)["action"]
            sockets[decider].send_text(json.dumps({"type": "act", "action": action, "step": message["step"]}))
        for seat in sockets:  # the rest of every seat's messages, up to its result
            while latest[seat] is None or latest[seat]["result"] is None:
                read(seat)
    finally:
        for session in sessions:
            session.__exit__(None, None, None)
    return received


@pytest.mark.parametrize("seats, variants", TABLES, ids=[f"{len(s)}p" for s, _ in TABLES])
def test_every_message_a_seat_receives_is_its_own_projection(tmp_path, seats, variants):
    with running_server(tmp_path) as client:
        table = create_table(client, seats, seed=len(seats) * 11, **variants)
        received = _play(client, table, random.Random(len(seats)))
        room = room_of(client, table)
        assert room.over
    frames = Frames(load_replay(tmp_path / f"web_{table['table']}.json"))
    assert frames.last == len(room.table.game.actions)
    for seat, messages in received.items():
        views = [m for m in messages if m["type"] == "view"]
        assert views and all(m["type"] == "view" for m in messages), {m["type"] for m in messages}
        for message in views:
            assert set(message) == VIEW_KEYS
            state = frames.states[message["step"]]
            assert message["view"] == project_seat(state, seat).to_dict(), (seat, message["step"])
            if state.game_over:
                assert message["result"] == truth_dict(state)
            else:
                assert message["result"] is None, "the truth only once the game is over"
        assert views[-1]["result"] is not None
