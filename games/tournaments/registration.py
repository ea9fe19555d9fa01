"""Tournaments before the start: the club's members register (as a pair or alone) and
withdraw; the organisers pair the players alone and seed the teams. Part of the
tournament write path (the rules are in games/tournaments/service.py's docstring)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import user_named
from games.tables.service import ServiceError
from games.tournaments.guards import (
    check_registration_open,
    is_member,
    lock_tournament,
    organised,
    team_of,
)
from games.tournaments.models import Tournament, TournamentTeam

TEAM_NAME_LENGTH = TournamentTeam._meta.get_field("name").max_length


@dataclass(frozen=True)
class PairingReport:
    pairs: int  # teams completed
    left_alone: str | None  # the odd player out, if any


# ---------------------------------------------------------------------------------------
# Registration (the club's members)


@transaction.atomic
def register(
    *, tournament: Tournament, user, partner_username: str = "", name: str = ""
) -> TournamentTeam:
    """Register ``user`` with the partner named ``partner_username``, or alone."""
    tournament = lock_tournament(tournament.pk)
    check_registration_open(tournament)
    if not is_member(user, tournament):
        raise ServiceError(
            "not_member",
            _("Seuls les membres du club %(club)s peuvent s'inscrire.") % {"club": tournament.club},
            403,
        )
    if team_of(tournament, user) is not None:
        raise ServiceError(
            "already_registered", _("Votre inscription à ce tournoi est déjà faite."), 409
        )
    name = (name or "").strip()
    if len(name) > TEAM_NAME_LENGTH:
        raise ServiceError(
            "bad_team_name",
            _("Le nom d'équipe ne doit pas dépasser %(n)s caractères.") % {"n": TEAM_NAME_LENGTH},
        )
    partner = _partner(tournament, user, (partner_username or "").strip())
    return TournamentTeam.objects.create(
        tournament=tournament, player_one=user, player_two=partner, name=name
    )


@transaction.atomic
def withdraw(*, tournament: Tournament, user) -> None:
    """Either player withdraws their team (both players) before the start."""
    tournament = lock_tournament(tournament.pk)
    team = team_of(tournament, user)
    if team is None:
        raise ServiceError("not_registered", _("Vous ne participez pas à ce tournoi."), 409)
    check_registration_open(tournament)
    team.delete()


def _partner(tournament: Tournament, user, username: str):
    if not username:
        return None
    partner = user_named(username)
    if partner is None:
        raise ServiceError(
            "unknown_user", _("Aucun joueur ne s'appelle « %(name)s ».") % {"name": username}
        )
    if partner.pk == user.pk:
        raise ServiceError("self_partner", _("Choisissez un partenaire autre que vous-même."))
    if not is_member(partner, tournament):
        raise ServiceError(
            "partner_not_member",
            _("%(name)s n'est pas membre du club %(club)s.")
            % {"name": partner, "club": tournament.club},
        )
    if team_of(tournament, partner) is not None:
        raise ServiceError(
            "partner_registered",
            _("%(name)s participe déjà à ce tournoi.") % {"name": partner},
            409,
        )
    return partner


# ---------------------------------------------------------------------------------------
# The organisers


@transaction.atomic
def pair_singles(*, tournament: Tournament, by, seed: int | None = None) -> PairingReport:
    """Give the players registered alone a partner: two by two in registration order,
    or in an order shuffled by ``seed`` (the same seed, the same pairs)."""
    tournament = organised(tournament, by)
    check_registration_open(tournament)
    singles = list(
        tournament.teams.filter(player_two__isnull=True)
        .select_related("player_one")
        .order_by("registered_at", "pk")
    )
    if len(singles) < 2:
        raise ServiceError(
            "no_singles", _("Il n'y a pas deux joueurs inscrits seuls à apparier."), 409
        )
    if seed is not None:
        random.Random(seed).shuffle(singles)
    pairs = len(singles) // 2
    for first, second in zip(singles[0::2], singles[1::2], strict=False):
        partner = second.player_one
        second.delete()
        first.player_two = partner
        first.save(update_fields=["player_two"])
    left = singles[-1] if len(singles) % 2 else None
    return PairingReport(pairs=pairs, left_alone=None if left is None else str(left.player_one))


@transaction.atomic
def set_seeds(*, tournament: Tournament, by, order: list[int]) -> None:
    """Seed the teams in ``order`` (team ids, the strongest first) before the start."""
    tournament = organised(tournament, by)
    check_registration_open(tournament)
    teams = {team.pk: team for team in tournament.teams.all()}
    if sorted(order) != sorted(teams):
        raise ServiceError("bad_seeds", _("Donnez un ordre qui contient chaque équipe une fois."))
    for seed, pk in enumerate(order, start=1):
        teams[pk].seed = seed
    TournamentTeam.objects.bulk_update(teams.values(), ["seed"])
