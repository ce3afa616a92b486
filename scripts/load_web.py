"""Load on the browser table, over loopback only: many tables at once through the WebSocket API.

Starts `rlyeh serve` on 127.0.0.1 (a free port, its own process, bot delay 0), creates the
tables through the lobby's API (bots in every seat but one) and plays each with a scripted client
in that seat, choosing at random among its legal choices, all tables at once. It reports the
message latency (from sending a move to the view after it) as percentiles, the server's memory
(resident set, sampled), and checks that nothing was dropped or crossed between tables: every
message names its own table and seat, every client's steps only go forward, every client sees
its result, and every table's saved replay is finished with the moves its client saw.

    python scripts/load_web.py [--tables 20] [--players 5] [--bots heuristic] [--seed 0]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory

from require_install import require_install

require_install()

import httpx  # noqa: E402
import psutil  # noqa: E402
import websockets  # noqa: E402

from rlyeh_env.arguments import ArgumentParser, at_least  # noqa: E402
from rlyeh_env.players import TABLE_SIZES  # noqa: E402
from rlyeh_env.replays import load_replay  # noqa: E402


@dataclass
class ClientRecord:
    table: str
    seat: int
    latencies: list[float] = field(default_factory=list)  # seconds, one per move
    messages: int = 0
    problems: list[str] = field(default_factory=list)
    final_step: int = -1
    won_result: bool = False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, replays: Path, max_tables: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "rlyeh_env.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--bot-delay", "0", "--max-tables", str(max_tables), "--replays", str(replays)]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


async def wait_until_up(base: str, server: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"the server stopped: {server.stderr.read().decode()[-2000:]}")
            try:
                if (await http.get(f"{base}/api/options")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {seconds:.0f} s")


async def play_table(base: str, seats: list[str], seed: int, rng: random.Random) -> ClientRecord:
    async with httpx.AsyncClient() as http:
        response = await http.post(f"{base}/api/tables", json={"seats": seats, "seed": seed})
        response.raise_for_status()
    table = response.json()
    link = table["links"][0]
    fragment = dict(part.split("=", 1) for part in link["url"].split("#", 1)[1].split("&"))
    record = ClientRecord(table["table"], int(fragment["seat"]))
    ws_url = base.replace("http://", "ws://") + f"/ws/table/{record.table}"
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "seat": record.seat, "token": fragment["token"]}))
        last_step, sent_at = -1, None
        while True:
            message = json.loads(await ws.recv())
            record.messages += 1
            if message.get("type") != "view":
                record.problems.append(f"unexpected message {message}")
                continue
            if message["table"] != record.table or message["view"]["seat"] != record.seat:
                record.problems.append(f"a message of table {message['table']} seat {message['view']['seat']} crossed over")
            if message["step"] < last_step:
                record.problems.append(f"step went back from {last_step} to {message['step']}")
            if sent_at is not None and message["step"] > last_step:
                record.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            last_step = message["step"]
            if message["result"] is not None:
                record.final_step, record.won_result = last_step, True
                return record
            view = message["view"]
            if view["board"]["decider"] == record.seat and view["choices"]:
                action = rng.choice(view["choices"])["action"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "step": last_step}))


async def sample_memory(process: psutil.Process, peak: list[int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            peak[0] = max(peak[0], process.memory_info().rss)
        except psutil.Error:
            return
        await asyncio.sleep(0.05)


async def run_load(tables: int, players: int, bots: str, seed: int) -> dict:
    with TemporaryDirectory() as folder:
        replays = Path(folder)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(port, replays, max_tables=tables)
        try:
            await wait_until_up(base, server)
            process = psutil.Process(server.pid)
            idle_rss = process.memory_info().rss
            peak, stop = [idle_rss], asyncio.Event()
            sampler = asyncio.create_task(sample_memory(process, peak, stop))
            rng = random.Random(seed)
            started = time.perf_counter()
            records = await asyncio.gather(*(
                play_table(base, ["human"] + [bots] * (players - 1), seed * 1000 + t, random.Random(rng.random()))
                for t in range(tables)
            ))
            elapsed = time.perf_counter() - started
            stop.set()
            await sampler
            for record in records:
                replay = load_replay(replays / f"web_{record.table}.json")
                if not replay.finished or len(replay.game.actions) != record.final_step:
                    record.problems.append(f"its replay has {len(replay.game.actions)} moves, finished {replay.finished}; "
                                           f"the client saw step {record.final_step}")
        finally:
            server.terminate()
            server.wait(timeout=30)
            server.stderr.close()
    latencies = sorted(1000 * x for record in records for x in record.latencies)
    return {
        "tables": tables, "players": players, "bots": bots, "seconds": round(elapsed, 2),
        "moves": len(latencies), "messages": sum(r.messages for r in records),
        "latency_ms": {name: round(_percentile(latencies, q), 1) for name, q in
                       (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))},
        "server_rss_mb": {"idle": round(idle_rss / 2**20, 1), "peak": round(peak[0] / 2**20, 1)},
        "finished": sum(r.won_result for r in records),
        "problems": [f"table {r.table}: {p}" for r in records for p in r.problems],
    }


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if q >= 100:
        return values[-1]
    return statistics.quantiles(values, n=100, method="inclusive")[max(0, int(q) - 1)] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__, formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=at_least(1), default=20, help="tables played at once (default 20)")
    parser.add_argument("--players", type=int, choices=list(TABLE_SIZES), default=5, help="table size (default 5)")
    parser.add_argument("--bots", default="heuristic", choices=("heuristic", "random", "checkpoint"),
                        help="the bots in the other seats (default heuristic)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    report = asyncio.run(run_load(args.tables, args.players, args.bots, args.seed))
    latency = report["latency_ms"]
    print(f"{report['tables']} tables of {report['players']} ({report['bots']} bots, one scripted client each), "
          f"over loopback: {report['finished']}/{report['tables']} finished in {report['seconds']} s")
    print(f"  {report['moves']:,} moves, {report['messages']:,} messages received")
    print(f"  latency from a move to its view: p50 {latency['p50']} ms, p90 {latency['p90']} ms, "
          f"p99 {latency['p99']} ms, max {latency['max']} ms")
    print(f"  server memory (resident): {report['server_rss_mb']['idle']} MB idle, "
          f"{report['server_rss_mb']['peak']} MB at the peak")
    if report["problems"]:
        print(f"  {len(report['problems'])} problems:")
        for problem in report["problems"][:20]:
            print("   ", problem)
        return 1
    print("  nothing dropped, nothing crossed between tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())
