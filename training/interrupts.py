"""Ctrl-C during training: the run stops at a clean point, saves, and says how to resume.

A Ctrl-C during a rollout stops it at once (the trainer rewinds its generators, so the state is
the last finished update's); one during the update waits for the update to finish
(`interrupt_deferred`), since half-applied gradient steps could not be resumed bit for bit.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from pathlib import Path


class TrainingInterrupted(Exception):
    """Training stopped by Ctrl-C after saving `checkpoint` at update `update`."""

    def __init__(self, checkpoint: Path, update: int):
        super().__init__(f"interrupted after update {update}; saved {checkpoint}")
        self.checkpoint, self.update = checkpoint, update


@contextlib.contextmanager
def interrupt_deferred():
    """Hold a Ctrl-C (SIGINT) until the block ends, then raise it as KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return
    caught = []
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # Ctrl-C is ignored here already
        yield
        return

    def hold(signum, frame):
        if not caught:
            print("\nCtrl-C: finishing this update, then saving the run", file=sys.stderr, flush=True)
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
