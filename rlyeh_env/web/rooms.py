"""The tables a browser server holds: one `Room` per game, `Rooms` for all of them.

A room owns its game (a `Table`, with an encoder of its own), its bots (`BotSeats`: each decides
from its own seat's observation) and one connection per human seat. It sends each seat only
that seat's projection (`project_seat`), and the full truth (`truth_dict`) only once the game is
over, or to watchers of a table with no human seat.

Bots decide on one worker thread shared by every room (a policy forward is CPU work; the event
loop stays free for messages) after `bot_delay` seconds, so people can follow the play. A
connection is anything with `async send_json(dict)` and `async close(code)`, a Starlette
`WebSocket` in the server, a recorder in the tests.

The game is saved as a replay (`rlyeh_env.replays`, the terminal's format) after every human move,
at the end, and when the room closes: a table idle for `idle_seconds` (no human message and no
move) is closed, and so is every table when the server stops.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..engine.config import GameConfig
from ..narration import player_name
from ..observation import IncrementalEncoder
from ..players import SHIPPED, PolicyCache
from ..replays import save_replay
from ..seat_view import project_seat
from ..table import Table
from ..terminal.seats import BotSeats
from .protocol import HUMAN, LOBBY_SEATS, Act, NewTable
from .truth import truth_dict, truth_log


LOG = logging.getLogger("rlyeh.serve")


class Connection(Protocol):
    async def send_json(self, data: dict) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


class Refused(ValueError):
    """A message the room will not act on; its text goes back to the sender."""


class TableLimitReached(RuntimeError):
    pass


# WebSocket close codes (the 4000s are the application's own)
CLOSED_NORMALLY = 1000
REPLACED = 4000  # the seat was opened in another tab
TABLE_CLOSED = 4001  # idle, or the server stopping


@dataclass(frozen=True)
class ServerSettings:
    bot_delay: float = 0.6  # seconds before each bot move
    idle_seconds: float = 1800.0  # a table nobody moved at for this long is saved and closed
    max_tables: int = 20  # games under way at once
    replays: Path = Path("replays")
    lobby_seats: tuple[str, ...] = LOBBY_SEATS  # what the lobby may seat

    def __post_init__(self):
        checks = [
            (self.bot_delay >= 0, f"the bot delay must be 0 or more seconds, got {self.bot_delay}"),
            (self.idle_seconds > 0, f"the idle time must be above 0 seconds, got {self.idle_seconds}"),
            (self.max_tables >= 1, f"the table limit must be at least 1, got {self.max_tables}"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)


@dataclass(eq=False)
class Room:
    table_id: str
    request: NewTable
    settings: ServerSettings
    executor: ThreadPoolExecutor
    cache: PolicyCache | None = None  # checkpoints loaded once for every table
    seed: int = -1
    tokens: dict[int, str] = field(default_factory=dict)
    seats: dict[int, Connection] = field(default_factory=dict)  # human seat -> its open connection
    watchers: set = field(default_factory=set)
    paused: bool = False  # watch mode: the bots wait for `next` or `resume`
    closed: bool = False
    failed: str = ""  # why the bots stopped, when one raised (a bug)

    def __post_init__(self):
        request = self.request
        self.seed = request.seed if request.seed is not None else random.SystemRandom().randrange(1 << 31)
        config = GameConfig(num_players=len(request.seats), extra_gods=request.extra_gods,
                            hidden_cultist_count=request.hidden_cultists)
        # Its own encoder: the shared one is not for the bot thread and the event loop at once.
        self.table = Table(config, self.seed, encoder=IncrementalEncoder(config))
        bots = {seat: name for seat, name in enumerate(request.seats) if name != HUMAN}
        self.bots = BotSeats(config, bots, self.seed, greedy=not request.sample, cache=self.cache)
        self.tokens = {seat: secrets.token_urlsafe(24) for seat in request.humans}
        self.replay_path = self.settings.replays / f"web_{self.table_id}.json"
        self.last_active = time.monotonic()
        self._moving = asyncio.Lock()
        self._bot_task: asyncio.Task | None = None
        self._wake = asyncio.Event()  # watch mode: `next` or `resume`
        self._next_moves = 0  # watch mode: moves asked for by `next` while paused

    # -- who sits where --------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self.request.seats)

    @property
    def humans(self) -> list[int]:
        return self.request.humans

    @property
    def watchable(self) -> bool:
        """Only a table of bots shows its secrets while it plays: no seat there has any to keep."""
        return not self.humans

    @property
    def over(self) -> bool:
        return self.table.over

    @property
    def step(self) -> int:
        return len(self.table.game.actions)

    def touch(self) -> None:
        """Someone is at the table: it is not idle."""
        self.last_active = time.monotonic()

    def check_token(self, seat: int, token: str) -> bool:
        """Whether `token` is `seat`'s join secret (compared in constant time)."""
        expected = self.tokens.get(seat)
        # Compare against something even for a seat with no token, so timing says nothing of it.
        return hmac.compare_digest((expected or "-").encode(), token.encode()) and expected is not None

    # -- messages out ------------------------------------------------------------------------------

    def seat_message(self, seat: int) -> dict:
        """Everything seat `seat` is sent: its own projection, and the truth once the game is over."""
        state = self.table.state
        return {
            "type": "view", "table": self.table_id, "step": self.step, "seats": self.names,
            "view": project_seat(state, seat).to_dict(),
            "result": truth_dict(state) if state.game_over else None,
        }

    def watch_message(self) -> dict:
        if not self.watchable:
            raise Refused("a table with people at it cannot be watched: its secrets are theirs")
        state = self.table.state
        return {
            "type": "truth", "table": self.table_id, "step": self.step, "seats": self.names,
            "paused": self.paused, "over": state.game_over,
            "truth": truth_dict(state, self.bots.suspicions()),
            "log": truth_log(state.events),
        }

    async def _send(self, connection: Connection, message: dict) -> bool:
        try:
            await connection.send_json(message)
            return True
        except Exception:  # a connection gone mid-send: it reconnects and gets everything again
            return False

    async def broadcast(self) -> None:
        for seat, connection in list(self.seats.items()):
            if not await self._send(connection, self.seat_message(seat)):
                self.seats.pop(seat, None)
        if self.watchers:
            message = self.watch_message()
            for watcher in list(self.watchers):
                if not await self._send(watcher, message):
                    self.watchers.discard(watcher)

    # -- connections -------------------------------------------------------------------------------

    async def attach(self, seat: int, connection: Connection) -> None:
        """`seat`'s browser (re)connected: it replaces any older connection and gets its whole view."""
        old = self.seats.get(seat)
        self.seats[seat] = connection
        self.touch()
        if old is not None and old is not connection:
            await self._send(old, {"type": "error", "message": "this seat was opened in another window"})
            try:
                await old.close(REPLACED)
            except Exception:
                pass
        await connection.send_json(self.seat_message(seat))
        self.start_bots()

    def detach(self, seat: int, connection: Connection) -> None:
        if self.seats.get(seat) is connection:
            del self.seats[seat]

    async def watch(self, connection: Connection) -> None:
        message = self.watch_message()  # refuses a table with people at it
        self.watchers.add(connection)
        await connection.send_json(message)
        self.start_bots()

    # -- moves ---------------------------------------------------------------------------------------

    async def act(self, seat: int, message: Act) -> None:
        """Seat `seat`'s choice; `Refused`, with what was wrong, changes nothing."""
        async with self._moving:
            state = self.table.state
            if state.game_over:
                raise Refused("the game is over")
            if state.decider != seat:
                raise Refused(f"it is not your decision: {player_name(state.decider)} decides now")
            if message.step != self.step:
                raise Refused(f"that choice was for step {message.step}; the table is at step {self.step} "
                              "(your view is refreshed)")
            legal = self.table.legal_actions()
            if message.action not in legal:
                raise Refused(f"action {message.action} is not one of your choices ({', '.join(map(str, legal))})")
            self.table.step(message.action)
            self.touch()
            self.save()
        await self.broadcast()
        self.start_bots()

    def start_bots(self) -> None:
        """Let the bots play until a person must decide (or the game ends)."""
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._play_bots())
            self._bot_task.add_done_callback(self._report_failure)

    def _report_failure(self, task: asyncio.Task) -> None:
        """A bot that fails is a bug: log it, tell the table, and keep the game as it stands."""
        if task.cancelled() or task.exception() is None:
            return
        LOG.error("table %s: the bots stopped", self.table_id, exc_info=task.exception())
        self.failed = f"a bot failed ({task.exception()!r}); the game is saved as it stands"
        self.save()
        asyncio.get_running_loop().create_task(self._tell_everyone({"type": "error", "message": self.failed}))

    async def _tell_everyone(self, message: dict) -> None:
        for connection in [*self.seats.values(), *self.watchers]:
            await self._send(connection, message)

    async def _play_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed and not self.over and self.table.decider not in self.humans:
            if not self.paused and self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            while self.paused and not self._next_moves and not self.closed:
                self._wake.clear()
                await self._wake.wait()
            if self.closed:
                return
            if self.paused:
                self._next_moves -= 1
            async with self._moving:
                if self.closed or self.over:
                    return
                seat = self.table.decider
                action = await loop.run_in_executor(self.executor, self.bots.act, self.table, seat)
                self.table.step(action)
                self.touch()
                if self.over:
                    self.save()
            await self.broadcast()

    # -- watch mode ----------------------------------------------------------------------------------

    async def set_paused(self, paused: bool) -> None:
        async with self._moving:  # after a move under way: none follows the pause's message
            self.paused = paused
            self._next_moves = 0
            self._wake.set()
        await self.broadcast()
        self.start_bots()

    async def next_move(self) -> None:
        """One bot move while paused."""
        if not self.paused:
            raise Refused("the table is playing; pause it first")
        if self.over:
            raise Refused("the game is over")
        self._next_moves += 1
        self._wake.set()
        self.start_bots()

    # -- the end -------------------------------------------------------------------------------------

    def save(self) -> None:
        humans = self.humans
        save_replay(self.replay_path, self.table.game, self.names, humans[0] if humans else None)

    async def close(self, reason: str) -> None:
        """Save the game, tell every connection why, and close them."""
        if self.closed:
            return
        self.closed = True
        self._wake.set()
        if self._bot_task is not None:
            self._bot_task.cancel()
        self.save()
        await self._tell_everyone({"type": "closed", "reason": reason, "replay": f"/replay/{self.table_id}"})
        for connection in [*self.seats.values(), *self.watchers]:
            try:
                await connection.close(TABLE_CLOSED)
            except Exception:
                pass
        self.seats.clear()
        self.watchers.clear()


