"""Warm start: behaviour cloning of a teacher before PPO (`Args.imitation_decisions`).

From scratch, PPO investigators almost never complete an incantation (random investigators win
0% of games, even against random cultists), so the win reward is nearly never seen. Cloning the
heuristic first puts both policies where the reward is frequent, and PPO takes it from there.

The teacher (`imitation_teacher`) is the heuristic bot or a checkpoint's policies (sampled). A
checkpoint teacher's investigators can be made to act on their belief head
(`imitation_accuse_at`, `rlyeh_env.accuser.BeliefAccuser`): accuse a seat they are sure of and
vote on accusations by their belief. Self-play alone can stay where nobody accuses because nobody
votes Yes; learners started from such a clone (with `init_from` the same checkpoint, they learn
just that change) begin self-play where accusations pass when they are right. And since
investigators who never meet a cultist's accusation learn to vote Yes on every accusation, the
teacher's cultists can be made to accuse at random (`imitation_cultist_accuse_rate`,
`BluffingCultist`), so that the clone's cultists accuse too and self-play has to sort it out.

The teacher plays every seat of tables drawn like training tables (except that, with
probability `opponent_random`, the random bot plays one side, as in PPO); each role's teacher
decisions are recorded (`Collector` with recorded side players) and, per batch, each network is trained to:
- predict the teacher's action (cross-entropy over the legal actions, the mask applied);
- predict the discounted return of the decision (value loss, from the observation or, with
  `central_critic`, the truth; GAE with lambda 1 over zero values gives exactly the Monte Carlo
  return along the agent's own trajectory);
- predict the true roles with the belief head, as in PPO.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from rlyeh_env.accuser import BeliefAccuser, BluffingCultist
from rlyeh_env.engine import NUM_ACTIONS, Role
from rlyeh_env.metrics import BELIEF_SEATS
from rlyeh_env.observation import SEAT_LAYOUT, TRUTH_LAYOUT
from rlyeh_env.players import PolicyCache, ScriptedPlayer, make_side_player
from rlyeh_env.policy.network import ActorCritic
from rlyeh_env.progress import progress_bar

from .collector import GameSpec
from .config import Args
from .losses import belief_loss


def demonstration_bytes(args: Args) -> int:
    """Bytes one demonstration takes while the warm start holds them all: its observation (and
    truth, with `central_critic`), legal-action mask, action, value and belief rows, and the
    buffer's per-decision bookkeeping; twice over, as the rows are joined into one array at the end."""
    row = 4 * SEAT_LAYOUT.size + NUM_ACTIONS + 8 + 4 + 2 * 4 * BELIEF_SEATS + 64
    if args.central_critic:
        row += 4 * TRUTH_LAYOUT.size
    return 2 * row


def check_demonstrations_fit(args: Args, available: int | None) -> None:
    """Refuse (ValueError), before any game, a warm start whose demonstrations would not fit in
    `available` bytes (None: unknown, not checked): the kernel would kill the run when they ran out."""
    per_demonstration = demonstration_bytes(args)
    need = args.imitation_decisions * per_demonstration
    if available is not None and need > available:
        most = available // per_demonstration
        raise ValueError(
            f"imitation_decisions={args.imitation_decisions:,} keeps about {need / 2**30:.1f} GiB of "
            f"demonstrations in memory and {available / 2**30:.1f} GiB is available: ask for at most "
            f"about {most:,}"
        )


