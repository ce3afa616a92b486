"""Trained-policy inference: the network, checkpoint files, and `PolicyBot` (needs PyTorch).

    network.py      ActorCritic: policy trunk (+ optional GRU), action, belief and value heads
    checkpoint.py   checkpoint files: the format, atomic saving, loading with clear errors
    bot.py          PolicyBot: a checkpoint seated as a `rlyeh_env.bots.Bot`; load_policies
    shipped.py      where the shipped bots are (package data, works from a wheel)

This is the only part of `rlyeh_env` that imports torch (the `policy` extra; `play` and `train`
pull it in), and nothing here imports the trainer: `training/` builds on it, not the reverse.
"""

from .bot import PolicyBot, load_policies
from .checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from .network import ActorCritic
from .shipped import shipped_checkpoint

__all__ = [
    "ActorCritic", "CheckpointError", "PolicyBot", "load_checkpoint", "load_policies", "save_checkpoint",
    "shipped_checkpoint",
]
