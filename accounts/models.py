"""The user model and its preferences. Login is by email (allauth); the username is the
public handle, the display name the friendlier one shown at the table."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.names import KEY_MAX_LENGTH, name_key, tidy, validate_name


class Notify(models.TextChoices):
    """When to email a player that it is their turn at a table."""

    IMMEDIATELY = "immediately", _("Tout de suite")
    HOURLY = "hourly", _("Au bout d'une heure sans jouer")
    DAILY = "daily", _("Un résumé par jour")
    NEVER = "never", _("Jamais")


class User(AbstractUser):
    display_name = models.CharField(
        _("nom affiché"),
        max_length=60,
        blank=True,
        help_text=_("Nom montré aux autres joueurs ; le nom d'utilisateur sinon."),
        validators=[validate_name],
    )
    # The names as compared (accounts/names.py), kept by save(): no two display names
    # share a key; a display name may not take another player's username either (the
    # forms check it against username_key).
    display_key = models.CharField(
        max_length=KEY_MAX_LENGTH, blank=True, default="", editable=False
    )
    username_key = models.CharField(
        max_length=KEY_MAX_LENGTH, blank=True, default="", editable=False, db_index=True
    )
    language = models.CharField(
        _("langue"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="fr",
        help_text=_("Langue du site après la connexion."),
    )
    notify = models.CharField(
        _("avis de tour"),
        max_length=16,
        choices=Notify,
        default=Notify.HOURLY,
        help_text=_("Quand vous prévenir par e-mail que c'est à vous de jouer."),
    )

    class Meta(AbstractUser.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["display_key"],
                condition=~models.Q(display_key=""),
                name="user_display_name_unique",
            ),
        ]

    def __str__(self) -> str:
        return user_display(self)

    def save(self, *args, **kwargs) -> None:
        self.display_name = tidy(self.display_name)
        self.display_key = name_key(self.display_name)
        self.username_key = name_key(self.username or "")
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            keys = {"display_name": "display_key", "username": "username_key"}
            kwargs["update_fields"] = {
                *update_fields,
                *(key for field, key in keys.items() if field in update_fields),
            }
        super().save(*args, **kwargs)


def name_taken(name: str, *, by=None) -> bool:
    """Whether ``name`` is, once normalised, another player's username or display name
    than ``by``'s (accounts/names.py)."""
    key = name_key(name)
    others = User.objects.exclude(pk=by.pk) if by is not None and by.pk else User.objects.all()
    return others.filter(models.Q(username_key=key) | models.Q(display_key=key)).exists()


def user_display(user: User) -> str:
    """The name other players see; allauth uses it too (ACCOUNT_USER_DISPLAY)."""
    return user.display_name or user.username


def user_named(username: str) -> User | None:
    """The active user of that username; a case-insensitive match if it is the only one
    (what the invitation, partner and member forms look up)."""
    if not username:
        return None
    users = User.objects.filter(is_active=True)
    exact = users.filter(username=username).first()
    if exact is not None:
        return exact
    matches = list(users.filter(username__iexact=username)[:2])
    return matches[0] if len(matches) == 1 else None


class Vacation(models.Model):
    """An absence declared by a player: from ``start`` to ``end`` (both days included),
    the clocks of their tables stand still (games/timing/sweep.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        on_delete=models.CASCADE,
        related_name="vacations",
    )
    start = models.DateField(_("du"))
    end = models.DateField(_("au"))
    created_at = models.DateTimeField(_("déclarée le"), auto_now_add=True)

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        ordering = ["user", "start"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="vacation_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.start} – {self.end}"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


# ---------------------------------------------------------------------------------------
# Clubs: created and managed in the admin; players join by invitation or by request.


class ClubRole(models.TextChoices):
    OWNER = "owner", _("Responsable")
    ORGANISER = "organiser", _("Organisateur")
    MEMBER = "member", _("Membre")


# Roles that run a club: manage its members, its tournaments and its requests.
MANAGING_ROLES = (ClubRole.OWNER, ClubRole.ORGANISER)


class Club(models.Model):
    name = models.CharField(_("nom"), max_length=80, unique=True)
    slug = models.SlugField(_("adresse"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    # Whether players may ask to join from the club page (an organiser then decides).
    accepts_requests = models.BooleanField(_("demandes d'adhésion acceptées"), default=True)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    Role = ClubRole

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        on_delete=models.CASCADE,
        related_name="memberships",
    )
    role = models.CharField(
        _("rôle"), max_length=10, choices=ClubRole.choices, default=ClubRole.MEMBER
    )
    joined_at = models.DateTimeField(_("membre depuis"), auto_now_add=True)

    class Meta:
        verbose_name = _("adhésion")
        verbose_name_plural = _("adhésions")
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once"),
            models.CheckConstraint(
                condition=models.Q(role__in=ClubRole.values), name="membership_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.club})"

    @property
    def manages(self) -> bool:
        return self.role in MANAGING_ROLES


class RequestStatus(models.TextChoices):
    PENDING = "pending", _("En attente")
    ACCEPTED = "accepted", _("Acceptée")
    DECLINED = "declined", _("Refusée")


class ClubInvitation(models.Model):
    """An organiser invites a player; the player accepts or declines."""

    Status = RequestStatus

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invité"),
        on_delete=models.CASCADE,
        related_name="club_invitations",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invité par"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    status = models.CharField(
        _("état"), max_length=10, choices=RequestStatus.choices, default=RequestStatus.PENDING
    )
    created_at = models.DateTimeField(_("le"), auto_now_add=True)
    answered_at = models.DateTimeField(_("réponse le"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation au club")
        verbose_name_plural = _("invitations au club")
        ordering = ["club", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status=RequestStatus.PENDING),
                name="club_invitation_pending_once",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=RequestStatus.values),
                name="club_invitation_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.get_status_display()})"


class JoinRequest(models.Model):
    """A player asks to join; an organiser of the club accepts or declines."""

    Status = RequestStatus

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        on_delete=models.CASCADE,
        related_name="club_requests",
    )
    message = models.CharField(_("message"), max_length=300, blank=True)
    status = models.CharField(
        _("état"), max_length=10, choices=RequestStatus.choices, default=RequestStatus.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("décidée par"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("le"), auto_now_add=True)
    decided_at = models.DateTimeField(_("décidée le"), null=True, blank=True)

    class Meta:
        verbose_name = _("demande d'adhésion")
        verbose_name_plural = _("demandes d'adhésion")
        ordering = ["club", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status=RequestStatus.PENDING),
                name="join_request_pending_once",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=RequestStatus.values),
                name="join_request_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.get_status_display()})"


# ---------------------------------------------------------------------------------------
# Ratings: one OpenSkill rating per player, moved by every rated game (games/ratings/service.py).


class Rating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("joueur"),
        on_delete=models.CASCADE,
        related_name="rating",
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    # The conservative figure shown and ranked on (mu - 3 sigma), stored to sort on it.
    ordinal = models.FloatField(_("points de classement"), db_index=True)
    games = models.PositiveIntegerField(_("parties classées"), default=0)
    updated_at = models.DateTimeField(_("mise à jour le"), auto_now=True)

    class Meta:
        verbose_name = _("classement")
        verbose_name_plural = _("classements")
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"{self.user}: {self.mu:.1f} ± {self.sigma:.1f}"
