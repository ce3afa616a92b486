"""The PPO update of one policy from its finished rollout.

Standard clipped PPO with the details of the reference implementation (per-minibatch advantage
normalisation, clipped value loss, entropy bonus, global grad-norm clip, optional target-KL stop),
plus what this game needs:

- action masks: the mask stored with each decision is applied again to the new logits, so the
  ratio compares the same legal-action distribution, and the entropy counts legal actions only;
- the belief head: binary cross-entropy between its per-seat cultist logits and the true roles
  (seats beyond the table excluded), weighted by `belief_coef`;
- mixed precision (`bf16`): the trunks run under CPU bfloat16 autocast, the output layers in
  float32 (`ActorCritic.forward_all`), so the weights, the optimizer, the losses and the
  rollouts (with their stored log-probabilities) all stay float32; the observations are cast to
  bfloat16 once per update, as the first layers would cast them anyway;
- recurrence: decisions are cut into chunks of `sequence_length` along each agent's own
  trajectory, each chunk starting from the recurrent state stored when it was played. A
  feed-forward policy uses chunks of length 1, so both take the same code path.
"""

from __future__ import annotations

import numpy as np
import torch

from rlyeh_env.policy.network import ActorCritic

from .config import Args
from .losses import belief_loss, masked_entropy


def chunk_indices(trajectory: torch.Tensor, length: int) -> torch.Tensor:
    """(chunks, length) decision indices, -1 = padding: each agent trajectory in order, cut
    every `length` decisions."""
    if length == 1:
        return torch.arange(len(trajectory)).unsqueeze(1)
    by_trajectory: dict[int, list[int]] = {}
    for index, t in enumerate(trajectory.tolist()):
        by_trajectory.setdefault(t, []).append(index)
    rows = []
    for indices in by_trajectory.values():
        for start in range(0, len(indices), length):
            piece = indices[start : start + length]
            rows.append(piece + [-1] * (length - len(piece)))
    return torch.tensor(rows, dtype=torch.int64)


def explained_variance(values: torch.Tensor, returns: torch.Tensor) -> float:
    var = returns.var().item()
    return float("nan") if var == 0 else 1.0 - (returns - values).var().item() / var


def ppo_update(
    net: ActorCritic,
    optimizer: torch.optim.Optimizer,
    batch: dict[str, torch.Tensor],
    args: Args,
    generator: torch.Generator,
) -> dict[str, float]:
    """Run the epochs of minibatch updates; return the mean losses and diagnostics."""
    length = args.sequence_length if net.recurrent else 1
    chunks = chunk_indices(batch["trajectory"], length)
    per_minibatch = max(1, args.minibatch_size // length)
    critic_key = "critic_input" if "critic_input" in batch else "obs"
    inputs = {key: batch[key] for key in ("obs", critic_key)}
    if args.bf16:
        # The trunks' first layers would cast each minibatch's rows to bfloat16 anyway: casting
        # once here gives the same numbers and halves what every minibatch gathers.
        inputs = {key: value.to(torch.bfloat16) for key, value in inputs.items()}
    stats: dict[str, list[float]] = {}

    for _epoch in range(args.update_epochs):
        order = torch.randperm(len(chunks), generator=generator)
        kls = []
        for start in range(0, len(chunks), per_minibatch):
            index = chunks[order[start : start + per_minibatch]]  # (C, L)
            valid = index >= 0
            take = index.clamp(min=0)
            mb = {k: batch[k][take] for k in ("masks", "actions", "log_probs", "values", "advantages", "returns",
                                               "belief_targets", "belief_valid")}
            hidden = batch["hidden"][take[:, 0]] if net.recurrent else None
            obs = inputs["obs"][take]
            critic_input = obs if critic_key == "obs" else inputs[critic_key][take]
            logits, belief, value = net.forward_all(obs, mb["masks"], critic_input, hidden, args.bf16)
            value = value[valid]
            log_probs = torch.log_softmax(logits, -1)
            new_log_prob = log_probs.gather(-1, mb["actions"].unsqueeze(-1)).squeeze(-1)
            entropy = masked_entropy(log_probs, mb["masks"])
            log_ratio = new_log_prob - mb["log_probs"]
            ratio = log_ratio.exp()

            adv = mb["advantages"][valid]
            adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
            r = ratio[valid]
            pg_loss = torch.max(-adv * r, -adv * r.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()

            returns, old_value = mb["returns"][valid], mb["values"][valid]
            v_loss = (value - returns).square()
            if args.clip_value:
                clipped = old_value + (value - old_value).clamp(-args.clip_coef, args.clip_coef)
                v_loss = torch.max(v_loss, (clipped - returns).square())
            v_loss = 0.5 * v_loss.mean()

            beliefs = belief_loss(belief[valid], mb["belief_targets"][valid], mb["belief_valid"][valid])
            entropy_mean = entropy[valid].mean()

            loss = pg_loss - args.ent_coef * entropy_mean + args.vf_coef * v_loss + args.belief_coef * beliefs
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            optimizer.step()

            with torch.no_grad():
                lr = log_ratio[valid]
                approx_kl = ((lr.exp() - 1) - lr).mean().item()
                clipfrac = ((r - 1).abs() > args.clip_coef).float().mean().item()
            kls.append(approx_kl)
            for name, value_ in (
                ("policy_loss", pg_loss.item()),
                ("value_loss", v_loss.item()),
                ("entropy", entropy_mean.item()),
                ("belief_loss", beliefs.item()),
                ("approx_kl", approx_kl),
                ("clipfrac", clipfrac),
            ):
                stats.setdefault(name, []).append(value_)
        if args.target_kl and np.mean(kls) > args.target_kl:
            break

    result = {name: float(np.mean(values)) for name, values in stats.items()}
    result["explained_variance"] = explained_variance(batch["values"], batch["returns"])
    return result
