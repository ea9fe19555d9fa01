"""Settings split by environment: base (shared), dev, test and prod.

Pick one with DJANGO_SETTINGS_MODULE, e.g. ``belote_site.settings.prod``.
"""
