"""GameConfig validation (R13.3, R13.4)."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from rlyeh_env.engine import GameConfig

INIT_FIELDS = [f.name for f in dataclasses.fields(GameConfig) if f.init]

# (field, bad values, good values, other fields set alongside)
RANGES = [
    ("num_players", [3, 9, 0, -4], [4, 8], {}),
    ("num_cultists", [0, 3, -1], [1, 2], {"num_players": 5}),
    ("num_cultists", [5], [4], {"num_players": 8}),
    ("hidden_cultist_min", [0, 3], [1, 2], {"num_players": 5}),
    ("hidden_cultist_max", [3, 0], [1, 2], {"num_players": 5}),
    ("hidden_cultist_max", [1], [2, 3], {"num_players": 6, "hidden_cultist_min": 2}),
    ("start_hour", [-1, 12], [0, 11], {}),
    ("cards_per_sigil", [3, 41], [4, 40], {}),
    ("hand_size", [0, 7], [1, 6], {}),
    ("incantation_size", [1, 13], [2, 12], {"incantation_threshold": 2}),
    ("incantation_threshold", [0, 8], [1, 7], {}),
    ("incantation_threshold", [4], [3], {"incantation_size": 3}),
    ("opposite_cancels", [-1, 4], [0, 3], {}),
    ("start_sanity", [0, 13], [1, 12], {}),
    ("investigate_sanity_loss", [-1, 4], [0, 3], {}),
    ("failed_incantation_sanity_loss", [-1, 4], [0, 3], {}),
    ("phobia_sanity_loss", [-1, 4], [0, 3], {}),
    ("curse_sanity_loss", [-1, 4], [0, 3], {}),
    ("ouija_sanity_loss", [-1, 4], [0, 3], {}),
    ("wrong_accusation_hours", [-1, 13], [0, 12], {}),
    ("necronomicon_earliest_hour", [-1, 12], [0, 11], {}),
    ("necronomicon_sanity_loss", [-1, 13], [0, 12], {}),
    ("necronomicon_offer", [0, 11], [1, 10], {}),
    ("necronomicon_offer", [3], [2], {"necronomicon_pages": (1, 0, 1)}),
    ("necronomicon_hours_back", [-1, 13], [0, 12], {}),
    ("insanity_copies", [0, 11], [1, 10], {}),
    ("sigil_reward", [-0.01, 1.01, math.nan, math.inf], [0.0, 0.5, 1.0, 0, 1], {}),
    ("necronomicon_pages", [(4, 3), (4, 3, 3, 1), (4, 3, -1), (0, 0, 0), [4, 3, 3], (4.0, 3, 3), (True, 3, 3)],
     [(1, 0, 0), (0, 0, 1), (10, 10, 10)], {"necronomicon_offer": 1}),
    ("hidden_cultist_count", [1, 0, "yes", None], [True, False], {}),
    ("extra_gods", [1, 0, "no", None], [True, False], {}),
    ("revealed_cultist_contributes", [1, 0, "no", None], [True, False], {}),
]


def test_config_every_field_has_a_range_test():
    """R13.4."""
    assert {r[0] for r in RANGES} == set(INIT_FIELDS)


@pytest.mark.parametrize("name,bad,good,extra", RANGES, ids=[f"{r[0]}-{i}" for i, r in enumerate(RANGES)])
def test_config_out_of_range_values_raise_naming_field(name, bad, good, extra):
    """R13.3, R13.4 (R1.1, R1.2 ranges)."""
    for value in good:
        cfg = GameConfig(**{**extra, name: value})
        assert getattr(cfg, name) == value or (isinstance(value, float) and math.isnan(value))
    for value in bad:
        with pytest.raises(ValueError) as info:
            GameConfig(**{**extra, name: value})
        assert name in str(info.value), (name, value, str(info.value))


# hidden_cultist_min with a non-number: tested on its own below
WRONG_TYPES = [
    (name, value)
    for name in INIT_FIELDS
    for value in ("3", (1, 2), 2.5)
    if not (name == "hidden_cultist_min" and not isinstance(value, float))
]


@pytest.mark.parametrize("name,value", WRONG_TYPES)
def test_config_wrong_type_raises_value_error_naming_field(name, value):
    """R13.3."""
    if name == "sigil_reward" and value == 2.5:
        value = "0.5"
    if name == "necronomicon_pages" and value == (1, 2):
        value = "4,3,3"
    with pytest.raises(ValueError) as info:
        GameConfig(**{name: value})
    assert name in str(info.value)


@pytest.mark.parametrize("value", ["3", (1, 2)])
def test_config_hidden_min_wrong_type_raises_value_error(value):
    """R13.3."""
    with pytest.raises(ValueError, match="hidden_cultist_min"):
        GameConfig(hidden_cultist_min=value)


def test_config_int_error_message_gives_the_range():
    """R13.3."""
    with pytest.raises(ValueError, match=r"hand_size.*\[1, 6\].*7"):
        GameConfig(hand_size=7)


def test_config_bool_is_not_an_int():
    """R13.3."""
    with pytest.raises(ValueError, match="num_players"):
        GameConfig(num_players=True)
    with pytest.raises(ValueError, match="sigil_reward"):
        GameConfig(sigil_reward=True)


def test_config_num_cultists_with_hidden_count_refused():
    """R13.1, R13.3 (the engine refuses num_cultists in the hidden variant; R13.1 says it is ignored)."""
    with pytest.raises(ValueError, match="num_cultists"):
        GameConfig(num_cultists=1, hidden_cultist_count=True)


def test_config_hidden_bounds_checked_even_when_variant_off():
    """R13.4."""
    with pytest.raises(ValueError, match="hidden_cultist_max"):
        GameConfig(num_players=4, hidden_cultist_max=3)


def test_config_defaults():
    """R1.1, R1.2, R2.4, R3.3, R13.4."""
    cfg = GameConfig()
    assert cfg.num_players == 5 and cfg.cultists == 1 and cfg.first_hour == 2
    assert cfg.deck_size == 48
    assert [GameConfig(num_players=n).cultists for n in range(4, 9)] == [1, 1, 1, 1, 1]
    assert [GameConfig(num_players=n).first_hour for n in range(4, 9)] == [2, 2, 5, 7, 7]
    assert not cfg.revealed_cultist_contributes  # R7.14, since rules version 2


def test_config_is_frozen():
    """R13.4 (a config never changes once built)."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        GameConfig().hand_size = 4


