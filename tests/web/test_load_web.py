"""scripts/load_web.py on a small scale: tables played at once through a real server process over
loopback, every one to its result, the figures it prints measured from those games."""

from __future__ import annotations

import asyncio
import importlib.util
import math
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets", reason="the load script needs the web extra")
pytest.importorskip("psutil", reason="the load script needs psutil (the dev extra)")


def _load_script():
    path = Path(__file__).resolve().parents[2] / "scripts" / "load_web.py"
    spec = importlib.util.spec_from_file_location("load_web", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_tables_played_at_once_all_finish_with_nothing_crossed():
    report = asyncio.run(_load_script().run_load(tables=3, players=4, bots="heuristic", seed=1))
    assert report["finished"] == 3 and report["problems"] == []
    assert report["moves"] > 0 and report["messages"] > report["moves"]
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"] and math.isfinite(latency["max"])
    assert report["server_rss_mb"]["peak"] >= report["server_rss_mb"]["idle"] > 10


def test_the_percentiles_are_those_of_the_measured_latencies():
    percentile = _load_script()._percentile
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(50.5, abs=1) and percentile(values, 100) == 100.0
    assert percentile([7.0], 99) == 7.0 and math.isnan(percentile([], 50))
