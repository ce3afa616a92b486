"""The browser table's web app (FastAPI): pages, the lobby's API, one WebSocket per seat.

    GET  /                          the lobby (static/index.html)
    GET  /table/{id}                a seat's page; its join link carries seat and token in the fragment
    GET  /watch/{id}                a table of bots, every secret shown, step by step
    GET  /replay/{id}               a finished game, everything revealed, step by step
    GET  /api/options               what the lobby may seat, the table sizes
    POST /api/tables                create a table (`NewTable`): its join links
    GET  /api/replay/{id}           a finished game's seats and number of steps
    GET  /api/replay/{id}/{step}    one step of it: what happened and the whole truth after it
    WS   /ws/table/{id}             a seat: `join` first, then `act`; receives `view` messages
    WS   /ws/watch/{id}             a watcher: `pause`, `resume`, `next`; receives `truth` messages

Every request's Host must be one of `allowed_hosts`, and a WebSocket's Origin (a browser always
sends one) must name one of them too, so a page of another site cannot drive a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from importlib.resources import files
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..players import SHIPPED, TABLE_SIZES
from ..replays import Frames, load_replay
from .protocol import SEAT_MESSAGES, WATCH_MESSAGES, Act, Join, NewTable, Next, Pause, error_text, parse
from .rooms import Refused, Room, Rooms, ServerSettings, TableLimitReached, seat_links
from .truth import truth_dict, truth_log

STATIC = Path(str(files("rlyeh_env.web") / "static"))
TABLE_ID = re.compile(r"[0-9a-f]{16}")
JOIN_SECONDS = 30.0  # a seat's connection must say who it is within this
DEFAULT_HOSTS = ("127.0.0.1", "localhost")
# Application close codes: the page shows the reason and does not retry these.
UNKNOWN_TABLE, WRONG_TOKEN, BAD_ORIGIN = 4404, 4401, 4403
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def create_app(settings: ServerSettings | None = None, allowed_hosts: tuple[str, ...] = DEFAULT_HOSTS) -> FastAPI:
    settings = settings or ServerSettings()
    rooms = Rooms(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        sweeper = asyncio.create_task(_sweep(rooms))
        if SHIPPED in settings.lobby_seats:
            await rooms.warm_up()
        try:
            yield
        finally:
            sweeper.cancel()
            await rooms.close_all()

    app = FastAPI(title="The Gate of R'lyeh", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.rooms = rooms
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.update(HEADERS)
        return response

    # -- pages ---------------------------------------------------------------------------------

    @app.get("/")
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/table/{table_id}")
    @app.get("/watch/{table_id}")
    @app.get("/replay/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        _check_id(table_id)
        return FileResponse(STATIC / "table.html")

    # -- the lobby -----------------------------------------------------------------------------

    @app.get("/api/options")
    async def options() -> dict:
        return {"seats": list(settings.lobby_seats), "sizes": list(TABLE_SIZES), "default_bot": SHIPPED,
                "bot_delay": settings.bot_delay}

    @app.post("/api/tables", status_code=201)
    async def new_table(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(415, "send the table as JSON (Content-Type: application/json)")
        body = await request.body()
        try:
            asked = NewTable.model_validate_json(body, context={"seats": settings.lobby_seats})
        except ValidationError as err:
            return _error(422, error_text(err))
        try:
            room = rooms.create(asked)
        except TableLimitReached as err:
            return _error(503, str(err))
        except ValueError as err:  # a checkpoint that cannot be loaded
            return _error(422, str(err))
        return JSONResponse(status_code=201, content={
            "table": room.table_id, "seats": room.names, "links": seat_links(room),
            "watch": f"/watch/{room.table_id}" if room.watchable else None,
            "replay": f"/replay/{room.table_id}",
        })

    # -- replays -------------------------------------------------------------------------------

    frames_cache: dict[str, tuple[int, Frames, list]] = {}

    def frames_of(table_id: str) -> tuple[Frames, list]:
        _check_id(table_id)
        room = rooms.get(table_id)
        if room is not None and not room.over:
            raise HTTPException(409, "the game is under way: its replay opens when it ends")
        path = settings.replays / f"web_{table_id}.json"
        try:
            stamp = path.stat().st_mtime_ns
        except FileNotFoundError:
            raise HTTPException(404, f"no game {table_id} was saved here") from None
        cached = frames_cache.get(table_id)
        if cached is None or cached[0] != stamp:
            try:
                replay = load_replay(path)
            except ValueError as err:
                raise HTTPException(422, str(err)) from None
            if not replay.finished:
                raise HTTPException(409, "this game was left unfinished: only finished games are shown with "
                                         "every secret (rlyeh replay shows it in the terminal)")
            if len(frames_cache) >= 8:
                frames_cache.pop(next(iter(frames_cache)))
            cached = frames_cache[table_id] = (stamp, Frames(replay), replay.seats)
        return cached[1], cached[2]

    @app.get("/api/replay/{table_id}")
    async def replay_summary(table_id: str) -> dict:
        frames, seats = frames_of(table_id)
        return {"table": table_id, "seats": seats, "steps": frames.last}

    @app.get("/api/replay/{table_id}/{step}")
    async def replay_step(table_id: str, step: int) -> dict:
        frames, seats = frames_of(table_id)
        if not 0 <= step <= frames.last:
            raise HTTPException(404, f"step {step} is not in this game (0 to {frames.last})")
        return {"table": table_id, "seats": seats, "step": step, "steps": frames.last,
                "title": frames.title(step), "log": truth_log(frames.events(step)),
                "truth": truth_dict(frames.states[step])}

    # -- seats -----------------------------------------------------------------------------------

    async def open_socket(websocket: WebSocket, table_id: str) -> Room | None:
        """Accept a WebSocket from an allowed origin for an open table: its room, or None once
        the socket is refused."""
        if not _origin_allowed(websocket, allowed_hosts):
            await websocket.close(BAD_ORIGIN)
            return None
        await websocket.accept()
        room = rooms.get(table_id) if TABLE_ID.fullmatch(table_id) else None
        if room is None:
            await _refuse(websocket, UNKNOWN_TABLE, "there is no such table (closed, or the link is wrong)")
        return room

    @app.websocket("/ws/table/{table_id}")
    async def seat_socket(websocket: WebSocket, table_id: str) -> None:
        room = await open_socket(websocket, table_id)
        if room is None:
            return
        try:
            text = await asyncio.wait_for(websocket.receive_text(), JOIN_SECONDS)
            join = parse(SEAT_MESSAGES, text)
        except (asyncio.TimeoutError, ValueError, KeyError) as err:
            why = "no join message" if isinstance(err, asyncio.TimeoutError) else str(err)
            await _refuse(websocket, WRONG_TOKEN, f"the first message must be a join: {why}")
            return
        except WebSocketDisconnect:
            return
        if not isinstance(join, Join):
            await _refuse(websocket, WRONG_TOKEN, f"the first message must be a join, got {join.type}")
            return
        if not room.check_token(join.seat, join.token):
            await _refuse(websocket, WRONG_TOKEN, "this link does not open a seat at this table")
            return
        seat = join.seat
        await room.attach(seat, websocket)
        try:
            while True:
                text = await websocket.receive_text()
                room.touch()
                try:
                    message = parse(SEAT_MESSAGES, text)
                    if not isinstance(message, Act):
                        raise Refused("already joined: send act messages")
                    await room.act(seat, message)
                except ValueError as err:  # malformed, out of turn, illegal: nothing changed
                    await websocket.send_json({"type": "error", "message": str(err)})
                    await websocket.send_json(room.seat_message(seat))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.detach(seat, websocket)

    @app.websocket("/ws/watch/{table_id}")
    async def watch_socket(websocket: WebSocket, table_id: str) -> None:
        room = await open_socket(websocket, table_id)
        if room is None:
            return
        try:
            await room.watch(websocket)
        except Refused as err:
            await _refuse(websocket, WRONG_TOKEN, str(err))
            return
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = parse(WATCH_MESSAGES, text)
                    if isinstance(message, Next):
                        await room.next_move()
                    else:
                        await room.set_paused(isinstance(message, Pause))
                except ValueError as err:
                    await websocket.send_json({"type": "error", "message": str(err)})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.watchers.discard(websocket)

    return app


def _check_id(table_id: str) -> None:
    if not TABLE_ID.fullmatch(table_id):
        raise HTTPException(404, "no such table: a table's id is 16 hexadecimal digits")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": message})


async def _refuse(websocket: WebSocket, code: int, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "message": message, "fatal": True})
        await websocket.close(code)


def _origin_allowed(websocket: WebSocket, allowed_hosts: tuple[str, ...]) -> bool:
    """A browser's WebSocket carries its page's Origin: it must be one of our hosts. Clients that
    are not browsers (the load script, the tests) send none, and no page can make them."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = urlsplit(origin).hostname or ""
    return "*" in allowed_hosts or host in allowed_hosts


async def _sweep(rooms: Rooms) -> None:
    """Close idle tables, checking a few times per idle period."""
    period = min(30.0, max(0.05, rooms.settings.idle_seconds / 4))
    while True:
        await asyncio.sleep(period)
        await rooms.close_idle()