def test_config_from_dict_rejects_unknown_fields():
    """R13.3."""
    with pytest.raises(ValueError) as info:
        GameConfig.from_dict({"num_players": 5, "num_player": 6, "zzz": 1})
    assert "num_player" in str(info.value) and "zzz" in str(info.value)


def test_config_from_dict_validates():
    """R13.3."""
    with pytest.raises(ValueError, match="hand_size"):
        GameConfig.from_dict({"hand_size": 0})


def test_config_dict_round_trip_through_json():
    """R13.4."""
    cfg = GameConfig(num_players=7, hidden_cultist_count=True, extra_gods=True, start_hour=3,
                     necronomicon_pages=(2, 0, 5), necronomicon_offer=2, sigil_reward=0.25)
    data = json.loads(json.dumps(cfg.to_dict()))
    assert set(data) == set(INIT_FIELDS)
    again = GameConfig.from_dict(data)
    assert again == cfg and again.necronomicon_pages == (2, 0, 5)
    assert GameConfig.from_dict({}) == GameConfig()


def test_r5_threshold_default_depends_on_the_table():
    """R5.5, R13.4: None takes 3 at 4 players and 4 otherwise, never above incantation_size."""
    assert [GameConfig(num_players=n).incantation_threshold for n in range(4, 9)] == [3, 4, 4, 4, 4]
    assert GameConfig(num_players=5, incantation_size=3).incantation_threshold == 3
    assert GameConfig(num_players=4, incantation_threshold=5).incantation_threshold == 5


def test_r9_hours_back_default_depends_on_the_table(monkeypatch):
    """R9.6, R13.4: None takes the table size's entry of R9.6's table, an int overrides it, and the
    resolved value is what the rules (and a saved game's config) use."""
    from rlyeh_env.engine import config

    assert [GameConfig(num_players=n).necronomicon_hours_back for n in range(4, 9)] == [
        config.DEFAULT_NECRONOMICON_HOURS_BACK[n] for n in range(4, 9)]
    monkeypatch.setitem(config.DEFAULT_NECRONOMICON_HOURS_BACK, 6, 1)
    assert GameConfig(num_players=6).necronomicon_hours_back == 1
    assert GameConfig(num_players=6, necronomicon_hours_back=4).necronomicon_hours_back == 4
    assert GameConfig(num_players=6).to_dict()["necronomicon_hours_back"] == 1
