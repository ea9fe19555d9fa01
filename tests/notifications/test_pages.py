"""The unsubscribe link (no login needed; a GET never changes anything) and the in-app
notifications: the header's counter, the /notifications/ page, read on opening a table."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import Notify
from accounts.unsubscribe import unsubscribe_token
from games.models import Notification
from tests.factories import act
from tests.notifications.conftest import run_tasks, to_act

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def unsubscribe_path(message) -> str:
    (path,) = re.findall(r"https?://[^/\s]+(/comptes/desabonner/\S+/)", message.body)
    return path


# Unsubscribe -----------------------------------------------------------------------------


def test_the_emailed_link_unsubscribes_without_logging_in(start_async):
    table = start_async(Notify.IMMEDIATELY)
    run_tasks()
    path = unsubscribe_path(mail.outbox[0])
    client = Client()  # logged out

    page = client.get(path)
    assert page.status_code == 200
    assert "Ne plus recevoir de rappels" in page.text
    assert to_act(table).notify == Notify.IMMEDIATELY  # a GET changes nothing

    done = client.post(path)
    assert done.status_code == 200
    assert "plus aucun e-mail de rappel" in done.text
    assert to_act(table).notify == Notify.NEVER


def test_a_mail_clients_one_click_post_needs_no_csrf_token(start_async):
    table = start_async(Notify.IMMEDIATELY)
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        reverse("unsubscribe", args=[unsubscribe_token(to_act(table))]),
        {"List-Unsubscribe": "One-Click"},
    )

    assert response.status_code == 200
    assert to_act(table).notify == Notify.NEVER


def test_a_forged_token_is_refused_with_a_message(players):
    response = Client().post(reverse("unsubscribe", args=["pas-un-jeton"]))

    assert response.status_code == 400
    assert "pas valable ou a expiré" in response.text
    assert all(user.notify != Notify.NEVER for user in players)


def test_an_old_link_has_expired(players):
    user = players[0]
    with time_machine.travel(datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)) as traveller:
        token = unsubscribe_token(user)
        traveller.shift(datetime.timedelta(days=91))
        response = Client().get(reverse("unsubscribe", args=[token]))

    assert response.status_code == 400
    assert "a expiré" in response.text


# In-app notifications --------------------------------------------------------------------


def test_the_header_counts_unread_notifications(start_async):
    table = start_async(Notify.NEVER)
    run_tasks()
    client = logged_in(to_act(table))

    home = client.get(reverse("home"))

    assert '<span class="notification-count">1</span>' in home.text
    assert "notification non lue" in home.text


def test_no_counter_without_unread_notifications(players):
    home = logged_in(players[0]).get(reverse("home"))

    assert reverse("notifications") in home.text
    assert "notification-count" not in home.text


def test_the_page_lists_them_and_marks_all_read(start_async):
    table = start_async(Notify.NEVER)
    run_tasks()
    client = logged_in(to_act(table))

    page = client.get(reverse("notifications"))
    assert f"À vous de jouer à la table n° {table.pk}" in page.text
    assert "Tout marquer comme lu" in page.text

    response = client.post(reverse("notifications_read"), follow=True)
    assert "Toutes vos notifications sont lues." in response.text
    assert "notification-count" not in response.text
    assert not Notification.objects.filter(read_at=None).exists()


def test_marking_read_needs_a_post(start_async):
    table = start_async(Notify.NEVER)
    run_tasks()

    response = logged_in(to_act(table)).get(reverse("notifications_read"))

    assert response.status_code == 405
    assert Notification.objects.filter(read_at=None).count() == 1


def test_opening_the_table_marks_its_notifications_read(start_async):
    table = start_async(Notify.NEVER)
    run_tasks()
    client = logged_in(to_act(table))

    client.get(reverse("games:table", args=[table.pk]))

    assert Notification.objects.get().read_at is not None


def test_the_notifications_page_needs_a_login():
    response = Client().get(reverse("notifications"))

    assert response.status_code == 302
    assert reverse("account_login") in response.headers["location"]


def test_a_notification_is_shown_in_the_readers_language_of_the_moment(start_async):
    table = start_async(Notify.NEVER)
    user = to_act(table)
    run_tasks()  # written while the player read French
    user.language = "en"
    user.save(update_fields=["language"])
    client = logged_in(user)

    page = client.get(reverse("notifications"))

    assert f"Your turn at table no. {table.pk}" in page.text
    assert "À vous de jouer" not in page.text

    user.language = "fr"
    user.save(update_fields=["language"])
    assert f"À vous de jouer à la table n° {table.pk}" in client.get(reverse("notifications")).text


def pass_until_their_turn_again(table, user, capture) -> None:
    """Everyone passes (the player first) until the turn comes back to ``user``."""
    with capture(execute=True):
        act(table, "pass")
        while to_act(table) != user:
            act(table, "pass")
    run_tasks()


def test_the_turns_of_one_table_make_one_unread_line(
    start_async, django_capture_on_commit_callbacks
):
    table = start_async(Notify.NEVER)
    user = to_act(table)
    run_tasks()
    for _turn in range(2):
        pass_until_their_turn_again(table, user, django_capture_on_commit_callbacks)
    client = logged_in(user)

    page = client.get(reverse("notifications"))

    assert page.text.count(f"table n° {table.pk}") == 1
    assert '<span class="notification-count">1</span>' in page.text
    (line,) = Notification.objects.filter(user=user)
    table.refresh_from_db()
    assert line.version == table.version and line.read_at is None

    # Once read, the next turn is a new unread line; the read one stays in the list.
    client.get(reverse("games:table", args=[table.pk]))
    pass_until_their_turn_again(table, user, django_capture_on_commit_callbacks)
    assert Notification.objects.filter(user=user).count() == 2
    assert Notification.objects.filter(user=user, read_at=None).count() == 1
