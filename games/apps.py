from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Parties")

    def ready(self) -> None:
        from belote_site import lookups

        # id__in=[2**63] matches nothing instead of failing on SQLite (a 500 in the admin).
        lookups.register()
        listen()
        expert_budget()


def expert_budget() -> None:
    """The expert bot's budget from ``settings.BELOTE_EXPERT_BUDGET``."""
    from django.conf import settings

    from games.bots import expert

    expert.configure(expert.Budget(**getattr(settings, "BELOTE_EXPERT_BUDGET", {})))


def listen() -> None:
    """Who hears what a lower layer tells (games/tables/signals.py, accounts/signals.py):
    the one place that wires a concern to the changes of another, in this order."""
    from accounts import signals as accounts_signals
    from games import notifications
    from games.live import broadcast
    from games.ratings import service as ratings
    from games.tables import signals
    from games.timing import absence, vacations
    from games.tournaments import service as tournaments

    def turn_notification(sender, *, table_id, version, live, **kwargs):
        if not live:  # live tables get no turn notifications: not even the query deciding it
            notifications.turn_started(table_id, version)

    def rate_game(sender, *, game, **kwargs):
        ratings.rate_game(game)

    def match_result(sender, *, game, **kwargs):
        tournaments.game_finished(game)

    def notifications_read(sender, *, user_id, table_id, **kwargs):
        notifications.table_seen(user_id, table_id)

    def open_table_closed(sender, *, table_id, version, user_ids, **kwargs):
        notifications.open_table_closed(table_id, version, user_ids)

    signals.table_changed.connect(turn_notification, weak=False, dispatch_uid="notify")
    signals.table_changed.connect(absence.queue_absence_check, dispatch_uid="absence")
    signals.table_changed.connect(broadcast.broadcast_on_commit, dispatch_uid="broadcast")
    signals.chat_changed.connect(broadcast.chat_on_commit, dispatch_uid="chat")
    signals.game_ended.connect(rate_game, weak=False, dispatch_uid="ratings")
    signals.game_ended.connect(match_result, weak=False, dispatch_uid="tournaments")
    signals.table_opened.connect(notifications_read, weak=False, dispatch_uid="notifications")
    signals.open_table_closed.connect(open_table_closed, weak=False, dispatch_uid="closed")
    signals.open_tables_changed.connect(broadcast.open_tables_on_commit, dispatch_uid="open")
    accounts_signals.vacations_changing.connect(vacations.clocks_before, dispatch_uid="clocks")
    accounts_signals.vacations_changed.connect(vacations.clocks_after, dispatch_uid="clocks")
