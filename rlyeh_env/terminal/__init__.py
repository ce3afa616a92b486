"""The game in the terminal: `rlyeh play` (you against bots), `rlyeh watch` (bots against bots,
with the full truth and the checkpoint bots' suspicions) and `rlyeh replay FILE` (a saved game,
step by step, forward and back).

One module per job: `seats` (what sits where), `views` (rich renderables of one seat's view and
of the truth), `screen` (colour on a terminal, plain text in a pipe), `glossary` (a line of rules
for every card), and one module per command. The replay files are `rlyeh_env.replays`, shared
with the browser table.
"""
