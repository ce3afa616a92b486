"""`training.train_cli`, the `train` command line parsed by tyro: every field has help text in
`--help`, every field round-trips through the command line, options apply on top of the preset or
the resumed run's saved settings (and a resumed run gets only the options given), bad values
exit 2 with the reason and no traceback, and every command line the docs show parses."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from training import train_cli
from training.commands import train_main
from training.config import Args, preset
from training.train_cli import Start, parse_train_command

ROOT = Path(__file__).resolve().parents[2]
FIELDS = dataclasses.fields(Args)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _shown(value) -> str:
    """A value as the command line spells it."""
    if isinstance(value, tuple):
        return " ".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def _shown_default(value) -> str:
    """A default as tyro's help shows it: an empty string as '', an empty tuple as nothing."""
    return _shown(value) or ("" if isinstance(value, tuple) else repr(""))


def _help_text(argv: list[str], capsys, monkeypatch) -> str:
    """`--help` on one line per option (wide terminal), box borders and runs of spaces removed."""
    monkeypatch.setenv("COLUMNS", "1000")
    with pytest.raises(SystemExit) as info:
        parse_train_command(argv + ["--help"], prog="train.py")
    assert info.value.code == 0
    text = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)
    return " ".join(text.replace("│", " ").split())


def _field_docstrings(cls) -> dict[str, str]:
    """The docstring under each field of `cls`, read from its source."""
    body = ast.parse(inspect.getsource(cls)).body[0].body
    return {
        field.target.id: doc.value.value
        for field, doc in zip(body, body[1:])
        if isinstance(field, ast.AnnAssign) and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
    }


def test_every_field_has_help_text(capsys, monkeypatch):
    """Every field has a docstring, and `--help` shows it under the field's --kebab-case option with
    the default that applies (the full preset's value when no --preset is given)."""
    docs = _field_docstrings(Args)
    text = _help_text([], capsys, monkeypatch)
    full = preset("full")
    for f in FIELDS:
        assert len(docs.get(f.name, "").strip()) >= 5, f"{f.name} has no docstring"
        assert "\n" not in docs[f.name], f"{f.name}: tyro would keep the docstring's line breaks in --help"
        assert re.search(rf"{_flag(f.name)} [^-(]+ {re.escape(docs[f.name])} \(default: "
                         rf"{re.escape(_shown_default(getattr(full, f.name)))}\)", text), f.name
    for name, doc in _field_docstrings(Start).items():
        assert _flag(name) in text and doc in text, name


def test_help_shows_the_presets_values(capsys, monkeypatch):
    """`--help` lists each preset's values; under `--preset smoke` the defaults shown are smoke's."""
    text = _help_text([], capsys, monkeypatch)
    assert "smoke: run_name smoke, total_decisions 6000" in text and "full: run_name full" in text
    assert "--total-decisions INT stop after" in text and "(default: 30000000)" in text
    smoke = _help_text(["--preset", "smoke"], capsys, monkeypatch)
    assert "(default: 6000)" in smoke and "(default: 30000000)" not in smoke


def _argv(args: Args) -> list[str]:
    """Every field of `args` as command-line options."""
    argv = []
    for f in FIELDS:
        value = getattr(args, f.name)
        argv += [_flag(f.name)] + (list(map(str, value)) if isinstance(value, tuple) else [_shown(value)])
    return argv


def _parse(argv: list[str]) -> Args:
    return parse_train_command(argv).args


# settings a field's non-default value needs beside it (an exploitability run plays its fixed opponents only)
COMPANIONS = {"opponents_from": dict(opponent_latest=0.0, opponent_heuristic=0.0, opponent_random=0.0),
              "learner_sides": dict(opponent_latest=0.0), "league_anchor_share": dict(league_anchors=("untrained",)),
              "imitation_accuse_at": dict(imitation_teacher="v4"), "pfsp_size_relative": dict(pfsp_by_size=True)}
# fields whose values the generic candidates below cannot guess
CANDIDATES = {"pfsp": ["hard"], "league_anchor_pfsp": ["hard"], "backend": ["ray"],
              "league_anchors": [("warm-start", "untrained", "v4")], "imitation_teacher": ["v4"]}


