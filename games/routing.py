"""Websocket routes, mounted by belote_site.asgi; the table consumer will be added here."""

websocket_urlpatterns: list = []
