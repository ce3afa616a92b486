"""The trained bots shipped with rlyeh-env (package data, installed as `rlyeh_env.checkpoints`).

See README.md in this folder for the recipe and evaluation; `rlyeh_env.policy.shipped_checkpoint()`
finds the files. This module names them and imports nothing, so that the player registry can
know the names without PyTorch.

Only bots trained under the engine's rules version are shipped: v0 (rules version 1) and v1-v3
(rules version 2) were retired when the rules changed (README.md in this folder, "History", says
where they live on).
"""

VERSIONS = ("v4", "v5")  # rlyeh_<version>.pt in this folder, oldest first
DEFAULT_VERSION = "v5"  # what `checkpoint` stands for at a seat or in a line-up
