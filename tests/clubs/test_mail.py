"""Club emails: an invitation tells the invitee, a join request the club's organisers;
sent by a task once committed, nothing for what was answered meanwhile."""

from __future__ import annotations

import pytest
from django.core import mail
from django_tasks_db.models import DBTaskResult

from accounts import clubs
from accounts.club_mail import club_mail_task, send_invitation_email, send_request_email
from accounts.models import Notify
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_an_invitation_is_mailed_once_committed(
    club, organiser, django_capture_on_commit_callbacks
):
    make_user("ines")

    with django_capture_on_commit_callbacks(execute=True):
        invitation = clubs.invite(club=club, by=organiser, username="ines")

    task = DBTaskResult.objects.get()
    assert task.task_path == "accounts.club_mail.club_mail_task"
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
