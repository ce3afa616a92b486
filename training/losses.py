"""The PPO and warm-start losses' pieces over masked actions and per-seat beliefs."""

from __future__ import annotations

import torch


def masked_entropy(log_probs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy over the legal actions only (illegal ones add exactly nothing)."""
    p_log_p = log_probs.exp() * log_probs
    return -torch.where(mask, p_log_p, torch.zeros_like(p_log_p)).sum(-1)


def belief_loss(logits: torch.Tensor, targets: torch.Tensor, present: torch.Tensor) -> torch.Tensor:
    """Binary cross-entropy of the per-seat cultist logits against the true roles, averaged over
    the seats present at the table (rows beyond it carry no target)."""
    per_seat = torch.nn.functional.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    return (per_seat * present).sum() / present.sum().clamp(min=1)
