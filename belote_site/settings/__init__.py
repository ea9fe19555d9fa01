"""Settings split by environment: base (shared), dev, test and prod (and bench, the test
settings with a Redis cache, for bench/redis_outage_bench.py).

Pick one with DJANGO_SETTINGS_MODULE, e.g. ``belote_site.settings.prod``.
"""
