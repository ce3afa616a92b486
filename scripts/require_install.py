"""`require_install()`: stop a script with a one-line hint when the project is not installed.

The scripts import `rlyeh_env` and `training` as installed packages (`make venv` installs them
editable); from a Python without them they would end in a ModuleNotFoundError traceback. The
scripts import this file as a sibling module: Python puts a script's own folder on `sys.path`.
"""

import importlib.util
import sys

PACKAGES = ("rlyeh_env", "training")


def require_install() -> None:
    missing = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        sys.exit(f"{' and '.join(missing)} not installed in {sys.executable}: "
                 "run `make venv` and use .venv/bin/python, or `pip install -e .`")
