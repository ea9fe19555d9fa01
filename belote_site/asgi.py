"""ASGI entry point, served by Daphne: ``daphne belote_site.asgi:application``.

HTTP goes to Django; websockets are authenticated from the session cookie and only
accepted from an allowed host (Origin header checked against ALLOWED_HOSTS).

Defaults to the production settings, so a server never runs with DEBUG by accident;
development sets DJANGO_SETTINGS_MODULE=belote_site.settings.dev (see scripts/run-dev).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "belote_site.settings.prod")

# Set up Django (apps, models) before importing anything that touches models.
from belote_site.handlers import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
