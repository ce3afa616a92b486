"""Where the shipped bots are: `checkpoints/` of the source tree, installed as package data.

`pyproject.toml` maps the top-level `checkpoints/` folder to the package `rlyeh_env.checkpoints`,
so the same lookup works from a source checkout (an editable install) and from an installed
wheel, where no source tree exists (`tests/env/test_packaging.py` seats the shipped bot from a
wheel).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rlyeh_env.checkpoints import DEFAULT_VERSION
from rlyeh_env.checkpoints import VERSIONS as SHIPPED_VERSIONS


def shipped_checkpoint(version: str = DEFAULT_VERSION) -> Path:
    """The file of the shipped bots `rlyeh_<version>.pt`."""
    if version not in SHIPPED_VERSIONS:
        raise ValueError(f"no shipped checkpoint {version!r}: the shipped ones are {', '.join(SHIPPED_VERSIONS)}")
    # Package data of a regular (not zipped) install is a plain file; a Path serves torch.load.
    return Path(str(resources.files("rlyeh_env.checkpoints").joinpath(f"rlyeh_{version}.pt")))
