"""The package stands on its own: `rlyeh_env` imports nothing from `training`, the package list
in pyproject.toml is complete, and a wheel built from the tree seats the shipped bot with no
source checkout in sight."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rlyeh_env"


def _imported_modules(path: Path) -> set[str]:
    """Absolute module names a file imports (relative imports resolved against its package)."""
    return _imports_of(path.read_text(), ".".join(path.relative_to(ROOT).parts[:-1]))


def _imports_of(source: str, package: str) -> set[str]:
    tree = ast.parse(source)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.add(".".join(base + ([node.module] if node.module else [])))
            else:
                names.add(node.module)
    return names


def test_the_env_package_never_imports_the_trainer():
    offenders = {
        str(path.relative_to(ROOT)): sorted(name for name in _imported_modules(path) if name.split(".")[0] == "training")
        for path in PACKAGE.rglob("*.py")
    }
    offenders = {path: names for path, names in offenders.items() if names}
    assert not offenders, f"rlyeh_env must not import training: {offenders}"


def test_the_import_check_sees_every_spelling_of_an_import():
    """The check above can fail: absolute, relative and from-imports are all resolved."""
    source = "import training.trainer\nfrom ...training import config\nfrom .. import table\nfrom .seats import X\n"
    names = _imports_of(source, "rlyeh_env.terminal")
    assert {"training.trainer", "training", "rlyeh_env", "rlyeh_env.terminal.seats"} <= names


def test_engine_imports_neither_pettingzoo_nor_torch():
    for path in (PACKAGE / "engine").rglob("*.py"):
        roots = {name.split(".")[0] for name in _imported_modules(path)}
        assert not roots & {"pettingzoo", "torch", "gymnasium", "training"}, path


def test_pyproject_lists_every_package_folder():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("rlyeh_env/**/__init__.py")}
    found |= {".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("training/**/__init__.py")}
    found.add("rlyeh_env.checkpoints")
    assert listed == found, f"pyproject.toml packages: missing {sorted(found - listed)}, extra {sorted(listed - found)}"
    assert config["package-dir"] == {"rlyeh_env.checkpoints": "checkpoints"}


def test_the_env_package_seats_a_checkpoint_without_the_trainer():
    """With `training` made unimportable, the terminal seats and the tournament still play the
    shipped bots."""
    code = (
        "import sys; sys.modules['training'] = None\n"
        "from rlyeh_env.engine import GameConfig\n"
        "from rlyeh_env.terminal.seats import BotSeats\n"
        "from rlyeh_env.table import Table\n"
        "from rlyeh_env.tournament import tournament\n"
        "config = GameConfig(num_players=5)\n"
        "table, seats = Table(config, 3), BotSeats(config, {s: 'checkpoint' for s in range(5)}, seed=3)\n"
        "while not table.over: table.step(seats.act(table, table.decider))\n"
        "[result] = tournament([('checkpoint', 'heuristic')], [5], 2, progress=False)\n"
        "print('played', result.games)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "played 2" in done.stdout


def test_a_wheel_seats_the_shipped_bot(tmp_path):
    """Build a wheel from a copy of the tree, install it into a folder, and from outside any source
    checkout find the shipped checkpoint through importlib.resources and play a game with it."""
    source = tmp_path / "src"
    for name in ("rlyeh_env", "training", "checkpoints"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stderr
    [wheel] = wheels.glob("rlyeh_env-*.whl")
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(site), str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    shutil.rmtree(source)  # nothing of the tree is left to fall back on
    code = (
        "import rlyeh_env, numpy as np\n"
        "from rlyeh_env.policy import PolicyBot, shipped_checkpoint\n"
        "from rlyeh_env.table import Table\n"
        "from rlyeh_env.engine import GameConfig\n"
        "print(rlyeh_env.__file__); print(shipped_checkpoint())\n"
        "bot = PolicyBot.from_checkpoint(greedy=True)\n"
        "table = Table(GameConfig(num_players=5), 11)\n"
        "while not table.over: table.step(bot.act(table.observation(table.decider), table.action_mask()))\n"
        "print('finished', table.investigators_won in (True, False))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    module_file, checkpoint, finished = done.stdout.splitlines()
    assert module_file.startswith(str(site)) and checkpoint.startswith(str(site))
    from rlyeh_env.checkpoints import DEFAULT_VERSION

    assert checkpoint.endswith(f"rlyeh_{DEFAULT_VERSION}.pt") and finished == "finished True"


@pytest.mark.parametrize("version", ["v9", ""])
def test_an_unknown_shipped_version_is_refused(version):
    from rlyeh_env.policy.shipped import shipped_checkpoint

    from rlyeh_env.checkpoints import VERSIONS

    with pytest.raises(ValueError, match=f"the shipped ones are {', '.join(VERSIONS)}"):
        shipped_checkpoint(version)


def test_every_shipped_version_is_a_player_name_that_finds_its_file():
    from rlyeh_env.checkpoints import DEFAULT_VERSION, VERSIONS
    from rlyeh_env.players import check_player, checkpoint_file, parse_lineup
    from rlyeh_env.policy.shipped import shipped_checkpoint

    assert DEFAULT_VERSION == VERSIONS[-1], "checkpoint stands for the newest shipped bots"
    assert checkpoint_file("checkpoint") == shipped_checkpoint(DEFAULT_VERSION)
    for version in VERSIONS:
        assert check_player(version) == version
        assert checkpoint_file(version) == shipped_checkpoint(version)
        assert checkpoint_file(version).name == f"rlyeh_{version}.pt" and checkpoint_file(version).is_file()
    assert parse_lineup(f"checkpoint,{VERSIONS[0]}") == ("checkpoint", VERSIONS[0])
