"""Admin pages: every model can be looked at; the history (games to actions) cannot be edited."""

import random
import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from games import rules as engine
from games.models import Action, Game, Hand, Table, Trick
from games.tables.selectors import hand_state
from games.tables.verification import verify_table
from tests.factories import make_table, make_user, play_random_move, started_table

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
    # Its invitation token looks like cards, always (``codes_on`` takes it out).
    Table.objects.filter(pk=table.pk).update(invite_token="7S-8H_9D-TC_JS-QH_KD-AC_AS-KH")
    table.refresh_from_db()
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


def test_the_pace_of_a_table_in_play_is_read_only(admin_client, table):
    """Its time per move made the deadline of the turn under way: changed in the admin,
    the deadline would not follow. Posted anyway, it changes nothing."""
    page = admin_client.get(url(Table, "change", table.pk))
    for name in ("pace", "move_seconds", "fill_with_bots", "bot_level"):
        assert f'name="{name}"' not in page.text
    before = Table.objects.values("pace", "move_seconds", "deadline").get(pk=table.pk)

    data = posted_form(page, pace="async", move_seconds="86400")
    response = admin_client.post(url(Table, "change", table.pk), data)

    assert response.status_code == 302, response.context["errors"]
    assert Table.objects.values("pace", "move_seconds", "deadline").get(pk=table.pk) == before


# ---------------------------------------------------------------------------------------
# A table's status and seats: the service's once the table has left the lobby


def posted_form(page, **changes) -> dict:
    """The change form of ``page`` as the browser would post it back, with ``changes``
    (field names as posted, ``seats-0-user`` for an inline field)."""
    data = {}
    forms = [("", page.context["adminform"].form)]
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        forms += [("inline", form) for form in formset.forms]
    for _, form in forms:
        for name, field in form.fields.items():
            value = field.prepare_value(form[name].value())
            if value is True:
                data[form.add_prefix(name)] = "on"
            elif value not in (None, False):
                data[form.add_prefix(name)] = value
    data.update(changes)
    return data


def seats_and_state(table: Table) -> tuple:
    table.refresh_from_db()
    seats = list(table.seats.order_by("position").values_list("user", "bot_level"))
    return (table.status, table.version, table.actions.count(), seats)


def test_a_started_table_shows_its_status_and_seats_read_only(admin_client, table):
    page = admin_client.get(url(Table, "change", table.pk))

    assert 'name="status"' not in page.text
    assert 'name="seats-0-user"' not in page.text
    assert 'name="seats-0-bot_level"' not in page.text
    assert "ne se changent plus ici" in page.text
    assert "Abandonner les tables choisies" in page.text


def test_a_seat_or_status_posted_for_a_started_table_changes_nothing(admin_client, table):
    """A seat given to a bot during play would write no action and leave the human's
    clock running: the admin ignores it, and the status too."""
    page = admin_client.get(url(Table, "change", table.pk))
    before = seats_and_state(table)
    data = posted_form(page, status="abandoned", **{"seats-0-bot_level": "random"})
    data["seats-0-user"] = ""

    response = admin_client.post(url(Table, "change", table.pk), data)

    assert response.status_code == 302, response.context["errors"]
    assert seats_and_state(table) == before


def test_a_lobby_tables_seats_may_be_edited(admin_client):
    table = make_table(players={0: make_user()})
    page = admin_client.get(url(Table, "change", table.pk))
    assert 'name="seats-1-bot_level"' in page.text

    response = admin_client.post(
        url(Table, "change", table.pk), posted_form(page, **{"seats-1-bot_level": "random"})
    )

    assert response.status_code == 302, response.context["errors"]
    assert table.seats.get(position=1).bot_level == "random"
    table.refresh_from_db()
    assert table.status == Table.Status.LOBBY  # the status is never the admin's


def test_the_abandon_action_stops_a_table_through_the_service(admin_client, table):
    """One ``abandon`` action in the log, the version bumped: the log still replays to the
    rows, and a table already over is left as it is."""
    table.refresh_from_db()
    version = table.version
    data = {"action": "abandon", "_selected_action": [table.pk]}

    response = admin_client.post(url(Table, "changelist"), data, follow=True)

    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert table.version == version + 1
    assert table.actions.get(seq=table.version).kind == "abandon"
    assert verify_table(table) == []
    assert f"Tables abandonnées : {table.pk}." in response.text

    again = admin_client.post(url(Table, "changelist"), data, follow=True)

    assert "laissées telles quelles" in again.text
    table.refresh_from_db()
    assert table.version == version + 1


