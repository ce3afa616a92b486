"""The learning-curve figure written at the end of a run (`learning_curves.png`)."""

from __future__ import annotations

import math
from pathlib import Path

PANELS = (
    ("Win rate of the learner's side", [
        ("eval/investigator_win_vs_heuristic", "investigators vs heuristic cultists"),
        ("eval/cultist_win_vs_heuristic", "cultists vs heuristic investigators"),
        ("eval/investigator_win_vs_random", "investigators vs random cultists"),
        ("eval/cultist_win_vs_random", "cultists vs random investigators"),
    ]),
    ("Belief accuracy (AUC, rollouts)", [
        ("belief/investigator_auc", "investigator policy"),
        ("belief/cultist_auc", "cultist policy"),
    ]),
    ("Entropy over legal actions", [
        ("losses/investigator/entropy", "investigator policy"),
        ("losses/cultist/entropy", "cultist policy"),
    ]),
    ("Explained variance", [
        ("losses/investigator/explained_variance", "investigator value"),
        ("losses/cultist/explained_variance", "cultist value"),
    ]),
)


def finetune_start(history: list[dict]) -> int | None:
    """Learner decisions when the scripted fine-tune began (None if the run had none): the count
    before the first update flagged `charts/finetune`."""
    before = 0
    for row in history:
        if row.get("charts/finetune") == 1.0:
            return before
        before = row.get("charts/decisions", before)
    return None


def plot_learning_curves(history: list[dict], path: Path) -> None:
    """Four panels against learner decisions; a series missing from the history is skipped. A
    dashed line marks the start of the scripted fine-tune, if any."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    switch = finetune_start(history)
    for ax, (title, series) in zip(axes.flat, PANELS):
        if switch is not None:
            ax.axvline(switch, color="grey", linestyle="--", linewidth=1, label="scripted fine-tune starts")
        for key, label in series:
            points = [(row["charts/decisions"], row[key]) for row in history
                      if isinstance(row.get(key), (int, float)) and math.isfinite(row[key])]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker="." if len(points) < 30 else None, label=label)
        ax.set_title(title)
        ax.set_xlabel("learner decisions")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    tmp.replace(path)
