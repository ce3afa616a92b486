"""Makes `training_testkit` (the shared helpers of tests/training) importable under importlib mode,
and gives every test torch's thread count back: the trainer and the commands set it process-wide
(`--threads`), and a worker left at 2 threads would oversubscribe the 2 cores under `-n 2`."""

import sys
from pathlib import Path

import pytest
import torch

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture(autouse=True)
def _restore_torch_threads():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)