def _changed_value(f: dataclasses.Field):
    """A valid value of field `f` other than its default (the first candidate `Args` accepts)."""
    default = f.default
    if f.name in CANDIDATES:
        candidates = CANDIDATES[f.name]
    elif isinstance(default, bool):
        candidates = [not default]
    elif isinstance(default, int):
        candidates = [default + 1, default * 2, 1]
    elif isinstance(default, float):
        candidates = [default / 2, 0.1, 0.05, default + 0.5]
    elif isinstance(default, tuple):
        candidates = [default[:1] if len(default) > 1 else default + default, (7, 8),  # (7, 8): for ()
                      tuple(v / 2 if isinstance(v, float) else v for v in default)]  # halved: for (0.7,)
    else:
        candidates = [default + "-x" if default else "x"]
    for value in candidates:
        if value == default:
            continue
        try:
            return Args(**{**COMPANIONS.get(f.name, {}), f.name: value})
        except ValueError:
            continue
    raise AssertionError(f"no valid non-default value found for {f.name}")


@pytest.mark.parametrize("name", [f.name for f in FIELDS])
def test_command_line_round_trip_of_each_field(name):
    """Each field changed from its default, written (with all others) as options, read back identical."""
    changed = _changed_value(next(f for f in FIELDS if f.name == name))
    assert getattr(changed, name) != getattr(Args(), name)
    assert _parse(_argv(changed)) == changed
    assert _parse(["--preset", "smoke"] + _argv(changed)) == changed


def test_command_line_round_trip_of_many_changes_at_once():
    """Many fields changed together, as options, read back identical."""
    changed = Args(
        run_name="x", runs_dir="elsewhere", seed=7, total_decisions=123, threads=1, checkpoint_every=3,
        eval_every=0, eval_games=5, progress=False, table_sizes=(4, 6), sigil_reward=0.25, num_games=3,
        decisions_per_rollout=99, opponent_latest=0.5, opponent_heuristic=0.1, opponent_random=0.2, pool_size=3,
        snapshot_every=2, hidden=(32, 32), recurrent=True, sequence_length=8, central_critic=True, belief_coef=0.1,
        learning_rate=1e-3, anneal_lr=False, gamma=0.99, gae_lambda=0.9, update_epochs=2, minibatch_size=64,
        clip_coef=0.1, clip_value=False, ent_coef=0.02, vf_coef=0.25, max_grad_norm=1.0, target_kl=0.05,
        finetune_decisions=50, finetune_heuristic=(0.4, 0.5, 0.5, 0.2, 0.1), finetune_investigator_share=0.8,
        finetune_table_sizes=(7, 7, 8),
        bf16=True, rollout_workers=2,
    )
    assert _parse(_argv(changed)) == changed


def test_command_line_applies_given_options_on_the_preset():
    """Options given override the preset; the rest keep its values; booleans parse in any case."""
    args = _parse(["--preset", "smoke", "--hidden", "32", "32", "--clip-value", "false", "--table-sizes", "5"])
    assert args == preset("smoke", hidden=(32, 32), clip_value=False, table_sizes=(5,))
    assert isinstance(args.hidden, tuple) and isinstance(args.table_sizes, tuple)
    assert _parse([]) == preset("full")
    assert _parse(["--finetune-table-sizes", "7", "8"]).finetune_table_sizes == (7, 8)
    assert _parse(["--finetune-table-sizes"]).finetune_table_sizes == ()  # empty: the fine-tune uses table_sizes
    for text, value in (("true", True), ("True", True), ("yes", True), ("1", True), ("off", False),
                        ("false", False), ("False", False)):
        assert _parse(["--anneal-lr", text]).anneal_lr is value


@pytest.fixture
def saved(monkeypatch):
    """A resumed run's saved settings (smoke, with a few changes), served without a checkpoint file."""
    saved = preset("smoke", hidden=(16,), eval_games=4, opponent_latest=0.2, opponent_heuristic=0.2)
    monkeypatch.setattr(train_cli, "_saved_args", lambda path: saved)
    return saved


def test_a_resumed_run_gets_only_the_options_given(saved):
    """Options apply on top of the saved settings, not the full preset's; an option given with the
    default's value (eval_games 100) is still applied; options left out, or given with the saved
    value, are no override."""
    command = parse_train_command(["--resume", "ckpt.pt", "--eval-games", "100", "--hidden", "16",
                                   "--total-decisions", "9000"])
    assert command.resume == Path("ckpt.pt")
    assert command.overrides == {"eval_games": 100, "total_decisions": 9000}
    assert command.args == saved.replace(eval_games=100, total_decisions=9000)
    assert parse_train_command(["--resume", "ckpt.pt"]).overrides == {}


