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


def _size_table_row(text: str, label: str) -> dict[int, int]:
    """A per-table-size row of RULES.md (R1.2, R2.4): `| Label | 1 | 1 | ... |` under a `| Players |`
    header, as {players: value}."""
    sizes = re.search(r"^\s*\| Players\s*\|([^\n]+)\|\s*$", text, re.MULTILINE)
    row = re.search(rf"^\s*\| {label}\s*\|([^\n]+)\|\s*$", text, re.MULTILINE)
    assert sizes and row, f"RULES.md has no per-size row {label!r}"
    return dict(zip((int(c) for c in sizes.group(1).split("|")), (int(c) for c in row.group(1).split("|"))))


def test_rules_md_rules_versions_table_names_todays_settings():
    """Section 14's rules-versions table has one row marked today: the engine's RULES_VERSION, and
    its cultists, start hours and hours back are the engine's per-size tables."""
    from rlyeh_env.engine.config import (
        DEFAULT_CULTISTS, DEFAULT_NECRONOMICON_HOURS_BACK, DEFAULT_START_HOUR, RULES_VERSION,
    )

    text = (ROOT / "RULES.md").read_text()
    today = re.findall(r"^\| (\d+) \(today\) \|([^\n]+)\|$", text, re.MULTILINE)
    assert [int(version) for version, _ in today] == [RULES_VERSION], today
    cultists, hours, back = ([int(v) for v in cell.split(",")] for cell in today[0][1].split("|")[:3])
    sizes = sorted(DEFAULT_CULTISTS)
    assert cultists == [DEFAULT_CULTISTS[n] for n in sizes]
    assert hours == [DEFAULT_START_HOUR[n] for n in sizes]
    assert back == [DEFAULT_NECRONOMICON_HOURS_BACK[n] for n in sizes]


def test_rules_md_per_size_settings_are_the_engine_defaults():
    """R1.2's cultists, R2.4's start hours, R5.5's thresholds, R9.6's hours back and section 14's
    table are the engine's per-size tables (rlyeh_env/engine/config.py), so a recalibration cannot change one
    and leave the other."""
    from rlyeh_env.engine.config import (
        DEFAULT_CULTISTS, DEFAULT_INCANTATION_THRESHOLD, DEFAULT_NECRONOMICON_HOURS_BACK, DEFAULT_START_HOUR,
    )

    text = (ROOT / "RULES.md").read_text()
    r12 = text[text.index("**R1.2**"):text.index("**R1.3**")]
    r24 = text[text.index("**R2.4**"):text.index("**R2.5**")]
    assert _size_table_row(r12, "Cultists") == DEFAULT_CULTISTS
    assert _size_table_row(r24, "Start hour") == DEFAULT_START_HOUR
    r96 = text[text.index("**R9.6**"):text.index("**R9.7**")]
    assert _size_table_row(r96, "Hours back") == DEFAULT_NECRONOMICON_HOURS_BACK
    usual = max(DEFAULT_INCANTATION_THRESHOLD.values())
    lowered = [n for n, threshold in DEFAULT_INCANTATION_THRESHOLD.items() if threshold != usual]
    r55 = " ".join(text[text.index("**R5.5**"):text.index("**R5.6**")].split())
    assert f"at least {usual}" in r55 and all(
        f"{DEFAULT_INCANTATION_THRESHOLD[n]} at a table of {n} players" in r55 for n in lowered), r55
    balance = text[text.index("## 14. Balance"):]
    rows = re.findall(r"^\| (\d) \| (\d) \| (\d+) \|", balance, re.MULTILINE)
    assert {int(n): (int(c), int(h)) for n, c, h in rows} == {
        n: (DEFAULT_CULTISTS[n], DEFAULT_START_HOUR[n]) for n in DEFAULT_CULTISTS}, rows
