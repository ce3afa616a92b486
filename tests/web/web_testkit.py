"""Shared pieces of the browser-table tests: a server app on a temporary replays folder, a test
client that speaks as a browser on 127.0.0.1, and helpers to join a seat and play."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the browser table needs the web extra: pip install -e '.[web]'")

from fastapi.testclient import TestClient  # noqa: E402

from rlyeh_env.web.app import create_app  # noqa: E402
from rlyeh_env.web.rooms import ServerSettings  # noqa: E402

HOST = "http://127.0.0.1"
WS = "ws://127.0.0.1"
HUMAN_FIRST = ["human", "heuristic", "heuristic", "random", "heuristic"]


@contextmanager
def running_server(tmp_path: Path, **settings):
    """A client of a fresh server (lifespan started: the idle sweeper runs, the end saves)."""
    app = create_app(ServerSettings(**{"bot_delay": 0.0, "replays": tmp_path, **settings}))
    with TestClient(app, base_url=HOST) as client:
        yield client


def create_table(client: TestClient, seats=HUMAN_FIRST, seed: int | None = 3, **options) -> dict:
    response = client.post("/api/tables", json={"seats": list(seats), "seed": seed, **options})
    assert response.status_code == 201, response.text
    return response.json()


def link_secret(link: dict) -> tuple[int, str]:
    """(seat, token) from a join link's fragment."""
    fragment = dict(part.split("=", 1) for part in link["url"].split("#", 1)[1].split("&"))
    return int(fragment["seat"]), fragment["token"]


def join(client: TestClient, table: dict, index: int = 0):
    """A connected seat: the WebSocket session after its join (its first view not yet read)."""
    seat, token = link_secret(table["links"][index])
    session = client.websocket_connect(f"{WS}/ws/table/{table['table']}")
    ws = session.__enter__()
    ws.send_text(json.dumps({"type": "join", "seat": seat, "token": token}))
    return ws, session


def room_of(client: TestClient, table: dict):
    return client.app.state.rooms.get(table["table"])


def read_until_deciding(ws, seat: int) -> dict:
    """Messages until one where `seat` decides or the game is over; that one."""
    while True:
        message = ws.receive_json()
        if message["type"] != "view":
            continue
        if message["result"] is not None or message["view"]["board"]["decider"] == seat:
            return message


def act(ws, message: dict, action: int | None = None) -> None:
    choice = action if action is not None else message["view"]["choices"][0]["action"]
    ws.send_text(json.dumps({"type": "act", "action": choice, "step": message["step"]}))
