"""The browser table's server: every endpoint and message type, bad and out-of-turn input, wrong
tokens, reconnecting, watching, replays and closing idle tables."""

from __future__ import annotations

import json

import pytest

from web_testkit import HUMAN_FIRST, WS, act, create_table, join, link_secret, read_until_deciding, room_of, running_server

from rlyeh_env.engine.game import replay
from rlyeh_env.replays import load_replay
from rlyeh_env.seat_view import project_seat
from rlyeh_env.web.rooms import ServerSettings
from starlette.websockets import WebSocketDisconnect

BOTS = ["heuristic", "random", "heuristic", "checkpoint", "heuristic"]


# -- pages and the lobby -------------------------------------------------------------------------


def test_pages_are_served_with_a_strict_content_policy(tmp_path):
    with running_server(tmp_path) as client:
        for path in ("/", "/table/0123456789abcdef", "/watch/0123456789abcdef", "/replay/0123456789abcdef"):
            response = client.get(path)
            assert response.status_code == 200 and "text/html" in response.headers["content-type"], path
            assert "default-src 'self'" in response.headers["content-security-policy"]
            assert response.headers["x-content-type-options"] == "nosniff"
        assert client.get("/table/../../etc/passwd").status_code == 404
        assert client.get("/table/not-a-table").status_code == 404
        assert client.get("/static/app.js").status_code == 200


def test_a_host_that_is_not_allowed_is_refused(tmp_path):
    with running_server(tmp_path) as client:
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400
        assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_the_options_list_what_the_lobby_may_seat(tmp_path):
    with running_server(tmp_path, lobby_seats=("human", "heuristic")) as client:
        options = client.get("/api/options").json()
    assert options["seats"] == ["human", "heuristic"] and options["sizes"] == [4, 5, 6, 7, 8]


def test_a_new_table_gives_one_secret_link_per_human_seat_and_saves_at_once(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client, ["human", "heuristic", "human", "random"])
        assert [link["seat"] for link in table["links"]] == [0, 2]
        tokens = [link_secret(link)[1] for link in table["links"]]
        assert len(set(tokens)) == 2 and all(len(token) >= 32 for token in tokens)
        assert all(link["url"].startswith(f"/table/{table['table']}#seat=") for link in table["links"])
        assert table["watch"] is None, "a table with people at it cannot be watched"
        assert "seed" not in table, "the seed deals every hand: the lobby never shows it"
        saved = load_replay(tmp_path / f"web_{table['table']}.json")
        assert saved.seats == ["human", "heuristic", "human", "random"] and not saved.finished
        bots = create_table(client, BOTS)
        assert bots["links"] == [] and bots["watch"] == f"/watch/{bots['table']}"


@pytest.mark.parametrize("body, message", [
    ({"seats": ["human", "heuristic", "robot", "random"]}, "unknown seat 'robot'"),
    ({"seats": ["human", "heuristic", "/etc/passwd", "random"]}, "unknown seat '/etc/passwd'"),
    ({"seats": ["human", "heuristic", "random"]}, "at least 4 items"),
    ({"seats": ["human"] * 9}, "at most 8 items"),
    ({"seats": HUMAN_FIRST, "seed": -1}, "greater than or equal to 0"),
    ({"seats": HUMAN_FIRST, "seed": "7"}, "valid integer"),
    ({"seats": HUMAN_FIRST, "players": 5}, "Extra inputs are not permitted"),
    ({}, "seats: Field required"),
])
def test_a_bad_table_request_gets_a_message_and_creates_nothing(tmp_path, body, message):
    with running_server(tmp_path) as client:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422 and message in response.json()["detail"], response.text
        assert client.app.state.rooms.rooms == {} and list(tmp_path.iterdir()) == []


def test_a_table_request_must_be_json(tmp_path):
    with running_server(tmp_path) as client:
        assert client.post("/api/tables", content="seats=human", headers={"content-type": "text/plain"}).status_code == 415
        broken = client.post("/api/tables", content="{not json", headers={"content-type": "application/json"})
        assert broken.status_code == 422 and "JSON" in broken.json()["detail"]


def test_the_number_of_games_under_way_is_bounded(tmp_path):
    with running_server(tmp_path, max_tables=1) as client:
        first = create_table(client, BOTS)
        refused = client.post("/api/tables", json={"seats": HUMAN_FIRST})
        assert refused.status_code == 503 and "1 games under way (its limit)" in refused.json()["detail"]
        with client.websocket_connect(f"{WS}/ws/watch/{first['table']}") as watcher:  # watching starts the bots
            while not watcher.receive_json()["over"]:
                pass
        create_table(client)  # a finished game frees its place


