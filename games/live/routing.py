"""Websocket routes, mounted by belote_site.asgi."""

from django.urls import path, re_path

from games.live.consumers import NoSuchSocket, TableConsumer
from games.live.open_tables import OpenTablesConsumer

websocket_urlpatterns = [
    path("ws/tables/ouvertes/", OpenTablesConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    # Anything else (an id past int's limit included): refused, not a router error.
    re_path(r"", NoSuchSocket.as_asgi()),
]
