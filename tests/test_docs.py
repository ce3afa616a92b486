"""The documents stay true: every rule is tested, the README example runs, the config table is complete."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from rlyeh_env.engine.config import GameConfig

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\bR\d+(?:\.\d+)+\b")


def _rule_ids_defined() -> set[str]:
    """Rule ids as defined in RULES.md: the bold ones at the start of a rule (`- **R5.3**`)."""
    return set(re.findall(r"\*\*(R\d+(?:\.\d+)+)\*\*", (ROOT / "RULES.md").read_text()))


def test_every_rule_in_rules_md_is_named_by_a_test():
    defined = _rule_ids_defined()
    assert len(defined) > 50, "RULES.md should number its rules like **R5.3**"
    named = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        named |= set(RULE_ID.findall(path.read_text()))
    missing = sorted(defined - named, key=lambda r: [int(x) for x in r[1:].split(".")])
    assert not missing, f"rules with no test naming them: {missing}"


def test_tests_name_only_rules_that_exist():
    defined = _rule_ids_defined()
    for path in (ROOT / "tests").rglob("test_*.py"):
        unknown = set(RULE_ID.findall(path.read_text())) - defined
        assert not unknown, f"{path.name} names rules RULES.md does not define: {sorted(unknown)}"


def test_rules_md_config_table_lists_every_field_with_its_default():
    text = (ROOT / "RULES.md").read_text()
    for f in dataclasses.fields(GameConfig):
        if not f.init:
            continue
        row = re.search(rf"^\s*\| `{f.name}` \| ([^|]+) \|", text, re.MULTILINE)
        assert row, f"RULES.md R13.4 has no row for {f.name}"
        assert row.group(1).strip() == str(f.default), (f.name, row.group(1), f.default)


def test_readme_example_runs():
    text = (ROOT / "README.md").read_text()
    example = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert example, "README.md should contain a python example"
    namespace: dict = {}
    exec(compile(example.group(1), "README example", "exec"), namespace)
    returns = namespace["returns"]
    assert sorted(returns) == [f"player_{i}" for i in range(5)]
    assert sorted(set(returns.values())) == [-1.0, 1.0]


def test_readme_starts_with_the_two_commands():
    lines = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()]
    commands = [line for line in lines if line.startswith("make ")]
    assert commands[:2] and commands[0].startswith("make play") and commands[1].startswith("make test")
