"""The trained bots shipped with rlyeh-env (package data, installed as `rlyeh_env.checkpoints`).

See README.md in this folder for the recipe and evaluation; `rlyeh_env.policy.shipped_checkpoint()`
finds the files.
"""
