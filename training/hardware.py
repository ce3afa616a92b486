"""What this machine offers, for defaults and limits that depend on it (never tuned to one machine).

`native_bf16`: whether the CPU multiplies bfloat16 natively (AVX-512 BF16 or AMX BF16). There
the `full` preset's bf16 update pays; without it bfloat16 is emulated and slower than float32
(measured on a 2-core machine without it: 8.6x MaskablePPO with bf16 against 15.0x in float32,
`scripts/benchmark_training.py --seconds 30`, one run).

`available_memory`: what a new allocation may take, so that a warm start whose demonstrations
would not fit is refused before it plays (training/imitation.py: check_demonstrations_fit).
"""

from __future__ import annotations

from pathlib import Path

BF16_FLAGS = ("avx512_bf16", "amx_bf16")


def cpu_flags(cpuinfo: str | None = None) -> set[str]:
    """The feature flags of the first CPU in /proc/cpuinfo (an empty set where there is none)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return set(value.split())
    return set()


def native_bf16(cpuinfo: str | None = None) -> bool:
    return any(flag in cpu_flags(cpuinfo) for flag in BF16_FLAGS)


def available_memory(meminfo: str | None = None) -> int | None:
    """Bytes of memory available to a new allocation (MemAvailable of /proc/meminfo), or None
    where the kernel does not say."""
    if meminfo is None:
        try:
            meminfo = Path("/proc/meminfo").read_text()
        except OSError:
            return None
    for line in meminfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "MemAvailable":
            amount, *unit = value.split()
            return int(amount) * (1024 if unit == ["kB"] else 1)
    return None
