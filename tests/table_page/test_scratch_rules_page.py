import pytest
from django.urls import reverse

from tests.factories import make_table, make_user

pytestmark = pytest.mark.django_db


def test_the_creator_reads_the_rules_and_a_stranger_gets_a_404(client):
    creator = make_user()
    table = make_table(created_by=creator, players={0: creator})
    client.force_login(creator)
    assert client.get(reverse("games:rules", args=[table.pk])).status_code == 200
    client.force_login(make_user())
    assert client.get(reverse("games:rules", args=[table.pk])).status_code == 404
