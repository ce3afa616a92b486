"""Average the weights of several checkpoints of one lineage into one policy file.

    python scripts/average.py runs/v2q3/policies.pt runs/v2q4/policies.pt runs/v2q5/policies.pt --out runs/avg/policies.pt

Self-play rounds that each train against the last round's exploiters tend to move a weakness
rather than close it: each round fixes the hole the last exploiter found and forgets an older
fix. Fictitious play's answer is to play the average of the rounds. Averaging the *weights* is
the cheap approximation (stochastic weight averaging, Izmailov et al. 2018, and the "model soup"
of fine-tunes of one start): it stays one network, so it seats, trains against and is exploited
like any checkpoint. It is only meaningful for checkpoints of one lineage (each round started
from the one before, at a small learning rate), where the averaged weights stay in the same
basin; networks trained apart average to nonsense. So the result must be measured like any
candidate (`scripts/evaluate.py --candidate`, `scripts/exploit.py`), never assumed better.

Every file must hold the same network shape for each role and be of this env's rules; the
value network is dropped (a policy file is what a bot needs). The output records where it came
from (`averaged_from`) and is written atomically.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from rlyeh_env.policy.checkpoint import ROLE_KEYS, CheckpointError, load_checkpoint, save_checkpoint


def average_policies(paths: list[str | Path], weights: list[float] | None = None) -> dict:
    """The policy checkpoint payload whose weights are the (weighted) mean of `paths`' policies.
    Raises `CheckpointError` for a file that cannot be read or does not match the first, and
    `ValueError` for bad weights."""
    if len(paths) < 2:
        raise ValueError(f"averaging needs at least two checkpoints, got {len(paths)}")
    weights = [1.0] * len(paths) if weights is None else [float(w) for w in weights]
    if len(weights) != len(paths):
        raise ValueError(f"--weights gives {len(weights)} numbers for {len(paths)} checkpoints")
    if any(not w > 0 for w in weights):  # `not w > 0` also refuses NaN
        raise ValueError(f"--weights must all be > 0, got {weights}")
    shares = [w / sum(weights) for w in weights]
    files = [load_checkpoint(path) for path in paths]
    policies = {}
    for role in ROLE_KEYS:
        first = files[0]["policies"][role]
        for path, data in zip(paths[1:], files[1:]):
            if data["policies"][role].get("spec") != first.get("spec"):
                raise CheckpointError(
                    f"{path}: its {role.lower()} network is not {paths[0]}'s (spec {data['policies'][role].get('spec')} "
                    f"against {first.get('spec')}): only checkpoints of one network shape can be averaged")
        keys = [key for key in first["weights"] if not key.startswith("critic.")]  # a bot needs no critic
        averaged = {}
        for key in keys:
            tensors = [data["policies"][role]["weights"].get(key) for data in files]
            missing = [str(path) for path, tensor in zip(paths, tensors) if tensor is None]
            if missing:
                raise CheckpointError(f"{', '.join(missing)}: no {role.lower()} weight {key!r}, which {paths[0]} has")
            if tensors[0].is_floating_point():
                averaged[key] = sum(share * tensor.double() for share, tensor in zip(shares, tensors)).to(tensors[0].dtype)
            elif all(torch.equal(tensors[0], tensor) for tensor in tensors[1:]):
                averaged[key] = tensors[0].clone()  # a counter or index: kept when every file agrees
            else:
                raise CheckpointError(f"the {role.lower()} weight {key!r} is an integer tensor that differs between "
                                      "the files: it cannot be averaged")
        policies[role] = {**{k: v for k, v in first.items() if k != "weights"}, "weights": averaged}
    return {
        "kind": "policy",
        "args": files[-1].get("args", {}),
        "policies": policies,
        "update": files[-1].get("update", 0),
        "decisions": files[-1].get("decisions", 0),
        "averaged_from": [
            {"path": str(path), "weight": share, "update": data.get("update"), "decisions": data.get("decisions")}
            for path, share, data in zip(paths, shares, files)
        ],
    }


def average_main(argv: list[str] | None = None, prog: str | None = None) -> int:
    from rlyeh_env.arguments import ArgumentParser, fail, output_file
    from rlyeh_env.players import SCRIPTED, check_player, checkpoint_file

    parser = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoints", nargs="+", type=check_player,
                        help="two or more checkpoint files of one lineage (or shipped versions by name, e.g. v4)")
    parser.add_argument("--weights", nargs="+", type=float, help="one positive weight per checkpoint (default: equal)")
    parser.add_argument("--out", type=output_file, required=True, help="the averaged policy file to write")
    args = parser.parse_args(argv)
    scripted = [name for name in args.checkpoints if name.split(":")[0] in SCRIPTED]
    if scripted:
        parser.error(f"argument checkpoints: {scripted[0]!r} is a scripted bot; it has no weights to average")
    try:
        paths = [checkpoint_file(name) for name in args.checkpoints]
        payload = average_policies(paths, args.weights)
        save_checkpoint(args.out, payload)
    except (CheckpointError, ValueError) as err:
        return fail(parser.prog, str(err))
    except OSError as err:
        return fail(parser.prog, f"could not write {args.out} ({err})")
    sources = payload["averaged_from"]
    if len(sources) <= 4:
        print(f"saved {args.out}: the average of " + ", ".join(f"{s['path']} x{s['weight']:.3f}" for s in sources))
    else:  # a trajectory of snapshots: the list is in the file (averaged_from)
        print(f"saved {args.out}: the average of {len(sources)} checkpoints, {sources[0]['path']} to {sources[-1]['path']}")
    return 0


if __name__ == "__main__":
    sys.exit(average_main())