def clone_update(net: ActorCritic, optimizer: torch.optim.Optimizer, batch: dict, args: Args,
                 generator: torch.Generator, bar=None) -> list[dict[str, float]]:
    """`imitation_epochs` passes of minibatch gradient steps at `imitation_lr`; one row of mean
    figures per epoch."""
    for group in optimizer.param_groups:
        group["lr"] = args.imitation_lr
    n = len(batch["actions"])
    size = args.imitation_minibatch_size
    critic_key = "critic_input" if "critic_input" in batch else "obs"
    rows = []
    for _epoch in range(args.imitation_epochs):
        totals = {"imitation_loss": 0.0, "imitation_accuracy": 0.0, "value_loss": 0.0, "belief_loss": 0.0}
        steps = 0
        order = torch.randperm(n, generator=generator)
        for start in range(0, n, size):
            i = order[start : start + size]
            features, _ = net.features(batch["obs"][i])
            logits, belief = net.heads(features, batch["masks"][i])
            imitation = F.cross_entropy(logits, batch["actions"][i])
            value_loss = 0.5 * (net.value(batch[critic_key][i]) - batch["returns"][i]).square().mean()
            beliefs = belief_loss(belief, batch["belief_targets"][i], batch["belief_valid"][i])
            loss = imitation + args.vf_coef * value_loss + args.belief_coef * beliefs
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                accuracy = (logits.argmax(-1) == batch["actions"][i]).float().mean().item()
            for name, value in (("imitation_loss", imitation.item()), ("imitation_accuracy", accuracy),
                                ("value_loss", value_loss.item()), ("belief_loss", beliefs.item())):
                totals[name] += value
            steps += 1
        rows.append({name: value / max(steps, 1) for name, value in totals.items()})
        if bar is not None:
            bar.update(1)
            bar.set_postfix_str(f"accuracy {rows[-1]['imitation_accuracy']:.0%}", refresh=False)
    for group in optimizer.param_groups:
        group["lr"] = args.learning_rate
    return rows


def teachers(args: Args) -> dict:
    """The demonstrators per role: the heuristic, or the checkpoint `imitation_teacher`'s sampled
    policies (its investigators acting on their beliefs with `imitation_accuse_at`; its cultists
    accusing at random with `imitation_cultist_accuse_rate`)."""
    if args.imitation_teacher == "heuristic":
        players = {role: ScriptedPlayer("heuristic") for role in (Role.INVESTIGATOR, Role.CULTIST)}
    else:
        cache = PolicyCache()
        players = {role: make_side_player(args.imitation_teacher, role, greedy=False, seed=args.seed, cache=cache)
                   for role in (Role.INVESTIGATOR, Role.CULTIST)}
    if args.imitation_cultist_accuse_rate:
        players[Role.CULTIST] = BluffingCultist(players[Role.CULTIST], args.imitation_cultist_accuse_rate)
    if args.imitation_accuse_at:
        players[Role.INVESTIGATOR] = BeliefAccuser(players[Role.INVESTIGATOR], args.imitation_accuse_at,
                                                   vote_at=args.imitation_vote_at)
    return players


def imitate(trainer, progress: bool = True) -> list[dict]:
    """Clone the teacher into both of `trainer`'s networks on `imitation_decisions`
    demonstrations; return one row of figures per epoch (both roles)."""
    args = trainer.args
    if args.recurrent:
        raise ValueError("imitation_decisions needs a feed-forward policy (the GRU would need whole sequences)")
    demonstrators = teachers(args)
    configs = trainer.matchmaker.configs

    random_bot = ScriptedPlayer("random")

    def next_game(index: int) -> GameSpec:
        rng = trainer.rng
        config = configs[rng.choice(args.table_sizes)]
        players = dict(demonstrators)
        if rng.random() < args.opponent_random:  # the heuristic's answers to erratic play, too
            players[rng.choice(list(players))] = random_bot
        return GameSpec(config, rng.getrandbits(63), players, {"learner": "imitation"})

    bar = progress_bar(progress, args.imitation_decisions, "demonstrations")
    torch.set_num_threads(1)
    try:
        buffers, _ = trainer.collector.run(
            next_game, demonstrators, learner_decisions=args.imitation_decisions,
            on_decisions=bar.update if bar is not None else None,
        )
    finally:
        torch.set_num_threads(args.threads)
        if bar is not None:
            bar.close()
    rows = [{} for _ in range(args.imitation_epochs)]
    for role, buffer in buffers.items():
        batch = buffer.finish(args.gamma, 1.0)
        bar = progress_bar(progress, args.imitation_epochs, f"cloning {role.name.lower()}", unit="epoch")
        try:
            epochs = clone_update(trainer.nets[role], trainer.optimizers[role], batch, args,
                                  trainer.shuffle_generator, bar)
        finally:
            if bar is not None:
                bar.close()
        for row, figures in zip(rows, epochs):
            row.update({f"imitation/{role.name.lower()}/{k}": v for k, v in figures.items()})
            row[f"imitation/{role.name.lower()}/decisions"] = len(buffer)
    return rows

