"""`ActorCritic`: the network of one role's policy (investigator or cultist), and its sampling.

The trainer (`training/`) optimises it; the env package needs it to seat a trained bot, so it
lives here, beside checkpoint loading.

    observation ─ policy trunk (MLP, then an optional GRU) ─┬─ action logits (61, masked)
                                                            └─ belief logits (7: seats 1..7 to my left)
    observation, or the full truth ─ value trunk (MLP) ───── value

The value network has its own trunk: with `central_critic` it reads the truth (`env.state()`
seat-relative), which exists only in training; the policy and the belief head read only the
observation, so a trained policy plays from its seat's information. With `shared_trunk` the
value head sits on the policy's features instead (no value trunk, as CleanRL's Atari agent
shares one): about half the arithmetic, since the first layer over the wide observation is most
of it, at the price of the value loss shaping the policy's features too.

Orthogonal initialisation as in PPO's reference implementation: gain sqrt(2) on hidden layers,
0.01 on the action head, 1 on the value head.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from ..metrics import BELIEF_SEATS

MASKED_LOGIT = -1e9


def _layer(inputs: int, outputs: int, gain: float = math.sqrt(2)) -> nn.Linear:
    layer = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def _mlp(inputs: int, hidden: tuple[int, ...]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [_layer(inputs, width), nn.Tanh()]
        inputs = width
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: tuple[int, ...] = (256, 128),
        recurrent: bool = False,
        critic_input_size: int | None = None,
        shared_trunk: bool = False,
    ):
        super().__init__()
        if shared_trunk and critic_input_size not in (None, obs_size):
            raise ValueError("a shared trunk reads the observation; a central critic needs its own value trunk")
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, tuple(hidden)
        self.recurrent, self.shared_trunk = recurrent, shared_trunk
        self.critic_input_size = critic_input_size or obs_size
        features = hidden[-1]
        self.trunk = _mlp(obs_size, hidden)
        self.gru = nn.GRU(features, features, batch_first=True) if recurrent else None
        if self.gru is not None:
            for name, param in self.gru.named_parameters():
                if "weight" in name:
                    nn.init.orthogonal_(param)
                else:
                    nn.init.zeros_(param)
        self.actor = _layer(features, num_actions, gain=0.01)
        self.belief = _layer(features, BELIEF_SEATS, gain=0.01)
        # critic[0] is the value trunk (the identity when shared), critic[1] the value head: the
        # head's parameter names are the same either way
        value_trunk = nn.Identity() if shared_trunk else _mlp(self.critic_input_size, hidden)
        self.critic = nn.Sequential(value_trunk, _layer(features, 1, gain=1.0))

    @property
    def hidden_size(self) -> int:
        """Size of the recurrent state (0 for a feed-forward policy)."""
        return self.hidden[-1] if self.recurrent else 0

    def initial_state(self, batch: int) -> torch.Tensor:
        return torch.zeros(batch, self.hidden_size)

    def features(self, obs: torch.Tensor, state: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Policy features for `obs` of shape (B, obs) (one step) or (B, T, obs) (sequences,
        recurrent only); returns (features, next recurrent state or None)."""
        x = self.trunk(obs)
        if self.gru is None:
            return x, None
        sequence = x.dim() == 3
        out, h = self.gru(x if sequence else x.unsqueeze(1), state.unsqueeze(0).contiguous())
        return (out if sequence else out.squeeze(1)), h.squeeze(0)

    def action_logits(self, features: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The action logits, illegal ones masked. `mask` is boolean, True = legal."""
        return self.actor(features).masked_fill(~mask, MASKED_LOGIT)

    def heads(self, features: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(masked action logits, belief logits)."""
        return self.action_logits(features, mask), self.belief(features)

    def value(self, critic_input: torch.Tensor, features: torch.Tensor | None = None) -> torch.Tensor:
        """The value of each row. With a shared trunk it reads the policy features: pass them when
        already computed (a recurrent policy must), else the trunk runs on `critic_input` (then
        the observation)."""
        if not self.shared_trunk:
            return self.critic(critic_input).squeeze(-1)
        if features is None:
            if self.recurrent:
                raise ValueError("a recurrent policy's shared-trunk value needs the policy features")
            features, _ = self.features(critic_input)
        return self.critic[1](features).squeeze(-1)

    def forward_all(
        self, obs: torch.Tensor, mask: torch.Tensor, critic_input: torch.Tensor, state: torch.Tensor | None = None,
        bf16: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(masked action logits, belief logits, value) in float32. With `bf16` the trunks (and
        the GRU) run under CPU bfloat16 autocast, where nearly all the arithmetic is; the small
        output layers stay float32, so the log-probabilities compared with the rollout's are not
        rounded to bf16's 8 bits."""
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            features, _ = self.features(obs, state)
            critic_features = features if self.shared_trunk else self.critic[0](critic_input)
        logits, belief = self.heads(features.float(), mask)
        return logits, belief, self.critic[1](critic_features.float()).squeeze(-1)

    def spec(self) -> dict:
        """What it takes to rebuild this network (stored in checkpoints)."""
        return {
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "hidden": list(self.hidden),
            "recurrent": self.recurrent,
            "critic_input_size": self.critic_input_size,
            "shared_trunk": self.shared_trunk,
        }

    @classmethod
    def from_spec(cls, spec: dict) -> "ActorCritic":
        return cls(
            spec["obs_size"],
            spec["num_actions"],
            tuple(spec["hidden"]),
            spec["recurrent"],
            spec["critic_input_size"],
            spec.get("shared_trunk", False),  # absent from checkpoints before the option existed
        )


@torch.no_grad()
def decide(
    net: ActorCritic, obs: torch.Tensor, mask: torch.Tensor, hidden: torch.Tensor | None = None,
    greedy: bool = False, generator: torch.Generator | None = None, details: bool = True,
) -> dict:
    """One batched decision of `net`: the most probable legal action of each row (`greedy`) or one
    drawn from the masked softmax. Returns actions, the policy features and the next recurrent
    state (None for a feed-forward net), and with `details` the actions' log-probabilities and
    the belief logits too (a frozen opponent needs neither: most of a small batch's cost is
    per operation, not per row)."""
    features, next_hidden = net.features(obs, hidden)
    logits = net.action_logits(features, mask)
    actions = logits.argmax(-1) if greedy else sample_actions(logits, generator)
    out = {"actions": actions, "features": features, "hidden": next_hidden}
    if details:
        out["log_probs"] = torch.log_softmax(logits, -1).gather(1, actions.unsqueeze(1)).squeeze(1)
        out["belief"] = net.belief(features)
    return out


def sample_actions(logits: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """One action per row, drawn from softmax(logits); masked actions have probability 0.

    The draw is `torch.multinomial(probs, 1)`'s own (the argmax of probs / Exp(1) noise, the same
    stream of numbers from the same generator, so the same actions), without the validity checks
    that cost it as much as the draw on a small batch: softmax's probabilities are valid."""
    probs = torch.softmax(logits, dim=-1)
    noise = torch.empty_like(probs).exponential_(1, generator=generator)
    return probs.div_(noise).argmax(-1)
