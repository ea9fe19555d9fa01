"""The site the fuzz test visits: users in every situation a page can be in.

Built through the services, as in production (no row written by hand but the clubs'
memberships, as the club tests do). Each role is one visitor with their session; the
table whose id fills ``<table_id>`` in their URLs is the table they are at:

- ``anonymous`` and ``stranger`` (logged in, at no table) visit the table in play;
- ``lobby creator`` (seated South, a bot at North) and ``lobby invitee`` (invited by
  name, not seated) are at a table in the lobby;
- ``bidding``, ``card play``, ``between hands`` (the first hand over, its summary shown),
  ``finished`` (the game over, the rematch offered) and ``stood in`` (a bot plays for them
  at a live table) are seated players, the one to act where there is one;
- ``spectator`` came by the invitation link of the table in play;
- ``club owner``, ``club member`` (a vacation declared, a tournament open to register),
  ``club invitee`` (an invitation to answer) for the club pages;
- ``staff``: a superuser, for the admin.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

import time_machine
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from asgiref.sync import async_to_sync
from django.apps import apps
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from accounts import vacations
from accounts.clubs import service as clubs
from accounts.models import Club, ClubInvitation, ClubRole, JoinRequest, Membership, User
from accounts.unsubscribe import unsubscribe_token
from games.models import Pace, Table, Tournament
from games.tables import lobby, presence, service
from games.timing.absence import replace_absent
from games.tournaments import service as tournaments
from tests.factories import fixed_deck, make_user, play_to_the_end
from tests.table_page.helpers import finish_hand, take_at_once

N, E, S, W = range(4)
FAST = {"target": 500}  # the lowest target: a finished game in fewer hands


# The visitors, in the order they crawl the site (the first to reach a page fuzzes it).
ROLE_NAMES = [
    "anonymous",
    "stranger",
    "lobby creator",
    "lobby invitee",
    "bidding",
    "card play",
    "between hands",
    "finished",
    "stood in",
    "spectator",
    "club owner",
    "club member",
    "club invitee",
    "staff",
]
# Those who may watch their table (its websocket lets them in), from the lobby creator to
# the spectator: seated, invited, or come by the link.
WATCHERS = set(ROLE_NAMES[2:10])


@dataclass
class Role:
    name: str
    user: User | None
    table: Table


@dataclass
class World:
    roles: list[Role]
    tables: dict[str, Table]
    club: Club
    invitation: ClubInvitation
    join_request: JoinRequest
    member: User
    vacation_id: int
    open_tournament: Tournament
    running_tournament: Tournament
    unverified: EmailAddress
    extra: dict = field(default_factory=dict)

    def role(self, name: str) -> Role:
        return next(role for role in self.roles if role.name == name)

    def path_values(self, role: Role, pattern: str, params: list[str]) -> dict[str, str]:
        """The values that make ``pattern``'s URL one this role may well open; ``pattern``
        is the route's format string (``tables/%(table_id)s/``), used by the admin's."""
        user = role.user or self.member
        values = {
            "table_id": role.table.pk,
            "token": role.table.invite_token,
            "game_number": 1,
            "hand_number": 1,
            "slug": self.club.slug,
            "invitation_id": self.invitation.pk,
            "request_id": self.join_request.pk,
            "user_id": self.member.pk,
            # The organiser sees the tournament under way, everyone else the open one.
            "tournament_id": (
                self.running_tournament if role.name == "club owner" else self.open_tournament
            ).pk,
            "vacation_id": self.vacation_id,
            "username": self.member.username,
            # The admin's
            "app_label": "games",
            "id": self.member.pk,
            "content_type_id": ContentType.objects.get_for_model(Table).pk,
            "url": "nothing/here/",
            # allauth's: an address to confirm, a password reset link
            "uidb36": user_pk_to_url_str(self.member),
            "key": default_token_generator.make_token(self.member),
        }
        if pattern.startswith("comptes/desabonner/"):
            values["token"] = unsubscribe_token(user)
        if pattern.startswith("comptes/confirm-email/"):
            values["key"] = EmailConfirmationHMAC(self.unverified).key
        if "object_id" in params:
            values["object_id"] = self._admin_object(pattern)
        return {name: str(values.get(name, "1")) for name in params}

    def _admin_object(self, pattern: str) -> str:
        """The first row of the model an admin URL is about (``admin/<app>/<model>/``)."""
        parts = pattern.split("/")
        if pattern.startswith("admin/r/"):
            return str(self.tables["card play"].pk)
        try:
            model = apps.get_model(parts[1], parts[2])
        except (LookupError, IndexError):
            return "1"
        row = model._default_manager.order_by("pk").first()
        return str(row.pk) if row is not None else "1"


def _seated(table: Table, position: int) -> User:
    return table.seats.select_related("user").get(position=position).user


def _to_act(table: Table) -> User:
    table.refresh_from_db()
    return _seated(table, table.turn)


def _started(
    players: dict[int, User], *, creator: User, seed: int, spectators: bool = False, **fields
) -> Table:
    table = service.create_table(
        created_by=creator, preset="classique", options=FAST, players=players
    )
    if spectators:
        lobby.set_spectators(table=table, by=creator, allowed=True)
    if fields:
        Table.objects.filter(pk=table.pk).update(**fields)
    service.start_table(table_id=table.pk, first_dealer=N, deck=fixed_deck(seed))
    table.refresh_from_db()
    return table


def build() -> World:
    four = [make_user(name) for name in ("nadia", "etienne", "sophie", "william")]
    players = dict(enumerate(four))
    claire = make_user("claire")

    # The lobby: claire sits South, a bot North, ines is invited by name.
    ines = make_user("ines")
    lobby_table = service.create_table(
        created_by=claire, preset="classique", players={S: claire}, bots={N: "heuristic"}
    )
    lobby.invite_user(table=lobby_table, by=claire, username=ines.username)

    bidding = _started(players, creator=claire, seed=1)
    card_play = _started(players, creator=claire, seed=2, spectators=True)
    take_at_once(card_play)
    between = _started(players, creator=claire, seed=3)
    take_at_once(between)
    finish_hand(between)
    finished = play_to_the_end(_started(players, creator=claire, seed=4))
    live = _started(players, creator=claire, seed=5, pace=Pace.LIVE, move_seconds=60)
    stood_in = _to_act(live)
    partner = _seated(live, (live.turn + 2) % 4)
    with time_machine.travel(timezone.now() + datetime.timedelta(minutes=10), tick=False):
        # A stand-in comes while another player is at the table (games/tables/attendance.py).
        async_to_sync(presence.arrive)(live.pk, partner.pk)
        assert replace_absent(live.pk, live.version).applied
        async_to_sync(presence.leave)(live.pk, partner.pk)

    sacha = make_user("sacha")
    lobby.join_by_link(table=card_play, user=sacha, token=card_play.invite_token)
    olivier = make_user("olivier")

    # A club: odile owns it, marie is a member, victor is invited, jules asks to join.
    odile, marie, victor, jules = (make_user(n) for n in ("odile", "marie", "victor", "jules"))
    club = Club.objects.create(name="Les Atouts", slug="les-atouts")
    Membership.objects.create(club=club, user=odile, role=ClubRole.OWNER)
    Membership.objects.create(club=club, user=marie, role=ClubRole.MEMBER)
    invitation = clubs.invite(club=club, by=odile, username=victor.username)
    join_request = clubs.request_to_join(club=club, by=jules)
    start = timezone.localdate() + datetime.timedelta(days=10)
    vacation = vacations.declare_vacation(
        user=marie, start=start, end=start + datetime.timedelta(days=2)
    )

    # Two tournaments of the club: one open to register, one under way (two pairs).
    open_tournament = Tournament.objects.create(
        club=club,
        name="Coupe d'hiver",
        format=Tournament.Format.SWISS,
        rounds=2,
        preset="classique",
        options=FAST,
        pace=Pace.ASYNC,
        move_seconds=3600,
        round_hours=48,
    )
    pairs = [make_user(n) for n in ("paul", "pierre", "jacques", "jean")]
    for user in pairs:
        Membership.objects.create(club=club, user=user, role=ClubRole.MEMBER)
    running = Tournament.objects.create(
        club=club,
        name="Coupe d'été",
        format=Tournament.Format.ROUND_ROBIN,
        preset="classique",
        options=FAST,
        pace=Pace.ASYNC,
        move_seconds=3600,
        round_hours=48,
    )
    for first, second in ((pairs[0], pairs[1]), (pairs[2], pairs[3])):
        tournaments.register(tournament=running, user=first, partner_username=second.username)
    tournaments.start(tournament=running, by=odile)

    staff = make_user("gerard", is_staff=True, is_superuser=True)
    # Everyone signed up with an address, verified (allauth would otherwise add the row
    # at their first visit of its pages), but ines, who has yet to confirm hers.
    for user in User.objects.all():
        EmailAddress.objects.create(
            user=user, email=user.email, primary=True, verified=user != ines
        )
    unverified = EmailAddress.objects.get(user=ines)

    tables = {
        "lobby": lobby_table,
        "bidding": bidding,
        "card play": card_play,
        "between hands": between,
        "finished": finished,
        "stood in": live,
    }
    for table in tables.values():
        table.refresh_from_db()
    roles = [
        Role("anonymous", None, card_play),
        Role("stranger", olivier, card_play),
        Role("lobby creator", claire, lobby_table),
        Role("lobby invitee", ines, lobby_table),
        Role("bidding", _to_act(bidding), bidding),
        Role("card play", _to_act(card_play), card_play),
        Role("between hands", _seated(between, S), between),
        Role("finished", _seated(finished, S), finished),
        Role("stood in", stood_in, live),
        Role("spectator", sacha, card_play),
        Role("club owner", odile, card_play),
        Role("club member", marie, card_play),
        Role("club invitee", victor, card_play),
        Role("staff", staff, card_play),
    ]
    assert [role.name for role in roles] == ROLE_NAMES
    return World(
        roles=roles,
        tables=tables,
        club=club,
        invitation=invitation,
        join_request=join_request,
        member=marie,
        vacation_id=vacation.pk,
        open_tournament=open_tournament,
        running_tournament=running,
        unverified=unverified,
    )
