r"""
# The Gate of R'lyeh (`rlyeh_v0`)

Investigators race a doom clock to complete four incantations while hidden cultists, who do not
know each other, sabotage them. The full rules are in `RULES.md`; this docstring is the spec of
the environment built on them.

```python
from rlyeh_env import env
aec = env(num_players=5)
```

| | |
|---|---|
| API | PettingZoo AEC (`env()`, `raw_env()`; `rlyeh_v0` re-exports both) |
| Agents | `player_0` .. `player_{n-1}`, n = 4..8 |
| Action space | `Discrete(61)` |
| Observation space | `Dict(observation=Box(0, 1, (1369,), float32), action_mask=Box(0, 1, (61,), int8))`; `(4777,)` with `observation_mode="history"` |
| State space | `Box(0, 1, (1501,), float32)` (`state()`: seat 0's observation + the hidden truth); `(4909,)` in history mode |
| Render modes | `ansi` (returns text), `human` (prints text); both show the full truth |
| Options | `env(num_players=5, render_mode=None, observation_mode="seat", illegal_moves_end_game=False, **GameConfig fields)` |

## Agents and turns
Every decision is one AEC step of the agent that must take it: the acting player's main action,
its sub-decisions (cards to discard, the card to take and the card to give when investigating,
the gambled card to play, an equipment target, a Necronomicon page), the pocket-watch holder's
target declaration, and each voter's secret vote. `agent_selection` is always the agent whose
decision it is. Roles are dealt at random and never depend on the seat number.

## Observation
A flat float32 vector, fixed size for every table from 4 to 8 seats (padded to 8), all values in
[0, 1]. It is **seat-relative**: row 0 of every seat-indexed piece is the observer, row k is the
player k seats to its left (clockwise); rows beyond the table are zero. It holds only what the
observing seat may know. `rlyeh_env.observation.SEAT_LAYOUT.views(vector)` returns every piece below
as a named, shaped view. Counts are divided by the natural maximum (hand size, incantation size,
deck size); counts that can grow without bound are shown as min(count, 4) / 4.

| index range | piece | shape | meaning |
|---|---|---|---|
| 0-1 | `me.role` | (2,) | own role one-hot: investigator, cultist |
| 2-5 | `me.hand` | (4,) | own hand: cards of each sigil / hand size |
| 6-9 | `me.pool_mine` | (4,) | sigils I put into the current pool / incantation size |
| 10-13 | `me.pool_look` | (4,) | sigils I saw at my last look into the current pool (Investigate, Lantern) |
| 14-14 | `me.pool_look_size` | (1,) | pool size at that look / incantation size (0: no look at this pool) |
| 15-15 | `me.pool_look_current` | (1,) | 1 if the pool has not changed size since that look |
| 16-39 | `me.known_roles` | (8, 3) | per seat what I know of its role: unknown, investigator, cultist (own, revealed, Ouija board) |
| 40-79 | `me.seen_hands` | (8, 5) | per seat: seen through my Spyglass (flag), then that hand / hand size |
| 80-94 | `me.deck_top` | (3, 5) | next deck cards I know (Almanac): known flag, sigil one-hot |
| 95-99 | `table.size` | (5,) | number of players one-hot (4..8) |
| 100-104 | `table.cultists` | (5,) | number of cultists one-hot (index 0: hidden by the variant) |
| 105-117 | `clock.hour` | (13,) | clock one-hot, hours 0..12 (12 = midnight) |
| 118-118 | `clock.round` | (1,) | min(rounds played, 12) / 12 |
| 119-122 | `sigils.activated` | (4,) | activated sigils |
| 123-127 | `sigils.target` | (5,) | target sigil one-hot; index 4: not declared |
| 128-163 | `sigils.gods` | (4, 9) | god behind each sigil, one-hot (4 basic + 5 extra gods) |
| 164-164 | `pool.size` | (1,) | cards in the pool / incantation size |
| 165-168 | `pool.face_up` | (4,) | face-up pool cards of each sigil / incantation size |
| 169-176 | `pool.contributions` | (8,) | per seat: cards contributed to the current pool / incantation size |
| 177-184 | `pool.investigations` | (8,) | per seat: investigations of the current pool |
| 185-192 | `pool.swaps` | (8,) | per seat: swaps into the current pool |
| 193-194 | `cards.deck_and_discard` | (2,) | deck and discard pile sizes / deck size |
| 195-202 | `turn.watch` | (8,) | seat holding the pocket watch |
| 203-210 | `turn.player` | (8,) | seat whose turn it is |
| 211-450 | `players` | (8, 30) | per seat public status: present, sanity / start, mad, held Insanity cards (6, / copies), revealed (none, investigator, cultist), character (8), equipment (8), equipment used, proposed the Necronomicon |
| 451-458 | `players.hand_size` | (8,) | per seat: cards in hand / hand size |
| 459-461 | `necronomicon` | (3,) | read this game; hour reached for proposing; I have proposed |
| 462-472 | `decision.phase` | (11,) | the pending decision one-hot (`engine.state.Phase`) |
| 473-476 | `decision.gamble_cards` | (4,) | (decider only) the two gambled cards, 0.5 each |
| 477-477 | `decision.discarded` | (1,) | (decider only) cards discarded so far in this Research / hand size |
| 478-481 | `decision.taken` | (4,) | (decider only) sigil taken from the pool, waiting for the give step |
| 482-483 | `decision.vote_kind` | (2,) | vote in progress: accusation, Necronomicon |
| 484-491 | `decision.vote_proposer` | (8,) | seat that proposed the vote in progress |
| 492-499 | `decision.vote_accused` | (8,) | seat accused in the vote in progress |
| 500-502 | `decision.pages` | (3,) | (decider only) Necronomicon pages offered / pages offered |
| 503-902 | `history.incantations` | (8, 50) | last 8 incantations, oldest first, each: present, target (4), revealed cards (4), matches / opposites / others (3), success, hour / 12, per seat (8 x: contributions, face-up opposite cards, investigations, swaps), my own cards in it (4) |
| 903-1292 | `history.votes` | (10, 39) | last 10 votes, oldest first, each: present, kind (2), proposer (8), accused (8), Yes voters (8), No voters (8), passed, revealed role (2), hour / 12 |
| 1293-1304 | `history.reading` | (12,) | the Necronomicon reading: present, reader (8), page enacted (3) |
| 1305-1368 | `history.suspicion` | (8, 8) | per seat running totals: cards fed to failed / successful incantations, face-up opposite cards played, investigations, swaps, accusations that revealed an investigator, Yes votes revealing investigators, No votes against revealed cultists |

With `observation_mode="history"` the vector goes on with

| index range | piece | shape | meaning |
|---|---|---|---|
| 1369-4776 | `log` | (48, 71) | the last 48 events this seat witnessed (public ones and its own private ones), oldest first, each: kind one-hot (41, `engine.state.EVENT_KINDS`), actor (8 relative seats + none), target (8 relative seats + none; for events whose target is not a seat, the number min(target, 7)), value one-hot (-1..9), hour / 12 |

## Legal action mask
`action_mask[a] == 1` exactly when action `a` is legal for the observing agent now; it is all
zeros for every agent that is not deciding. The mask equals `engine.legal_actions(state)`.

## Action space
One flat `Discrete(61)`; every id has one meaning. Actions naming a player use the clockwise
offset from the actor (1 = next seat), so they read the same from every seat.

| ids | action | when |
|---|---|---|
| 0-3 | Contribute a card of sigil s | main action |
| 4 | Research (then discard steps) | main action |
| 5 | Gamble (then play step) | main action |
| 6 | Investigate (then take and give steps) | main action |
| 7-13 | Accuse the player at offset 1-7 | main action |
| 14-20 | Curse the player at offset 1-7 | main action, revealed cultists only |
| 21 | Use equipment | free action on your turn, once per game |
| 22 | Propose consulting the Necronomicon | free action on your turn |
| 23-26 | Declare sigil s the target | pocket-watch holder |
| 27-30 | Discard a card of sigil s | Research |
| 31 | Stop discarding and refill | Research |
| 32-35 | Play the gambled card of sigil s | Gamble |
| 36-39 | Take a seen pool card of sigil s | Investigate |
| 40 | Swap nothing | Investigate |
| 41-44 | Give a hand card of sigil s | Investigate |
| 45, 46 | Vote No, Vote Yes | votes |
| 47-49 | Enact page Turn back time, Forbidden lore, Doom | Necronomicon reader |
| 50-56 | Equipment on the player at offset 1-7 | Pistol, Spyglass, Ouija board |
| 57-60 | Turn the target to sigil s | Compass |

An illegal action raises `IllegalActionError` naming the legal ones; so does anything that is
not an integer id (a float is never rounded, a bool is not an id) and any id out of range. With
`illegal_moves_end_game=True`, PettingZoo's `TerminateIllegalWrapper` ends the game instead and
gives the offender -1 for an illegal action id; an id out of range or a float then raises
`AssertionError` (PettingZoo's `AssertOutOfBoundsWrapper`).

## Rewards
Zero until the game ends; then +1 for every member of the winning team and -1 for every member
of the losing team (investigators win on the fourth sigil; cultists at midnight or by the
Necronomicon's Doom). Optional shaping, off by default: `sigil_reward=r` gives every investigator
+r and every cultist -r when a sigil is activated.

## Helpers
`raw_env.legal_moves(agent)` lists `(action, description)` in plain language;
`raw_env.render_seat(agent)` renders one seat's view as text, `render()` the full truth;
`raw_env.game` is the engine `Game` (config, seed, actions) and can be saved and replayed.

## Version history
- v0: first release.
"""

from .engine import GameConfig, IllegalActionError
from .rlyeh import env, raw_env

__all__ = ["GameConfig", "IllegalActionError", "env", "raw_env"]
__version__ = "0.1.0"
