"""Ctrl-C loses nothing: `train` saves a checkpoint it can resume and prints the command, `eval`
prints the match-ups already finished, `play` saves the replay. Each is a real process group sent
SIGINT, as a terminal's Ctrl-C does (worker processes get it too)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from rlyeh_env.policy.checkpoint import load_checkpoint

ROOT = Path(__file__).resolve().parent.parent


def _terminal_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Running:
    """A command whose output is read as it comes, so a test can wait for a sign of progress."""

    def __init__(self, argv: list[str], cwd: Path):
        # a session of its own: Ctrl-C is sent to its whole process group, workers included, as a
        # terminal sends it; SIGINT handled as in a terminal even where the test runner was started
        # in the background (a shell's `&` makes background children ignore SIGINT, inherited)
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, start_new_session=True,
                                        preexec_fn=_terminal_sigint)
        self.out, self.err = [], []
        self._readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                         for stream, into in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, into: list) -> None:
        while True:
            chunk = stream.read(1)
            if not chunk:
                return
            into.append(chunk)

    def wait_for(self, test, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not test():
            assert self.process.poll() is None, f"ended early: {''.join(self.err)}"
            if time.monotonic() >= deadline:
                self._kill()
                raise AssertionError(f"no sign of progress in {timeout} s: {''.join(self.err)}")
            time.sleep(0.05)

    def _kill(self) -> None:
        """A failed test leaves nothing running to slow down the tests after it."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def interrupt(self, timeout: float = 120.0) -> tuple[int, str, str]:
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._kill()
            raise
        for reader in self._readers:
            reader.join(10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()
        return code, "".join(self.out), "".join(self.err)


def test_ctrl_c_during_train_saves_a_checkpoint_that_resumes(tmp_path):
    train = [sys.executable, str(ROOT / "scripts" / "train.py")]
    run = Running(train + ["--preset", "smoke", "--runs-dir", str(tmp_path), "--total-decisions", "10000000",
                           "--eval-every", "0", "--progress", "false"], tmp_path)
    checkpoint = tmp_path / "smoke" / "checkpoint.pt"
    run.wait_for(checkpoint.exists)  # the warm start is over: updates are running
    time.sleep(1.0)
    code, _, err = run.interrupt()
    assert code == 130, err
    assert "Traceback" not in err
    resume = next(line for line in err.splitlines() if line.startswith("resume with: "))
    assert resume.endswith(f"--resume {checkpoint}")
    saved = load_checkpoint(checkpoint, kind="training")
    assert saved["update"] >= 0 and (tmp_path / "smoke" / "policies.pt").exists()
    assert not list((tmp_path / "smoke").glob("*.tmp"))
    # the printed command resumes the run (here for two more updates, to its end)
    target = saved["decisions"] + 4_000
    done = subprocess.run(train + ["--resume", str(checkpoint), "--total-decisions", str(target), "--progress", "false"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert load_checkpoint(checkpoint, kind="training")["decisions"] >= target


def test_ctrl_c_during_eval_prints_the_finished_match_ups(tmp_path):
    run = Running([sys.executable, str(ROOT / "scripts" / "evaluate.py"), "--lineup", "random,random",
                   "--lineup", "heuristic,heuristic", "--lineup", "heuristic,random", "--sizes", "4", "--games", "600",
                   "--workers", "2"], tmp_path)
    run.wait_for(lambda: "33%" in "".join(run.err))  # the progress bar: the first match-up is done
    code, out, err = run.interrupt()
    assert code == 130, err
    assert "interrupted: 1 of 3 match-ups finished" in err and "Traceback" not in err, err
    assert "| 4 | random | random | 600 |" in out and "heuristic | heuristic" not in out


def test_ctrl_c_during_play_saves_the_replay(tmp_path):
    replays = tmp_path / "replays"
    run = Running([sys.executable, "-m", "rlyeh_env.cli", "play", "--bots", "random", "--instant", "--seed", "5",
                   "--replays", str(replays)], tmp_path)
    run.wait_for(lambda: "Your choice" in "".join(run.out))
    code, out, err = run.interrupt()
    assert code == 0, err
    assert "The game so far is saved" in out
    [saved] = replays.glob("play_*.json")
    assert '"seed": 5' in saved.read_text()