# -- joining a seat --------------------------------------------------------------------------------


def _refusal(client, table_id: str, first_message: str) -> tuple[dict, int]:
    with client.websocket_connect(f"{WS}/ws/table/{table_id}") as ws:
        ws.send_text(first_message)
        reply = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return reply, closed.value.code


def test_a_wrong_token_or_seat_opens_nothing(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client, ["human", "heuristic", "human", "random"])
        seat, token = link_secret(table["links"][0])
        for join_message in (
            {"type": "join", "seat": seat, "token": token[:-1] + ("A" if token[-1] != "A" else "B")},
            {"type": "join", "seat": 2, "token": token},  # another seat's link
            {"type": "join", "seat": 1, "token": token},  # a bot's seat
            {"type": "join", "seat": 7, "token": token},  # no such seat at a 4-player table
        ):
            reply, code = _refusal(client, table["table"], json.dumps(join_message))
            assert reply == {"type": "error", "message": "this link does not open a seat at this table", "fatal": True}
            assert code == 4401
        assert room_of(client, table).seats == {}


@pytest.mark.parametrize("first, message", [
    ('{"type": "act", "action": 3, "step": 0}', "the first message must be a join"),
    ("not json at all", "Invalid JSON"),
    ('{"type": "join", "seat": 0}', "token: Field required"),
    ('{"type": "join", "seat": 0, "token": "x", "admin": true}', "admin: Extra inputs are not permitted"),
    ('{"type": "hello"}', "does not match any of the expected tags"),
    ("x" * 5000, "message too long"),
])
def test_a_first_message_that_is_not_a_join_is_refused(tmp_path, first, message):
    with running_server(tmp_path) as client:
        table = create_table(client)
        reply, code = _refusal(client, table["table"], first)
    assert message in reply["message"] and reply["fatal"] and code == 4401


def test_an_unknown_table_says_so(tmp_path):
    with running_server(tmp_path) as client:
        for table_id in ("0123456789abcdef", "nope"):
            with client.websocket_connect(f"{WS}/ws/table/{table_id}") as ws:
                reply = ws.receive_json()
                assert reply["fatal"] and "no such table" in reply["message"]


