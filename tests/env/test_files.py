"""`rlyeh_env.files.atomic_write`: a write either lands whole or leaves the old file as it was."""

from __future__ import annotations

import os

import pytest

from rlyeh_env.files import atomic_write, atomic_write_text


def test_atomic_write_text_creates_folders_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "a" / "b" / "out.json"
    atomic_write_text(path, "héllo")
    assert path.read_text(encoding="utf-8") == "héllo"
    umask = os.umask(0)
    os.umask(umask)
    assert (path.stat().st_mode & 0o777) == 0o666 & ~umask  # an ordinary file, as open() would make
    assert [p.name for p in path.parent.iterdir()] == ["out.json"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path):
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")

    def half_then_fail(handle):
        handle.write(b"new but incomplete")
        raise KeyboardInterrupt  # as a Ctrl-C mid-write

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, half_then_fail)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_a_write_replaces_the_old_contents(tmp_path):
    path = tmp_path / "out.txt"
    atomic_write_text(path, "first, longer contents")
    atomic_write_text(path, "second")
    assert path.read_text() == "second"
