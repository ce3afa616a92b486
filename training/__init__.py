"""PPO self-play for The Gate of R'lyeh: an investigator and a cultist policy trained at once.

    config.py       Args (every setting, with help) and the presets `smoke`, `full` and `league`
    players.py      who sits in a seat during batched play: a network or a scripted bot
    collector.py    many games in lockstep, batched forwards, per-agent trajectories
    buffer.py       the learners' decisions and GAE along each agent's own trajectory
    ppo.py          the masked (optionally recurrent) PPO update with the belief loss
    losses.py       masked entropy and the belief loss
    opponents.py    the matchmaker: table sizes, self-play, scripted bots, league and exploiter games
    league.py       the league: frozen entries per role, recorded win rates, PFSP draws
    exploit.py      approximate exploitability: best responses against a checkpoint's frozen sides
    averaging.py    the weight average of a lineage of checkpoints as one policy file
    trainer.py      the loop: rollouts, updates, evaluation, logs, checkpoints, resume
    workers.py      an update's rollout split over worker processes (on-policy, seeded per worker)
    ray_workers.py  the same workers as Ray actors (backend ray)
    ray_tasks.py    whole jobs as Ray tasks: exploiters' training, tournament match-ups
    evaluation.py   the learners against the scripted bots during training; the shipping bars
    plots.py        the learning-curve figure
    imitation.py    the warm start: cloning the heuristic bot (or a checkpoint) before PPO
    hardware.py     what the machine offers: native bfloat16, available memory
    interrupts.py   Ctrl-C: stop at a clean point, save, say how to resume
    speed.py        training throughput for scripts/benchmark_training.py
    train_cli.py    the train command line: Args read by tyro on top of a preset or a resumed run
    commands.py     the train and eval commands (argument parsing and printing)

It stands on the env package: the games are `rlyeh_env.table.Table`s, the network, checkpoint
files and `PolicyBot` are `rlyeh_env.policy`, tournaments are `rlyeh_env.tournament`; nothing in
`rlyeh_env` imports this package. Run it with `scripts/train.py` or `rlyeh train`; see the
README's Training section.
"""