# ---------------------------------------------------------------------------------------
# The cards of a hand in play stay hidden (issue 13: "The admin shows the whole deck of a
# hand in play to superusers and to staff with view rights")


@pytest.fixture
def viewer_client(client):
    """Staff with the view rights on tables and their history, no more."""
    viewer = make_user("viewer", is_staff=True)
    names = ["view_table", "view_game", "view_hand", "view_trick", "view_action"]
    viewer.user_permissions.set(Permission.objects.filter(codename__in=names))
    client.force_login(viewer)
    return client


def hidden_codes(hand: Hand) -> set[str]:
    """The cards of ``hand`` nobody has seen yet: neither played nor the turned card."""
    state = hand_state(hand.game.table, hand)
    seen = {card for trick in state.tricks for card in trick.cards} | set(state.trick)
    seen |= {state.turned} if state.turned >= 0 else set()
    return {engine.code_of(card) for card in state.deck if card not in seen}


def codes_on(page: str, codes: set[str], table: Table) -> set[str]:
    """Which of the card ``codes`` the page shows, alone or within a run of cards. The
    table's invitation token is taken out first: drawn from letters, digits, "-" and "_",
    it may hold "-AS_" and is no card."""
    page = page.replace(table.invite_token, " ")
    shown = set()
    for run in re.findall(r"(?<![0-9A-Za-z])(?:[789TJQKA][SHDC])+(?![0-9A-Za-z])", page):
        shown |= {run[i : i + 2] for i in range(0, len(run), 2)} & codes
    return shown


def admin_pages(table: Table, hand: Hand) -> list[str]:
    """Every admin page where a hand, its tricks or its actions show."""
    pages = [
        url(Hand, "changelist"),
        url(Hand, "change", hand.pk),
        url(Game, "changelist"),
        url(Game, "change", hand.game_id),
        url(Table, "changelist"),
        url(Table, "change", table.pk),
        url(Trick, "changelist"),
        url(Action, "changelist"),
        f"{url(Action, 'changelist')}?table__id__exact={table.pk}",
    ]
    pages += [url(Trick, "change", pk) for pk in hand.tricks.values_list("pk", flat=True)]
    pages += [url(Action, "change", pk) for pk in table.actions.values_list("pk", flat=True)]
    return pages


@pytest.mark.parametrize("who", ["admin_client", "viewer_client"])
def test_no_admin_page_shows_the_unplayed_cards_of_a_hand_in_play(request, who, table):
    client = request.getfixturevalue(who)
    hand = Hand.objects.get(game__table=table)
    hidden = hidden_codes(hand)
    assert len(hidden) > 20 and not hand.is_over

    for page in admin_pages(table, hand):
        response = client.get(page)
        assert response.status_code == 200, page
        assert hand.deck not in response.text, page
        assert codes_on(response.text, hidden, table) == set(), page

    change = client.get(url(Hand, "change", hand.pk)).text
    assert escape("Caché jusqu'à la fin de la donne.") in change


@pytest.mark.parametrize("who", ["admin_client", "viewer_client"])
def test_the_admin_shows_the_deck_of_a_finished_hand(request, who):
    client = request.getfixturevalue(who)
    table = started_table()
    rng = random.Random(5)
    while Hand.objects.filter(game__table=table).count() < 2:
        play_random_move(table, rng)
    finished, in_play = Hand.objects.filter(game__table=table).order_by("number")

    shown = client.get(url(Hand, "change", finished.pk)).text
    hidden = client.get(url(Hand, "change", in_play.pk)).text

    assert finished.deck in shown
    assert in_play.deck not in hidden
    assert codes_on(hidden, hidden_codes(in_play), table) == set()


def test_the_played_cards_and_the_contract_of_a_hand_in_play_show(admin_client, table):
    hand = Hand.objects.get(game__table=table)
    trick = hand.tricks.get(number=1)

    page = admin_client.get(url(Hand, "change", hand.pk)).text

    assert trick.cards in page  # the trick inline
    assert hand.get_contract_display() in page


@pytest.mark.parametrize("view", ["change", "history", "delete"])
def test_a_row_id_past_the_range_of_a_relation_key_is_no_row_not_a_500(admin_client, view):
    """A hand's analysis is keyed by its hand (a relation): Django bounds an integer key,
    not this one, and SQLite refused to bind 2**63 (found by the fuzz test)."""
    response = admin_client.get(f"/admin/games/handanalysis/{2**63}/{view}/")
    # The admin's "no such row" redirect; deleting is refused before any look-up.
    assert response.status_code == (403 if view == "delete" else 302)
