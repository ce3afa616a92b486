"""Versioned entry point, as PettingZoo names its environments: `from rlyeh_env import rlyeh_v2`."""

from .rlyeh import env, raw_env

__all__ = ["env", "raw_env"]
