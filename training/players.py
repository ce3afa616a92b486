"""Who sits in a seat during batched play: a network (`NetPlayer`) or a scripted bot
(`rlyeh_env.players.ScriptedPlayer`, the tournament's own: one `Bot` per seat per game, since
bots keep per-game memory, asked seat by seat).

A `NetPlayer` is one policy network seated at any number of seats of any number of tables; the
collector gathers every seat it must decide for and runs one batched forward. It is not the
tournament's `PolicyPlayer`: a learner's forward also returns log-probabilities and values (from
the central critic's input where there is one) and samples from the trainer's generator.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from rlyeh_env.accuser import ACCUSATION_VOTE
from rlyeh_env.engine import Role
from rlyeh_env.engine.actions import ACCUSE, MAX_OFFSET, NUM_ACTIONS, VOTE_YES
from rlyeh_env.observation import SEAT_LAYOUT, TRUTH_LAYOUT
from rlyeh_env.players import ScriptedPlayer
from rlyeh_env.policy.network import ActorCritic, decide

from .config import Args

ROLES = (Role.INVESTIGATOR, Role.CULTIST)  # also the order the learners' networks are initialised in
_IS_CULTIST = SEAT_LAYOUT.starts["me.role"] + Role.CULTIST  # the seat's own role, one-hot


@dataclass(eq=False)
class NetPlayer:
    """A policy network at the table. `learner` names the role whose training data it produces
    (None for frozen opponents and evaluation); `greedy` picks the most probable legal action."""

    net: ActorCritic
    name: str
    learner: int | None = None
    greedy: bool = False
    central_critic: bool = False
    bluff_rate: float = 0.0  # a frozen league anchor's cultists accusing at random (`bluff`)

    def act(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        hidden: torch.Tensor | None,
        generator: torch.Generator | None,
        critic_input: torch.Tensor | None = None,
    ) -> dict:
        """Batched decision: actions and the next recurrent state, and for learners their
        log-probabilities, belief logits and values too."""
        # a frozen player's log-probabilities and beliefs are never read
        out = decide(self.net, obs, mask, hidden, self.greedy, generator, details=self.learner is not None)
        if self.bluff_rate > 0:
            out["actions"] = bluff(out["actions"], obs, mask, self.bluff_rate, generator)
        if self.learner is not None:
            with torch.no_grad():
                out["values"] = self.net.value(critic_input if self.central_critic else obs, out["features"])
        return out


Player = NetPlayer | ScriptedPlayer


def bluff(actions: torch.Tensor, obs: torch.Tensor, mask: torch.Tensor, rate: float,
          generator: torch.Generator | None) -> torch.Tensor:
    """`actions` with the cultists' rows changed as `rlyeh_env.accuser.BluffingCultist` changes
    them: where accusing is legal, an accusation of a legal seat drawn at random with probability
    `rate`; on an accusation vote, Yes. For frozen players only: the log-probabilities `decide`
    returned no longer match the changed rows."""
    cultist = obs[:, _IS_CULTIST] > 0.5
    accusable = mask[:, ACCUSE:ACCUSE + MAX_OFFSET].bool()
    draws = torch.rand(len(actions), generator=generator)
    bluffing = cultist & accusable.any(1) & (draws < rate)
    actions = actions.clone()
    if bluffing.any():
        seats = torch.multinomial(accusable[bluffing].float(), 1, generator=generator).squeeze(1)
        actions[bluffing] = ACCUSE + seats
    voting = cultist & ~bluffing & mask[:, VOTE_YES].bool() & (obs[:, ACCUSATION_VOTE] > 0.5)
    actions[voting] = VOTE_YES
    return actions


def learner_players(args: Args, kind: str = "learner") -> dict[Role, NetPlayer]:
    """A freshly initialised learner per role (from torch's global generator), as `args` shapes it;
    `kind` names them ("learner", or "exploiter" for the league's exploiters)."""
    critic_size = SEAT_LAYOUT.size + TRUTH_LAYOUT.size if args.central_critic else None
    return {
        role: NetPlayer(
            ActorCritic(SEAT_LAYOUT.size, NUM_ACTIONS, args.hidden, args.recurrent, critic_size, args.shared_trunk),
            f"{kind}-{role.name.lower()}",
            learner=role,
            central_critic=args.central_critic,
        )
        for role in ROLES
    }


def exploiter_players(args: Args) -> dict[Role, NetPlayer]:
    """The league's exploiters (one per role) when `args.exploiter_share` asks for them, else none."""
    return learner_players(args, "exploiter") if args.exploiter_share > 0 else {}


def trainee_key(role: Role, exploiter: bool = False) -> str:
    """How a trained network is named in rollouts, batches and checkpoints: INVESTIGATOR,
    CULTIST, INVESTIGATOR_EXPLOITER, CULTIST_EXPLOITER."""
    return role.name + ("_EXPLOITER" if exploiter else "")


def trainees(learners: dict[Role, NetPlayer], exploiters: dict[Role, NetPlayer]) -> dict[str, NetPlayer]:
    """Every player whose decisions a rollout records, by `trainee_key`."""
    out = {trainee_key(role): player for role, player in learners.items()}
    out.update({trainee_key(role, exploiter=True): player for role, player in exploiters.items()})
    return out
