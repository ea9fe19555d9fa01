"""Admin pages: every model can be looked at; the history (games to actions) cannot be edited."""

import random

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Action, Game, Hand, Table, Trick
from tests.factories import play_random_move, started_table

pytestmark = pytest.mark.django_db

HISTORY = [Game, Hand, Trick, Action]


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("admin", "admin@example.org", "pw"))
    return client


@pytest.fixture
def table() -> Table:
    """A table in its first hand, one trick played at least."""
    table = started_table()
    rng = random.Random(4)
    while not Trick.objects.filter(hand__game__table=table).exists():
        play_random_move(table, rng)
    return table


def url(model, view: str, *args) -> str:
    return reverse(f"admin:games_{model._meta.model_name}_{view}", args=args)


def one_of(model, table: Table):
    lookups = {
        Table: {"pk": table.pk},
        Game: {"table": table},
        Hand: {"game__table": table},
        Trick: {"hand__game__table": table},
        Action: {"table": table},
    }
    return model.objects.filter(**lookups[model]).first()


@pytest.mark.parametrize("model", [Table, *HISTORY])
def test_changelist_and_change_pages_render(admin_client, table, model):
    obj = one_of(model, table)

    assert admin_client.get(url(model, "changelist")).status_code == 200
    assert admin_client.get(url(model, "change", obj.pk)).status_code == 200


def test_the_table_page_shows_its_seats_and_games(admin_client, table):
    html = admin_client.get(url(Table, "change", table.pk)).text

    for seat in table.seats.select_related("user"):
        assert seat.user.username in html
    assert "Partie" in html  # the game inline


@pytest.mark.parametrize("model", HISTORY)
def test_history_cannot_be_added(admin_client, model):
    assert admin_client.get(url(model, "add")).status_code == 403
    assert admin_client.post(url(model, "add"), {}).status_code == 403


@pytest.mark.parametrize("model", HISTORY)
def test_history_cannot_be_changed_or_deleted(admin_client, table, model):
    obj = one_of(model, table)
    before = list(model.objects.filter(pk=obj.pk).values())

    page = admin_client.get(url(model, "change", obj.pk))
    posted = admin_client.post(url(model, "change", obj.pk), {"number": 9, "seq": 99})
    deleted = admin_client.post(url(model, "delete", obj.pk), {"post": "yes"})

    assert 'name="_save"' not in page.text  # a view-only page: no save button
    assert posted.status_code == 403
    assert deleted.status_code == 403
    assert list(model.objects.filter(pk=obj.pk).values()) == before


def test_the_rules_of_a_table_in_play_are_read_only(admin_client, table):
    page = admin_client.get(url(Table, "change", table.pk))

    assert 'name="preset"' not in page.text
    assert 'name="status"' in page.text  # a table can still be marked abandoned
