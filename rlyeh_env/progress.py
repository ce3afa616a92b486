"""The one progress bar of long work (training, warm start, tournaments): tqdm with an ETA."""

from __future__ import annotations


def progress_bar(enabled: bool, total: int, desc: str, unit: str = "dec", initial: int = 0):
    """A tqdm bar, or None when `enabled` is false. Decision counts are shown scaled (12.3k)."""
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=desc, unit=unit, unit_scale=unit == "dec", dynamic_ncols=True,
                smoothing=0.05, mininterval=1.0)
