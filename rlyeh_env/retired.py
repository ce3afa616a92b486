"""What a retired version's module raises: PettingZoo's habit, the old name fails with the one to use.

PettingZoo raises the version in an environment's name whenever a change can change what an agent
learns; `rlyeh_env.rlyeh.ENV_NAME` is the game of RULES.md today (the rules versions: RULES.md,
section 14).
"""

from .rlyeh import ENV_NAME


def retired(module: str, rules_version: int):
    """A module `__getattr__` that refuses every name of `module`, which played `rules_version`."""

    def refuse(name: str):
        raise ImportError(
            f"{module}.{name}: {module} is retired (it played rules version {rules_version}); "
            f"use `from rlyeh_env import {ENV_NAME}` (RULES.md, section 14 says what changed)"
        )

    return refuse
