import pytest
from django.urls import reverse

from games.models import Table
from tests.tables.test_create import CREATE, form

pytestmark = pytest.mark.django_db


def test_annonces_offers_undertrumping_and_the_table_keeps_it(as_creator):
    page = as_creator.get(CREATE + "?preset=annonces").text
    assert "Pisser : sous-couper quand on ne peut pas surcouper" in page
    as_creator.post(CREATE, form(preset="annonces", announces="declared", target="1000"))
    table = Table.objects.get()
    assert table.rules.must_undertrump is False  # the box was not ticked
    table_page = as_creator.get(reverse("games:table", args=[table.pk])).text
    assert "Pisser : sous-couper quand on ne peut pas surcouper : non" in table_page
