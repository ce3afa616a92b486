"""Checkpoint files: written atomically, checked on load with errors that say what is wrong.

A checkpoint is a `torch.save`d dict:

    format          CHECKPOINT_FORMAT
    kind            "training" (resumable: optimizers, opponent pool, generators) or "policy"
                    (the two policies only: what `checkpoints/` ships and a bot needs)
    env_version     rlyeh_env.__version__ when written
    layout          observation and action layout signature (`layout_signature()`)
    rules_version   the engine's RULES_VERSION when written (files before it: 1)
    args            the run's `Args` as a dict
    policies        {"INVESTIGATOR": {"spec": ..., "weights": ...}, "CULTIST": {...}}
    update, decisions, and for "training" files: optimizers, pool, rng, history

Loading uses `torch.load(weights_only=True)`: a checkpoint holds tensors and plain Python
values only, so a tampered file cannot run code.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import torch

from .. import __version__ as ENV_VERSION
from ..engine import config as rules_config
from ..engine.actions import NUM_ACTIONS
from ..files import atomic_write
from ..observation import SEAT_LAYOUT, TRUTH_LAYOUT

CHECKPOINT_FORMAT = 1
ROLE_KEYS = ("INVESTIGATOR", "CULTIST")


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used, with the reason."""


def layout_signature() -> dict:
    """What a policy's inputs and outputs mean: a digest of every observation piece's name and
    range, the sizes, and the number of actions."""
    pieces = ";".join(f"{p.name}:{p.start}-{p.stop}" for p in SEAT_LAYOUT.pieces.values())
    truth = ";".join(f"{p.name}:{p.start}-{p.stop}" for p in TRUTH_LAYOUT.pieces.values())
    return {
        "observation_size": SEAT_LAYOUT.size,
        "truth_size": SEAT_LAYOUT.size + TRUTH_LAYOUT.size,
        "num_actions": NUM_ACTIONS,
        "digest": hashlib.sha256(f"{pieces}|{truth}|{NUM_ACTIONS}".encode()).hexdigest()[:16],
    }


def save_checkpoint(path: str | os.PathLike, payload: dict) -> None:
    """Write `payload` with the format, env version and layout stamped in, atomically."""
    payload = {"format": CHECKPOINT_FORMAT, "env_version": ENV_VERSION, "layout": layout_signature(),
               "rules_version": rules_config.RULES_VERSION, **payload}
    atomic_write(path, lambda handle: torch.save(payload, handle))


def load_checkpoint(path: str | os.PathLike, kind: str | None = None, any_rules: bool = False) -> dict:
    """Read and check a checkpoint. Raises `CheckpointError` for a missing, unreadable, corrupt
    or foreign file, a format from another version, a layout that does not match this env, or
    (unless `any_rules`: weights to start training from, not a player) other rules."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint file at {path}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many kinds for a bad file; all mean the same here
        reason = (str(err).strip().splitlines() or [type(err).__name__])[0][:160]  # torch's are paragraphs
        raise CheckpointError(f"{path} is not a readable checkpoint (corrupt or truncated?): {reason}") from err
    if not isinstance(data, dict) or "format" not in data or not isinstance(data.get("policies"), dict):
        raise CheckpointError(f"{path} is not an rlyeh-env checkpoint (no format entry or no policies table)")
    if data["format"] != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{path} has checkpoint format {data['format']}; this version reads {CHECKPOINT_FORMAT}")
    expected = layout_signature()
    if data.get("layout") != expected:
        found = data.get("layout") if isinstance(data.get("layout"), dict) else {}
        differences = [
            f"{key}: file {found.get(key)!r}, env {value!r}" for key, value in expected.items() if found.get(key) != value
        ]
        raise CheckpointError(
            f"{path} was trained on another observation/action layout (env version "
            f"{data.get('env_version')}, this is {ENV_VERSION}): " + "; ".join(differences)
        )
    trained_under = data.get("rules_version", 1)
    if trained_under != rules_config.RULES_VERSION and not any_rules:
        raise CheckpointError(
            f"{path} was trained under rules version {trained_under} (env version {data.get('env_version')}); this "
            f"env plays rules version {rules_config.RULES_VERSION} (RULES.md, section 14 says what changed): "
            "retrain on these rules, or play it with the rlyeh-env version it came from"
        )
    if kind is not None and data.get("kind") != kind:
        raise CheckpointError(f"{path} is a {data.get('kind')!r} checkpoint; a {kind!r} one is needed")
    missing = [role for role in ROLE_KEYS if role not in data["policies"]]
    if missing:
        raise CheckpointError(f"{path} lacks the {', '.join(missing).lower()} policy")
    return data