class Rooms:
    """Every open table of one server, at most `settings.max_tables` games under way at once."""

    def __init__(self, settings: ServerSettings):
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        # One thread for every bot decision: policies run off the event loop, one at a time (the
        # checkpoint bots use one torch thread each; two cores serve the loop and the bots).
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rlyeh-bots")
        self.cache = PolicyCache()

    async def warm_up(self) -> None:
        """Load the shipped bots before the first table asks for them (PyTorch's import and the
        file take seconds), off the event loop; without PyTorch only scripted bots can sit."""
        try:
            await asyncio.get_running_loop().run_in_executor(self.executor, self.cache.policies, SHIPPED)
        except ValueError as err:
            LOG.warning("the shipped bots cannot be seated: %s", err)

    def under_way(self) -> int:
        return sum(1 for room in self.rooms.values() if not room.over)

    def create(self, request: NewTable) -> Room:
        if self.under_way() >= self.settings.max_tables:
            raise TableLimitReached(
                f"the server already holds {self.settings.max_tables} games under way (its limit); "
                "try again when one ends"
            )
        table_id = secrets.token_hex(8)
        room = Room(table_id, request, self.settings, self.executor, self.cache)
        self.rooms[table_id] = room
        room.save()
        return room

    def get(self, table_id: str) -> Room | None:
        return self.rooms.get(table_id)

    async def close_idle(self, now: float | None = None) -> list[str]:
        """Close the tables idle for `idle_seconds`; their ids."""
        now = time.monotonic() if now is None else now
        idle = [tid for tid, room in self.rooms.items() if now - room.last_active >= self.settings.idle_seconds]
        for table_id in idle:
            room = self.rooms.pop(table_id)
            await room.close(f"the table was idle for {self.settings.idle_seconds / 60:g} minutes and is closed; "
                             "the game is saved")
        return idle

    async def close_all(self, reason: str = "the server is stopping; the game is saved") -> None:
        for table_id in list(self.rooms):
            await self.rooms.pop(table_id).close(reason)
        self.executor.shutdown(wait=True, cancel_futures=True)


def seat_links(room: Room) -> list[dict]:
    """One secret join link per human seat: the token rides in the URL fragment, which browsers
    never send to the server (so no access log sees it); the page sends it in its first message."""
    return [{"seat": seat, "name": player_name(seat), "url": f"/table/{room.table_id}#seat={seat}&token={token}"}
            for seat, token in sorted(room.tokens.items())]