def test_a_resumed_runs_options_are_validated_against_its_own_settings(saved):
    """Random 0.5 fits the saved 0.2 + 0.2, not the full preset's 0.3 + 0.35."""
    assert parse_train_command(["--resume", "ckpt.pt", "--opponent-random", "0.5"]).overrides == {
        "opponent_random": 0.5}
    with pytest.raises(SystemExit):
        parse_train_command(["--opponent-random", "0.5"])


def test_help_under_resume_shows_the_saved_values(saved, capsys, monkeypatch):
    text = _help_text(["--resume", "ckpt.pt"], capsys, monkeypatch)
    assert "(default: 16)" in text.split("--hidden", 1)[1][:200]


@pytest.mark.parametrize("argv,reason", [
    (["--recurrent", "maybe"], "expected true or false, got 'maybe'"),
    (["--hidden"], "hidden must list positive widths"),
    (["--seed", "x"], "--seed: invalid literal for int()"),
    (["--gamma", "2"], "gamma must be in (0, 1]"),
    (["--no-such-option", "1"], "Unrecognized options: --no-such-option"),
], ids=["bool", "empty-hidden", "int", "validation", "unknown"])
def test_bad_values_exit_2_with_the_reason(argv, reason, capsys):
    """tyro rejects the command line: exit code 2, the reason on one line of stderr, no traceback."""
    with pytest.raises(SystemExit) as info:
        train_main(argv, prog="train.py")
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert any(reason in line for line in err.splitlines()), err
    assert "Traceback" not in err


@pytest.mark.parametrize("argv,message", [
    (["--preset", "huge"], "train.py: error: unknown preset 'huge'; known presets: smoke, full, league\n"),
    (["--resume", "ckpt.pt", "--preset", "smoke"],
     "train.py: error: --preset starts a new run; a resumed run keeps its own settings (override single options instead)\n"),
    (["--resume", "/nonexistent/ckpt.pt"], "train.py: error: no checkpoint file at /nonexistent/ckpt.pt\n"),
])
def test_refused_starts_are_one_line_and_exit_2(argv, message, capsys):
    """An unknown preset, --preset with --resume, or no checkpoint: one line on stderr, return code 2."""
    assert train_main(argv) == 2
    assert capsys.readouterr().err == message


# -- the docs -----------------------------------------------------------------------------------

COMMAND_SOURCES = ["README.md", "checkpoints/README.md", "Makefile", "scripts/train.py",
                   *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "training").glob("*.py"))]


def _current(name: str) -> str:
    """A doc's text without its history: checkpoints/README.md's "History" sections record the
    commands of retired versions as they ran at the commit they name, not as this code parses them."""
    text = (ROOT / name).read_text()
    return text[:text.index("\n## History")] if name == "checkpoints/README.md" else text


def _documented_command_lines() -> list[tuple[str, ...]]:
    """Every `scripts/train.py ...` / `rlyeh train ...` line of the docs, its options up to a comment."""
    found = set()
    for name in COMMAND_SOURCES:
        for match in re.finditer(r"(?:scripts/train\.py|rlyeh train)([^\n]*)", _current(name)):
            found.add(tuple(re.split(r"[#`()]", match.group(1))[0].split()))
    return sorted(found)


def _documented_option_spans() -> list[tuple[str, ...]]:
    """Every inline `--option value` of README's training section and of checkpoints/README.md."""
    readme = (ROOT / "README.md").read_text()
    training = readme[readme.index("## Training bots"):]
    training = training[:training.find("\n## ")] if "\n## " in training else training
    text = training + _current("checkpoints/README.md")
    return sorted({tuple(span.split()) for span in re.findall(r"`(--[^`]+)`", text)})


def test_the_docs_show_command_lines_and_options():
    """The two readers below have something to check (they would pass vacuously otherwise)."""
    lines = _documented_command_lines()
    assert ("--preset", "league") in lines and ("--resume", "runs/league/checkpoint.pt") in lines
    assert ("--help",) in lines
    spans = _documented_option_spans()
    assert ("--shared-trunk", "true") in spans and ("--pfsp-by-size", "true", "--pfsp-size-relative", "true") in spans


@pytest.mark.parametrize("argv", _documented_command_lines(), ids=" ".join)
def test_documented_command_lines_parse(argv, saved, capsys):
    """Each command line the docs show parses (`--resume`: the saved settings are served by the
    fixture, as the path is an example)."""
    if "--help" in argv:
        with pytest.raises(SystemExit) as info:
            parse_train_command(list(argv))
        assert info.value.code == 0 and "--total-decisions" in capsys.readouterr().out
    else:
        parse_train_command(list(argv))


