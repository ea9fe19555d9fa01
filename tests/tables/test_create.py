"""Creating a private table: a preset, its target and options, the pace, bots for free seats."""

import pytest
from django.urls import reverse

from games.models import Table
from games.tables import lobby
from games.tables.service import ServiceError

pytestmark = pytest.mark.django_db

CREATE = reverse("games:create")


def form(**fields) -> dict:
    data = {
        "preset": "classique",
        "target": "1000",
        "announces": "off",
        "pace": "live",
        "live_seconds": "120",
        "async_hours": "24",
        "seat": "2",
        "bot_level": "heuristic",
    }
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def test_the_form_offers_the_options_of_the_chosen_preset(as_creator):
    classique = as_creator.get(CREATE).text
    assert 'name="announces"' in classique
    assert 'value="auto"' in classique
    assert 'name="seven_exchange"' not in classique

    moderne = as_creator.get(CREATE, {"preset": "moderne"}).text
    assert 'name="redeal_main_nulle"' in moderne
    assert 'name="announces"' not in moderne
    assert '<option value="1500"' in moderne

    stekius = as_creator.get(CREATE, {"preset": "stekius"}).text
    assert 'name="seven_exchange"' in stekius
    assert '<option value="501" selected' in stekius


def test_htmx_gets_only_the_options_of_another_preset(as_creator):
    response = as_creator.get(CREATE, {"preset": "stekius"}, headers={"hx-request": "true"})

    assert response.status_code == 200
    assert 'id="preset-options"' in response.text
    assert 'name="seven_exchange"' in response.text
    assert "<html" not in response.text
    assert 'name="pace"' not in response.text


def test_create_a_live_classique_table_with_automatic_announces(as_creator, creator):
    response = as_creator.post(CREATE, form(announces="auto", target="501", live_seconds="90"))

    table = Table.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.pk])
    assert table.created_by == creator
    assert table.status == Table.Status.LOBBY
    assert table.options == {"announces": "auto", "target": 501}
    assert table.rules.target == 501
    assert (table.pace, table.move_seconds) == ("live", 90)
    assert table.seats.get(position=2).user == creator  # South by default
    assert table.seats.filter(user__isnull=True, bot_level="").count() == 3
    assert "Votre table est prête" in as_creator.get(response.url).text


def test_create_an_asynchronous_stekius_table_without_the_seven_exchange(as_creator, creator):
    data = form(
        preset="stekius",
        target="1001",
        announces=None,
        pace="async",
        async_hours="48",
        seat="0",
        fill_with_bots="on",
        bot_level="random",
    )
    as_creator.post(CREATE, data)  # seven_exchange unchecked

    table = Table.objects.get()
    assert table.options == {"seven_exchange": False, "target": 1001}
    assert (table.pace, table.move_seconds) == ("async", 48 * 3600)
    assert (table.fill_with_bots, table.bot_level) == (True, "random")
    assert table.seats.get(position=0).user == creator


def test_moderne_keeps_its_redeal_options_when_ticked(as_creator):
    data = form(
        preset="moderne",
        announces=None,
        redeal_main_nulle="on",
        redeal_four_sevens="on",
        target="500",
    )
    as_creator.post(CREATE, data)

    table = Table.objects.get()
    assert table.options == {"target": 500}
    assert table.rules.redeal_main_nulle and table.rules.redeal_four_sevens


