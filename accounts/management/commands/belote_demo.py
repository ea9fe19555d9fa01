"""Create demo players for local development; running it again changes nothing."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User

DEMO_PASSWORD = "belote-demo"
DEMO_PLAYERS = [
    ("alice", "Alice"),
    ("bob", "Bob"),
    ("chloe", "Chloé"),
    ("david", "David"),
]


class Command(BaseCommand):
    help = (
        f"Create the demo players ({', '.join(name for name, _ in DEMO_PLAYERS)}) with the "
        f"password {DEMO_PASSWORD!r}. Development only: refuses to run unless DEBUG is True."
    )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "belote_demo refuses to run with DEBUG=False: demo accounts have a public "
                "password and must never exist on a real site."
            )
        from games.demo import ensure_demo_club, ensure_demo_tables

        created = 0
        with transaction.atomic():
            for username, display_name in DEMO_PLAYERS:
                created += ensure_demo_player(username=username, display_name=display_name)
        self.stdout.write(
            f"Demo players ready ({created} created, {len(DEMO_PLAYERS) - created} already "
            f"there); password: {DEMO_PASSWORD}"
        )
        players = {u.username: u for u in User.objects.filter(username__in=dict(DEMO_PLAYERS))}
        others = [players[name] for name, _ in DEMO_PLAYERS[1:]]
        tables = ensure_demo_tables(players["alice"], others)
        self.stdout.write(f"Demo tables ready ({tables} created) for alice.")
        made = ensure_demo_club(players["alice"], others)
        self.stdout.write(f"Demo club ready ({made} created): /clubs/club-des-quatre/")


def ensure_demo_player(*, username: str, display_name: str) -> bool:
    """Create the player and its verified email address if missing; True if created."""
    email = f"{username}@example.com"
    user, created = User.objects.get_or_create(
        username=username,
        defaults={"email": email, "display_name": display_name},
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    EmailAddress.objects.update_or_create(
        user=user,
        email=email,
        defaults={"verified": True, "primary": True},
    )
    return created