def test_a_page_of_another_site_cannot_open_a_seat(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        with pytest.raises(WebSocketDisconnect) as denied:  # the handshake is refused (HTTP 403 on a real server)
            with client.websocket_connect(f"{WS}/ws/table/{table['table']}", headers={"origin": "http://evil.example"}):
                pass
        assert denied.value.code == 4403
        ws, session = join(client, table)
        try:
            assert ws.receive_json()["type"] == "view"
        finally:
            session.__exit__(None, None, None)
        with client.websocket_connect(f"{WS}/ws/table/{table['table']}", headers={"origin": "http://localhost:8000"}) as ws:
            seat, token = link_secret(table["links"][0])
            ws.send_text(json.dumps({"type": "join", "seat": seat, "token": token}))
            assert ws.receive_json()["type"] == "view"


# -- playing ---------------------------------------------------------------------------------------


def test_the_first_view_is_the_seats_projection_and_nothing_else(tmp_path):
    with running_server(tmp_path, bot_delay=30.0) as client:  # the bots wait: the state stays put
        table = create_table(client, ["heuristic", "human", "random", "heuristic"])
        ws, session = join(client, table)
        try:
            message = ws.receive_json()
            room = room_of(client, table)
            assert set(message) == {"type", "table", "step", "seats", "view", "result"}
            assert message["view"] == project_seat(room.table.state, 1).to_dict()
            assert message["result"] is None and message["step"] == 0
        finally:
            session.__exit__(None, None, None)


def test_a_whole_game_is_played_by_acting_and_ends_with_the_truth(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        ws, session = join(client, table)
        try:
            moves = 0
            while (message := read_until_deciding(ws, 0))["result"] is None:
                act(ws, message)
                moves += 1
            room = room_of(client, table)
            result = message["result"]
            assert moves > 0 and room.over
            assert result["roles"] == [int(p.role) for p in room.table.state.players]
            assert len(result["incantations"]) == len(room.table.state.incantations)
        finally:
            session.__exit__(None, None, None)
        saved = load_replay(tmp_path / f"web_{table['table']}.json")
        assert saved.finished and saved.game.actions == room.table.game.actions


def test_out_of_turn_stale_illegal_and_malformed_moves_change_nothing(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        ws, session = join(client, table)
        try:
            message = read_until_deciding(ws, 0)
            room = room_of(client, table)
            step = message["step"]
            legal = [choice["action"] for choice in message["view"]["choices"]]
            illegal = next(a for a in range(200) if a not in legal)
            bad = [
                ({"type": "act", "action": illegal, "step": step}, f"action {illegal} is not one of your choices"),
                ({"type": "act", "action": legal[0], "step": step - 1}, f"the table is at step {step}"),
                ({"type": "act", "action": "1", "step": step}, "action: Input should be a valid integer"),
                ({"type": "act", "action": legal[0]}, "step: Field required"),
                ({"type": "act", "action": legal[0], "step": step, "seat": 2}, "seat: Extra inputs are not permitted"),
                ({"type": "join", "seat": 0, "token": "again"}, "already joined"),
            ]
            for sent, expected in bad:
                ws.send_text(json.dumps(sent))
                reply = ws.receive_json()
                assert reply["type"] == "error" and expected in reply["message"], (sent, reply)
                again = ws.receive_json()  # and the view, unchanged, to redraw from
                assert again["step"] == step and again["view"] == message["view"]
            assert len(room.table.game.actions) == step
            act(ws, message)
            assert ws.receive_json()["step"] == step + 1
        finally:
            session.__exit__(None, None, None)


def test_acting_when_another_seat_decides_is_refused(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client, ["human"] * 4)
        room = room_of(client, table)
        waiting = (room.table.decider + 1) % 4  # a person whose decision it is not
        ws, session = join(client, table, index=waiting)
        try:
            first = ws.receive_json()
            assert first["view"]["choices"] == []
            ws.send_text(json.dumps({"type": "act", "action": 0, "step": first["step"]}))
            reply = ws.receive_json()
            assert reply["type"] == "error" and f"player_{room.table.decider} decides now" in reply["message"]
            assert room.table.game.actions == []
        finally:
            session.__exit__(None, None, None)


def test_a_dropped_seat_reconnects_and_gets_its_whole_view_back(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        ws, session = join(client, table)
        message = read_until_deciding(ws, 0)
        act(ws, message)
        session.__exit__(None, None, None)  # the connection drops
        ws, session = join(client, table)
        try:
            back = ws.receive_json()
            room = room_of(client, table)
            assert back["step"] > message["step"] and back["view"]["log"][: len(message["view"]["log"])] == message["view"]["log"]
            # the bots may have moved on since the view was sent: rebuild the table at its step
            game = room.table.game
            at_step = replay(game.config, game.seed, game.actions[: back["step"]])
            assert back["view"] == project_seat(at_step.state, 0).to_dict()
        finally:
            session.__exit__(None, None, None)


def test_a_second_window_on_a_seat_replaces_the_first(tmp_path):
    with running_server(tmp_path, bot_delay=30.0) as client:
        table = create_table(client)
        first, first_session = join(client, table)
        first.receive_json()
        second, second_session = join(client, table)
        try:
            assert second.receive_json()["type"] == "view"
            assert first.receive_json() == {"type": "error", "message": "this seat was opened in another window"}
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive_json()
            assert closed.value.code == 4000
            assert room_of(client, table).seats[0] is not None
        finally:
            second_session.__exit__(None, None, None)
            first_session.__exit__(None, None, None)


# -- watching and replays --------------------------------------------------------------------------


def test_a_table_of_bots_is_watched_with_every_secret_and_the_bots_beliefs(tmp_path):
    with running_server(tmp_path, bot_delay=0.05) as client:
        table = create_table(client, BOTS)
        room = room_of(client, table)
        with client.websocket_connect(f"{WS}/ws/watch/{table['table']}") as watcher:
            first = watcher.receive_json()
            assert first["type"] == "truth" and first["truth"]["roles"] == [int(p.role) for p in room.table.state.players]
            assert first["truth"]["hands"] == [list(p.hand) for p in room.table.state.players]
            watcher.send_text('{"type": "pause"}')
            while not (message := watcher.receive_json())["paused"]:
                pass
            paused_at = message["step"]
            watcher.send_text('{"type": "next"}')
            stepped = watcher.receive_json()
            assert stepped["step"] == paused_at + 1 and stepped["paused"]
            assert set(stepped["truth"]["suspicions"]) == {"3"}, "the checkpoint bot's beliefs"
            watcher.send_text('{"type": "bogus"}')
            assert watcher.receive_json()["type"] == "error"
            watcher.send_text('{"type": "resume"}')
            while not (message := watcher.receive_json()).get("over"):
                pass
            assert room.over and message["log"] and message["truth"]["incantations"]
            watcher.send_text('{"type": "next"}')
            assert watcher.receive_json() == {"type": "error", "message": "the table is playing; pause it first"}


def test_a_table_with_people_at_it_cannot_be_watched(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        with client.websocket_connect(f"{WS}/ws/watch/{table['table']}") as watcher:
            reply = watcher.receive_json()
        assert reply["fatal"] and "cannot be watched" in reply["message"]


def test_a_replay_opens_only_once_the_game_is_over(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        assert client.get(f"/api/replay/{table['table']}").status_code == 409
        assert client.get("/api/replay/0123456789abcdef").status_code == 404
        assert client.get("/api/replay/..%2F..%2Fsecret").status_code == 404
        ws, session = join(client, table)
        try:
            while (message := read_until_deciding(ws, 0))["result"] is None:
                act(ws, message)
        finally:
            session.__exit__(None, None, None)
        summary = client.get(f"/api/replay/{table['table']}").json()
        room = room_of(client, table)
        assert summary["steps"] == len(room.table.game.actions) and summary["seats"] == HUMAN_FIRST
        last = client.get(f"/api/replay/{table['table']}/{summary['steps']}").json()
        assert last["truth"] == message["result"] and last["title"].startswith(f"step {summary['steps']}/")
        first = client.get(f"/api/replay/{table['table']}/0").json()
        assert first["title"] == f"step 0/{summary['steps']}: the deal" and first["truth"]["incantations"] == []
        assert client.get(f"/api/replay/{table['table']}/{summary['steps'] + 1}").status_code == 404


# -- closing ---------------------------------------------------------------------------------------


def test_an_idle_table_is_saved_and_closed(tmp_path):
    with running_server(tmp_path, bot_delay=30.0, idle_seconds=60.0) as client:
        table = create_table(client)
        ws, session = join(client, table)
        try:
            ws.receive_json()
            rooms = client.app.state.rooms
            room = room_of(client, table)
            closed = client.portal.call(rooms.close_idle, room.last_active + 30.0)
            assert closed == [] and rooms.get(table["table"]) is room
            closed = client.portal.call(rooms.close_idle, room.last_active + 61.0)
            assert closed == [table["table"]] and rooms.get(table["table"]) is None
            reply = ws.receive_json()
            assert reply["type"] == "closed" and "idle for 1 minutes" in reply["reason"]
            assert reply["replay"] == f"/replay/{table['table']}"
        finally:
            session.__exit__(None, None, None)
        assert load_replay(tmp_path / f"web_{table['table']}.json").seats == HUMAN_FIRST


def test_stopping_the_server_saves_every_game(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client)
        ws, session = join(client, table)
        act(ws, read_until_deciding(ws, 0))
        ws.receive_json()
        room = room_of(client, table)
        session.__exit__(None, None, None)
    saved = load_replay(tmp_path / f"web_{table['table']}.json")
    assert saved.game.actions == room.table.game.actions and len(saved.game.actions) > 0


def test_bad_server_settings_are_refused():
    for bad, message in (({"bot_delay": -1}, "bot delay"), ({"idle_seconds": 0}, "idle time"), ({"max_tables": 0}, "table limit")):
        with pytest.raises(ValueError, match=message):
            ServerSettings(**bad)


def test_the_server_answers_to_its_loopback_names_its_address_and_the_hosts_given():
    from rlyeh_env.web.serve import allowed_hosts

    assert allowed_hosts("127.0.0.1", []) == ("127.0.0.1", "localhost")
    assert allowed_hosts("10.0.0.5", []) == ("127.0.0.1", "localhost", "10.0.0.5")
    assert allowed_hosts("0.0.0.0", ["192.168.1.20"]) == ("127.0.0.1", "localhost", "192.168.1.20")


def test_a_bot_that_fails_tells_the_table_and_the_game_is_kept(tmp_path):
    with running_server(tmp_path) as client:
        table = create_table(client, ["heuristic", "human", "random", "heuristic"])
        room = room_of(client, table)

        def broken(*_):
            raise RuntimeError("policy exploded")

        room.bots.act = broken
        ws, session = join(client, table)
        try:
            assert ws.receive_json()["type"] == "view"
            assert room.table.decider != 1, "seed 3 deals a bot the first decision"
            reply = ws.receive_json()
            assert reply["type"] == "error" and "a bot failed" in reply["message"] and "policy exploded" in reply["message"]
            assert room.failed and room.table.game.actions == []
        finally:
            session.__exit__(None, None, None)
        assert load_replay(tmp_path / f"web_{table['table']}.json").game.actions == []
