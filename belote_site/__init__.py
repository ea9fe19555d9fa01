"""Project package: settings, root URLs, ASGI entry point and the few site-wide views."""
