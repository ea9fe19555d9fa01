"""The arena (manage.py belote_arena): a few duplicate deals as a smoke test; the strength
figures come from the bench (README "Bots")."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.bots import expert
from games.bots.arena import play_arena
from games.rules import PRESETS


def test_the_arena_prints_the_difference_its_interval_and_the_timings():
    out = StringIO()
    call_command("belote_arena", a="random", b="heuristic", deals=3, preset="moderne", stdout=out)
    text = out.getvalue()
    assert "3 duplicate deals of moderne" in text
    assert "points per deal, 95% CI [" in text
    assert "random: contracts taken" in text and "heuristic: contracts taken" in text
    assert "p95" in text


def test_duplicate_deals_cancel_the_cards():
    """The same level on both sides: every deal is played the same way twice, so each
    deal's difference is exactly zero."""
    result = play_arena(PRESETS["classique"], "heuristic", "heuristic", 6, seed=3)
    assert result.diffs == [0.0] * 6
    assert result.a.taken + result.b.taken > 0


def test_the_expert_in_the_arena_is_seeded():
    first = play_arena(PRESETS["classique"], "expert", "heuristic", 1, seed=1)
    again = play_arena(PRESETS["classique"], "expert", "heuristic", 1, seed=1)
    assert first.diffs == again.diffs


def test_no_deals_is_refused():
    with pytest.raises(CommandError):
        call_command("belote_arena", deals=0, stdout=StringIO())


def test_the_arena_plays_the_expert_at_the_budget_it_is_given_then_restores_it():
    before = expert.current_budget()
    out = StringIO()
    call_command(
        "belote_arena",
        deals=1,
        samples=2,
        bid_samples=2,
        exact_tricks=2,
        play_inference=0,
        bid_inference="off",
        pass_played="off",
        stdout=out,
    )
    text = out.getvalue()
    assert "2 deals per card, 2 per contract when bidding, exact from 2 tricks left" in text
    assert "bid inference off, pass played off, play inference 0" in text
    assert expert.current_budget() == before