def test_belote_com_has_no_option_but_its_target(as_creator):
    as_creator.post(CREATE, form(preset="belote_com", target="501", announces="auto"))

    table = Table.objects.get()
    assert table.options == {}  # the posted announces are not an option of belote_com
    assert table.rules.announces == "off"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"target": "1500"}, "target", "Sélectionnez un choix valide"),
        ({"announces": "declared"}, "announces", "Sélectionnez un choix valide"),
        ({"preset": "tarot"}, "preset", "Sélectionnez un choix valide"),
        ({"live_seconds": "10"}, "live_seconds", "Choisissez un temps entre 30 et 600"),
        ({"live_seconds": "601"}, "live_seconds", "Choisissez un temps entre 30 et 600"),
        ({"live_seconds": ""}, "live_seconds", "Indiquez le temps par coup"),
        ({"live_seconds": "deux"}, "live_seconds", "Saisissez un nombre entier"),
        ({"pace": "async", "async_hours": "169"}, "async_hours", "entre 1 et 168"),
        ({"pace": "async", "async_hours": "0"}, "async_hours", "entre 1 et 168"),
        ({"pace": "async", "async_hours": ""}, "async_hours", "Indiquez le temps par coup"),
        ({"pace": "slow"}, "pace", "Sélectionnez un choix valide"),
        ({"seat": "4"}, "seat", "Sélectionnez un choix valide"),
        ({"bot_level": "genius"}, "bot_level", "Sélectionnez un choix valide"),
        ({"timeout_policy": "pause"}, "timeout_policy", "Sélectionnez un choix valide"),
        (
            {"timeout_policy": "forfeit", "forfeit_after": "0"},
            "forfeit_after",
            "Choisissez un nombre de dépassements entre 1 et 10",
        ),
        (
            {"timeout_policy": "forfeit", "forfeit_after": "11"},
            "forfeit_after",
            "Choisissez un nombre de dépassements entre 1 et 10",
        ),
        (
            {"timeout_policy": "forfeit", "forfeit_after": ""},
            "forfeit_after",
            "Choisissez un nombre de dépassements entre 1 et 10",
        ),
    ],
)
def test_invalid_choices_are_refused_with_a_clear_error(as_creator, fields, field, message):
    response = as_creator.post(CREATE, form(**fields))

    assert response.status_code == 422
    assert not Table.objects.exists()
    html = response.text
    assert "La table n'a pas été créée" in html
    assert message in html
    assert f'id="id_{field}_error"' in html  # the error is tied to its field
    assert 'aria-invalid="true"' in html


def test_the_form_offers_both_timeout_policies(as_creator):
    html = as_creator.get(CREATE).text

    assert "Quand le temps est écoulé" in html
    assert "Un robot joue à la place du joueur absent" in html
    assert "L&#x27;équipe perd la partie après N dépassements" in html
    assert 'name="timeout_policy" value="bot"' in html
    assert 'name="forfeit_after"' in html


def test_a_table_lets_a_robot_play_for_the_absent_by_default(as_creator):
    response = as_creator.post(CREATE, form(timeout_policy="bot", forfeit_after="7"))

    table = Table.objects.get()
    assert (table.timeout_policy, table.forfeit_after) == ("bot", 3)  # N is ignored
    assert "Temps écoulé : un robot joue" in as_creator.get(response.url).text


def test_a_table_without_the_policy_posted_keeps_the_robot(as_creator):
    as_creator.post(CREATE, form())

    assert Table.objects.get().timeout_policy == "bot"


def test_create_a_table_where_the_team_forfeits_after_n_timeouts(as_creator):
    response = as_creator.post(CREATE, form(timeout_policy="forfeit", forfeit_after="5"))

    table = Table.objects.get()
    assert (table.timeout_policy, table.forfeit_after) == ("forfeit", 5)
    html = as_creator.get(response.url).text
    assert "forfait après 5 dépassements" in html
    assert "un robot joue" not in html


@pytest.mark.parametrize("forfeit_after", [0, 11, "3", None])
def test_the_lobby_refuses_a_bad_number_of_timeouts(creator, forfeit_after):
    with pytest.raises(ServiceError) as refused:
        lobby.create_private_table(
            created_by=creator,
            preset="classique",
            target=1000,
            timeout_policy="forfeit",
            forfeit_after=forfeit_after,
        )

    assert refused.value.code == "bad_forfeit_after"
    assert refused.value.status == 422
    assert "entre 1 et 10" in refused.value.message
    assert not Table.objects.exists()


def test_the_lobby_refuses_an_unknown_timeout_policy(creator):
    with pytest.raises(ServiceError) as refused:
        lobby.create_private_table(
            created_by=creator, preset="classique", target=1000, timeout_policy="pause"
        )

    assert (refused.value.code, refused.value.status) == ("bad_timeout_policy", 422)
    assert not Table.objects.exists()


def test_the_unused_time_per_move_is_ignored(as_creator):
    as_creator.post(CREATE, form(pace="live", async_hours="9999"))

    assert Table.objects.get().move_seconds == 120


def test_htmx_posts_get_the_form_back_with_errors_or_a_redirect(as_creator):
    refused = as_creator.post(CREATE, form(target="42"), headers={"hx-request": "true"})
    assert refused.status_code == 422
    assert 'id="table-form"' in refused.text
    assert "<html" not in refused.text

    created = as_creator.post(CREATE, form(), headers={"hx-request": "true"})
    table = Table.objects.get()
    assert created.headers["HX-Redirect"] == reverse("games:table", args=[table.pk])


def test_creating_needs_a_login(client):
    response = client.post(CREATE, form())

    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))
    assert not Table.objects.exists()
