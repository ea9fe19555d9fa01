"""Local development: DEBUG on, emails printed on the console."""

from .base import *

DEBUG = True
SECRET_KEY = "django-insecure-dev-only-never-use-in-production"
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
