"""The Gate of R'lyeh as a PettingZoo AEC environment: `env()`, `raw_env()` (also as `rlyeh_v2`).

The spec (agents, spaces, every observation index range, the action encoding, rewards, version
history) is the docstring of the env module, `rlyeh_env/rlyeh.py`: `help(rlyeh_env.rlyeh)`.
"""

from .engine import GameConfig, IllegalActionError
from .rlyeh import env, raw_env

__all__ = ["GameConfig", "IllegalActionError", "env", "raw_env"]
__version__ = "0.2.0"
