"""`rlyeh serve` (and `make serve`): the browser table. Open the lobby it prints, create a table,
and send each person their seat's link; tables of bots only can be watched with every secret.

It listens on 127.0.0.1 unless told otherwise. To play over a local network, bind every interface
and name the address people will type, which is checked on every request:

    rlyeh serve --host 0.0.0.0 --allowed-host 192.168.1.20

Every game is saved in the replays folder as the terminal table's replays are (`rlyeh replay
FILE` reads them; `/replay/ID` shows a finished one in the browser).
"""

from __future__ import annotations

import argparse
import socket
import sys

from ..arguments import ArgumentParser, at_least, non_negative_float, output_folder, positive_float
from ..players import PolicyCache, check_player
from .protocol import LOBBY_SEATS
from .rooms import ServerSettings

WILDCARDS = ("0.0.0.0", "::", "")


def parse_args(argv: list[str] | None = None, prog: str | None = None) -> argparse.Namespace:
    parser = ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=at_least(1), default=8000, help="port (default 8000)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="HOST",
                        help="a host name or address browsers may reach the server by (repeatable; "
                             "localhost and 127.0.0.1 always)")
    parser.add_argument("--bot-delay", type=non_negative_float, default=0.6,
                        help="seconds before each bot move, so people can follow (default 0.6)")
    parser.add_argument("--idle-minutes", type=positive_float, default=30.0,
                        help="a table nobody moved at for this long is saved and closed (default 30)")
    parser.add_argument("--max-tables", type=at_least(1), default=20, help="games under way at once (default 20)")
    parser.add_argument("--replays", type=output_folder, default="replays", help="folder for the replays (default replays/)")
    parser.add_argument("--bot", action="append", default=[], type=check_player, metavar="FILE",
                        help="also offer this checkpoint file in the lobby's bot choices (repeatable)")
    return parser.parse_args(argv)


def allowed_hosts(host: str, extra: list[str]) -> tuple[str, ...]:
    """The Host names the server answers: this machine's loopback names, the address it is bound
    to, and the ones given."""
    hosts = ["127.0.0.1", "localhost", *extra]
    if host not in WILDCARDS:
        hosts.append(host)
    return tuple(dict.fromkeys(hosts))


def settings_from(args: argparse.Namespace) -> ServerSettings:
    cache = PolicyCache()
    for name in args.bot:  # a bad file fails now, not when a table seats it
        cache.policies(name)
    return ServerSettings(bot_delay=args.bot_delay, idle_seconds=60 * args.idle_minutes, max_tables=args.max_tables,
                          replays=args.replays, lobby_seats=LOBBY_SEATS + tuple(args.bot))


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    args = parse_args(argv, prog)
    try:
        import uvicorn

        from .app import create_app
    except ImportError as err:
        print(f"rlyeh serve needs the web extra: pip install -e '.[web]' ({err})", file=sys.stderr)
        return 2
    try:
        settings = settings_from(args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    hosts = allowed_hosts(args.host, args.allowed_host)
    shown = args.host if args.host not in WILDCARDS else (args.allowed_host or [socket.gethostname()])[0]
    print(f"The Gate of R'lyeh: http://{shown}:{args.port}/  (answers to {', '.join(hosts)}; Ctrl-C stops, "
          f"games are saved in {args.replays}/)", flush=True)
    if args.host in WILDCARDS and not args.allowed_host:
        print("note: listening on every interface but answering only to this machine's names: give "
              "--allowed-host with the address other machines will type", file=sys.stderr)
    uvicorn.run(create_app(settings, hosts), host=args.host, port=args.port, log_level="warning",
                ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20)
    return 0
