"""Benchmarks that take Redis away (bench/redis_outage_bench.py): the test settings, with
what production has and they leave out, the cache on Redis (they keep it in memory) and
bots that wait before their move at a live table. REDIS_URL is required."""

from .test import *

CACHES = redis_caches(os.environ["REDIS_URL"])
BOT_DELAY_SECONDS = 1