@pytest.mark.parametrize("span", _documented_option_spans(), ids=" ".join)
def test_documented_options_exist_and_parse(span, monkeypatch):
    """Each option the docs name is a `train` option; given with example values, it parses to them.
    They are parsed on top of the defaults (as a resumed run's settings): on the full preset
    `--recurrent true` alone is refused, as its warm start clones single decisions."""
    monkeypatch.setattr(train_cli, "_saved_args", lambda path: Args())
    options = {_flag(f.name): f.name for f in FIELDS}
    starts = {_flag(f.name) for f in dataclasses.fields(Start)}
    groups = re.findall(r"(--\S+)((?: (?!--)\S+)*)", " ".join(span))  # (option, its values)
    for flag, _ in groups:
        assert flag in options or flag in starts, f"{flag} is not a train option"
    values = [value for _, text in groups for value in text.split()]
    if values and not any(value.isupper() for value in values):  # example values, not a placeholder such as N
        starting = any(flag in starts for flag, _ in groups)
        args = parse_train_command(list(span) if starting else ["--resume", "ckpt.pt", *span]).args
        for flag, text in groups:
            if flag not in options:
                continue
            value = getattr(args, options[flag])
            if isinstance(value, float):  # 5e-5 parses to 5e-05
                assert value == float(text), flag
            else:
                assert _shown(value) == text.strip(), flag


def test_num_workers_is_another_name_for_rollout_workers():
    """The Ray issue's spelling, in both forms; nothing else is rewritten."""
    for argv in (["--backend", "ray", "--num-workers", "3"], ["--backend", "ray", "--num-workers=3"]):
        command = parse_train_command(argv)
        assert command.args.rollout_workers == 3 and command.args.backend == "ray"
        assert command.overrides == {"rollout_workers": 3, "backend": "ray"}


@pytest.mark.parametrize("script, first, last, runs_trained",
                         [("train_v4.sh", "hclone", "w1", 3), ("train_v5.sh", "hclone", "y1", 4)])
def test_a_recipe_script_chains_commands_that_parse(saved, script, first, last, runs_trained):
    """A recipe script (scripts/train_v4.sh, train_v5.sh), printed by DRY_RUN=1: every train.py line parses,
    every run it resumes was trained before it, and every file it names as an anchor, a start or
    an exploit.py target was written by an earlier step (or is shipped, or read from the
    repository's history)."""
    import subprocess

    from rlyeh_env.checkpoints import VERSIONS

    printed = subprocess.run(["bash", str(ROOT / "scripts" / script)], env={"DRY_RUN": "1", "PATH": "/usr/bin:/bin"},
                             capture_output=True, text=True, check=True).stdout.splitlines()
    runs, files, trained = set(), set(), []
    for line in printed:
        words = line.split()
        if words[:3] == ["bash", "-c", "git"]:  # a retired bot's file, out of the commit that shipped it
            assert words[3] == "show" and words[-2] == ">" and re.fullmatch(r"[0-9a-f]{7,40}:checkpoints/rlyeh_v\d+\.pt", words[4]), line
            files.add(words[-1])
        elif words[:1] == ["cp"]:
            assert Path(words[1]).parent.name in runs or words[1] in files or words[1].startswith("runs/exploit-"), line
            files.add(words[2])
        elif "scripts/average.py" in words:
            sources = words[words.index("scripts/average.py") + 1:words.index("--out")]
            assert len(sources) >= 2 and all(Path(s).parts[1] in runs or s in files for s in sources), line  # runs/NAME/...
            runs.add(Path(words[words.index("--out") + 1]).parent.name)
        elif "scripts/exploit.py" in words:
            target = words[words.index("scripts/exploit.py") + 1]
            assert Path(target).parent.name in runs or target.startswith("checkpoints/rlyeh_"), line
        elif "scripts/train.py" in words:
            argv = words[words.index("scripts/train.py") + 1:]
            command = parse_train_command(argv)
            if command.resume:
                assert command.resume.parent.name in runs, f"resumes a run not trained before: {line}"
            named = [*command.args.league_anchors, command.args.init_from] if not command.resume else \
                list(command.overrides.get("league_anchors", ()))
            for source in (anchor.split(":")[0] for anchor in named if anchor):
                assert source in ("untrained", "warm-start", *VERSIONS) or source.startswith("checkpoints/") or source in files \
                    or Path(source).parent.name in runs, f"{source} is not made before {line}"
            runs.add(argv[argv.index("--run-name") + 1])
            trained.append(argv[argv.index("--run-name") + 1])
    assert trained[0] == first and trained[-1] == last and len(trained) == runs_trained
