from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Parties")

    def ready(self) -> None:
        from belote_site import lookups

        # id__in=[2**63] matches nothing instead of failing on SQLite (a 500 in the admin).
        lookups.register()
