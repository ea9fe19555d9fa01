"""Club emails: an invitation tells the invitee, a join request the club's organisers;
sent by a task once committed, nothing for what was answered meanwhile."""

from __future__ import annotations

import pytest
from django.core import mail
from django_tasks_db.models import DBTaskResult

from accounts.clubs import service as clubs
from accounts.clubs.mail import club_mail_task, send_invitation_email, send_request_email
from accounts.models import Notify
from tests.clubs.helpers import make_club
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_an_invitation_is_mailed_once_committed(
    club, organiser, django_capture_on_commit_callbacks
):
    make_user("ines")

    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, by=organiser, username="ines")

    task = DBTaskResult.objects.get()
    assert task.task_path == "accounts.clubs.mail.club_mail_task"
    assert task.args_kwargs["kwargs"] == {"kind": "invitation", "pk": invitation.pk}
    club_mail_task.call(kind="invitation", pk=invitation.pk)
    [message] = mail.outbox
    assert message.to == ["ines@example.org"]
    assert message.subject == "[Belote] Invitation au club Les Atouts"
    assert "oscar vous invite à rejoindre le club Les Atouts." in message.body
    assert "/clubs/" in message.body


def test_a_request_is_mailed_to_the_organisers(club, outsider):
    join_request = clubs.request_to_join(club=club, by=outsider, message="Le jeudi soir")

    assert send_request_email(join_request.pk) == 2

    assert sorted(m.to[0] for m in mail.outbox) == ["odile@example.org", "oscar@example.org"]
    assert "olivier demande à rejoindre le club Les Atouts." in mail.outbox[0].body
    assert "Le jeudi soir" in mail.outbox[0].body
    assert "/clubs/les-atouts/" in mail.outbox[0].body


def test_nothing_is_sent_for_what_was_answered_meanwhile(club, organiser, outsider):
    invitation = clubs.invite(club=club, by=organiser, username="olivier")
    clubs.decline_invitation(invitation=invitation, by=outsider)

    assert send_invitation_email(invitation.pk) == 0
    assert mail.outbox == []


def test_no_email_for_who_wants_none(club, organiser, outsider):
    outsider.notify = Notify.NEVER
    outsider.save()
    invitation = clubs.invite(club=club, by=organiser, username="olivier")

    assert send_invitation_email(invitation.pk) == 0


def test_a_refused_invitation_enqueues_nothing(club, member, django_capture_on_commit_callbacks):
    make_user("ines")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(clubs.ClubError):
        clubs.invite(club=club, by=member, username="ines")

    assert not DBTaskResult.objects.exists()


NAME = "<b>L'Étoile</b> & Cie"  # what HTML escaping would show as &lt;, &#x27; and &amp;


def test_a_subject_is_plain_text_and_the_html_part_escapes(organiser):
    club = make_club(NAME, owners=[organiser])
    make_user("ines")
    invitation = clubs.invite(club=club, by=organiser, username="ines")

    send_invitation_email(invitation.pk)

    [message] = mail.outbox
    assert message.subject == f"[Belote] Invitation au club {NAME}"
    assert f"le club {NAME}." in message.body
    [(html, _)] = message.alternatives
    assert "&lt;b&gt;L&#x27;Étoile&lt;/b&gt; &amp; Cie" in html
    assert "<b>L'" not in html


def test_a_join_request_subject_is_plain_text_in_english_too(organiser, outsider):
    club = make_club(NAME, owners=[organiser])
    organiser.language = "en"
    organiser.save()
    join_request = clubs.request_to_join(club=club, by=outsider, message="")

    send_request_email(join_request.pk)

    [message] = mail.outbox
    assert message.subject == f"[Belote] Membership request for the club {NAME}"


def test_a_line_break_in_a_name_leaves_the_subject_on_one_line(organiser):
    club = make_club("Les\nAtouts\r\n", owners=[organiser])
    make_user("ines")

    send_invitation_email(clubs.invite(club=club, by=organiser, username="ines").pk)

    assert mail.outbox[0].subject == "[Belote] Invitation au club Les Atouts"


def test_an_email_queued_by_the_code_before_the_clubs_package_is_still_sent(club, organiser):
    """A task row keeps its path: one queued under accounts.club_mail before an upgrade."""
    from django.utils.module_loading import import_string

    make_user("ines")
    invitation = clubs.invite(club=club, by=organiser, username="ines")

    import_string("accounts.club_mail.club_mail_task").call(kind="invitation", pk=invitation.pk)

    [message] = mail.outbox
    assert message.to == ["ines@example.org"]
