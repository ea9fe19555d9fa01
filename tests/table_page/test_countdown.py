"""The countdown of the player to act: how long is left, worked out from the table's
deadline ("il vous reste 5 h 12"), never the instant of that deadline; urgent near the
end; in the viewer's language. static/js/countdown.js counts it down in the browser
(tests/browser/test_motion_and_countdown.py)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone

from games.models import Table
from games.tables.countdown import duration_text, patterns, urgent_seconds
from tests.factories import seated_user, started_table
from tests.table_page.helpers import client_for, text_of, url

pytestmark = pytest.mark.django_db


def countdown_of(page: str) -> tuple[str, str]:
    """(class, text) of the page's countdown."""
    found = re.search(r'<span class="(countdown[^"]*)" role="timer"[^>]*>([^<]*)</span>', page)
    assert found, "no countdown on the page"
    return found.group(1), found.group(2)


def with_deadline(table: Table, *, pace: str, move_seconds: int, left: datetime.timedelta):
    Table.objects.filter(pk=table.pk).update(
        pace=pace, move_seconds=move_seconds, deadline=timezone.now() + left
    )
    table.refresh_from_db()
    return table


@pytest.fixture
def table() -> Table:
    return started_table()


def test_an_asynchronous_table_says_how_many_hours_are_left(table):
    with_deadline(
        table,
        pace="async",
        move_seconds=86400,
        left=datetime.timedelta(hours=5, minutes=12, seconds=30),
    )
    mover = seated_user(table, table.turn)
    other = seated_user(table, (table.turn + 1) % 4)

    mine = text_of(client_for(mover).get(url("table", table)))
    theirs = text_of(client_for(other).get(url("table", table)))

    assert countdown_of(mine) == ("countdown", "il vous reste 5 h 12")
    assert countdown_of(theirs) == ("countdown", "il lui reste 5 h 12")
    assert "avant le" not in mine
    deadline_ms = int(table.deadline.timestamp() * 1000)
    assert f'data-countdown="{deadline_ms}"' in mine


def test_a_live_table_counts_seconds_and_is_urgent_near_the_end(table):
    with_deadline(table, pace="live", move_seconds=60, left=datetime.timedelta(seconds=48))
    mover = seated_user(table, table.turn)
    classes, text = countdown_of(text_of(client_for(mover).get(url("board", table))))
    assert classes == "countdown"
    assert re.fullmatch(r"il vous reste 4\d s", text), text

    with_deadline(table, pace="live", move_seconds=60, left=datetime.timedelta(seconds=8))
    classes, text = countdown_of(text_of(client_for(mover).get(url("board", table))))
    assert classes == "countdown is-urgent"
    assert re.fullmatch(r"il vous reste [78] s", text), text


def test_a_passed_deadline_says_the_time_is_up(table):
    with_deadline(table, pace="live", move_seconds=60, left=datetime.timedelta(seconds=-3))
    mover = seated_user(table, table.turn)
    classes, text = countdown_of(text_of(client_for(mover).get(url("board", table))))
    assert (classes, text) == ("countdown is-urgent", "temps écoulé")


def test_the_countdown_reads_in_english(table):
    with_deadline(
        table,
        pace="async",
        move_seconds=3 * 86400,
        left=datetime.timedelta(days=2, hours=3, minutes=1),
    )
    mover = seated_user(table, table.turn)
    mover.language = "en"
    mover.save(update_fields=["language"])

    _, text = countdown_of(text_of(client_for(mover).get(url("table", table))))

    assert text == "you have 2 d 03 h left"


def test_the_dashboard_shows_the_time_left_instead_of_a_date(table):
    with_deadline(
        table, pace="async", move_seconds=86400, left=datetime.timedelta(minutes=7, seconds=30)
    )
    mover = seated_user(table, table.turn)

    page = text_of(client_for(mover).get("/tables/"))

    assert "Temps restant" in page and "Jouer avant le" not in page
    assert countdown_of(page)[1] == "il vous reste 7 min 30"


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (1, "1 s"),
        (59, "59 s"),
        (60, "1 min 00"),
        (61, "1 min 01"),
        (3599, "59 min 59"),
        (3600, "1 h 00"),
        (5 * 3600 + 12 * 60 + 59, "5 h 12"),
        (86400, "1 j 00 h"),
        (7 * 86400 - 1, "6 j 23 h"),
    ],
)
def test_durations_read_by_their_largest_unit(seconds, text):
    assert duration_text(seconds, patterns()) == text


def test_the_urgent_part_is_a_fifth_of_the_clock_and_at_least_ten_seconds():
    assert urgent_seconds(30) == 10
    assert urgent_seconds(120) == 24
    assert urgent_seconds(86400) == 17280
