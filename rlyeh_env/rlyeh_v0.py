"""The retired first version: it played rules version 1, which this package no longer plays.

PettingZoo raises the version in an environment's name whenever a change can change what an agent
learns; `rlyeh_v1` is the game of RULES.md today (the rules versions: RULES.md, section 14).
"""


def __getattr__(name: str):
    raise ImportError(
        f"rlyeh_v0.{name}: rlyeh_v0 is retired (it played rules version 1); "
        "use `from rlyeh_env import rlyeh_v1` (RULES.md, section 14 says what changed)"
    )
