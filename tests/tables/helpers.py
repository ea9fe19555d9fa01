"""Helpers of the table page tests: clients, htmx requests, and a table's snapshot."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from games.models import Invitation, Table
from games.tables import lobby


def url(name: str, table: Table, *args) -> str:
    return reverse(f"games:{name}", args=[table.pk, *args])


def invite(table: Table, *users) -> None:
    for user in users:
        lobby.invite_user(table=table, by=table.created_by, username=user.username)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def htmx_post(client: Client, path: str, data: dict | None = None):
    """A POST as hx-post sends it."""
    return client.post(path, data or {}, headers={"hx-request": "true"})


def seat_holders(table: Table) -> list:
    """Who holds N E S W: a username, a bot level, or None."""
    return [
        seat.user.username if seat.user else (seat.bot_level or None)
        for seat in table.seats.select_related("user").order_by("position")
    ]


def snapshot(table: Table) -> dict:
    """What a refused request must leave untouched."""
    table.refresh_from_db()
    return {
        "version": table.version,
        "status": table.status,
        "token": table.invite_token,
        "seats": seat_holders(table),
        "invitations": sorted(Invitation.objects.filter(table=table).values_list("user_id", "via")),
        "actions": table.actions.count(),
    }
