"""Who may act on a tournament, read with its row locked: the helpers of the tournament
write path (games/tournaments/service.py and registration.py)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.clubs.service import manages, membership_of
from games.tables.service import ServiceError
from games.tournaments.models import Tournament, TournamentTeam


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked (its club read along); 404 when it is gone."""
    try:
        return (
            Tournament.objects.select_for_update(of=("self",))
            .select_related("club")
            .get(pk=tournament_id)
        )
    except Tournament.DoesNotExist as error:
        raise ServiceError("no_tournament", _("Ce tournoi n'existe pas."), 404) from error


def organised(tournament: Tournament, by) -> Tournament:
    """The locked tournament, if ``by`` runs its club."""
    tournament = lock_tournament(tournament.pk)
    if not manages(by, tournament.club):
        raise not_organiser(tournament)
    return tournament


def not_organiser(tournament: Tournament) -> ServiceError:
    return ServiceError(
        "not_organiser",
        _("Seuls les organisateurs du club %(club)s peuvent faire cela.")
        % {"club": tournament.club},
        403,
    )


def check_registration_open(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ServiceError(
            "registration_closed", _("Les inscriptions à ce tournoi sont closes."), 409
        )


def is_member(user, tournament: Tournament) -> bool:
    return membership_of(user, tournament.club) is not None


def team_of(tournament: Tournament, user) -> TournamentTeam | None:
    """The user's team in the tournament, as player one or two."""
    if not getattr(user, "is_authenticated", False):
        return None
    teams = tournament.teams.select_related("player_one", "player_two")
    return teams.filter(Q(player_one=user) | Q(player_two=user)).first()
