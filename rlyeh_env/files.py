"""Atomic file writes: a file holds either its old contents or its new ones, never half of each.

Every file the project writes for a user to keep (replays, checkpoints, results, run histories)
goes through `atomic_write`: the data goes to a temporary file beside the target, is flushed to
disk, and is renamed over the target in one step, so a crash or Ctrl-C mid-write loses nothing.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], object]) -> None:
    """Call `write(handle)` on a binary temporary file beside `path`, then rename it over `path`.
    The parent folder is created if missing; on any error the temporary file is removed and the
    old `path` (if any) is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; these are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    """Flush the rename itself to disk, so the new file survives a power cut too."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is still atomic
    finally:
        os.close(fd)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    data = text.encode("utf-8")
    atomic_write(path, lambda handle: handle.write(data))
