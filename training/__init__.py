"""PPO self-play for The Gate of R'lyeh: an investigator and a cultist policy trained at once.

    config.py       Args (every setting, with help) and the presets `smoke` and `full`
    table.py        one game on the engine, as the AEC env shows it (observations, masks, rewards)
    network.py      ActorCritic: policy trunk (+ optional GRU), action and belief heads, value net
    players.py      who sits in a seat during batched play: a network or a scripted bot
    collector.py    many games in lockstep, batched forwards, per-agent trajectories
    buffer.py       the learners' decisions and GAE along each agent's own trajectory
    ppo.py          the masked (optionally recurrent) PPO update with the belief loss
    opponents.py    the matchmaker: table sizes, self-play, scripted bots and the snapshot pool
    trainer.py      the loop: rollouts, updates, evaluation, logs, checkpoints, resume
    workers.py      an update's rollout split over worker processes (on-policy, seeded per worker)
    checkpoint.py   atomic checkpoint files, checked on load
    policy_bot.py   PolicyBot: a checkpoint seated as a Bot
    evaluation.py   tournaments with win rates, confidence intervals and belief AUC
    plots.py        the learning-curve figure
    progress.py     the progress bar of long work
    imitation.py    the warm start: cloning the heuristic bot before PPO
    speed.py        training throughput for scripts/benchmark_training.py
    train_cli.py    the train command line: Args read by tyro on top of a preset or a resumed run
    commands.py     the train and eval commands (argument parsing and printing)

Run it with `scripts/train.py` or `rlyeh train`; see the README's Training section.
"""
