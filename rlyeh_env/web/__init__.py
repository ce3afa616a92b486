"""The browser table: `rlyeh serve` seats people and the shipped bots at one game, each person in
their own browser seeing only their own seat.

One module per job: `protocol` (every message the server accepts, validated), `rooms` (the
tables: the game, its bots off the event loop, one connection per seat, replays, idle closing),
`truth` (the full truth as JSON, for the result screen, the watch mode and replays), `app` (the
FastAPI routes and WebSockets), `serve` (the command) and `static/` (the page: plain HTML, one
JS module, one stylesheet, no build step).

What a seat is sent is its projection (`rlyeh_env.seat_view.project_seat`, the terminal table's
and the env's `render_seat`), and the full truth once its game is over; nothing of `state()` or
another seat's view, the first message included. Needs the `web` extra (FastAPI, uvicorn).
"""
