"""Admin pages of the accounts: users, clubs (with their members, invitations and join
requests), absences and ratings.

Clubs are run here by their own people: a superuser sees and does everything and alone
creates or deletes clubs; a staff user who is an owner or organiser of clubs
(``accounts.clubs.service.managed_clubs``) sees those clubs only, edits them and their members,
and decides their join requests. Anyone else gets a 403 on a club's pages and no
action. Every change of a membership, and every admin action, goes through
``accounts.clubs.service``, which checks the same rights again; roles other than member are
granted by owners only. Absences are read-mostly and ratings read-only: the service
writes them.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _

from accounts import vacations
from accounts.clubs import service as clubs
from accounts.forms import DisplayNameMixin
from accounts.models import (
    Club,
    ClubInvitation,
    ClubRole,
    JoinRequest,
    Membership,
    Rating,
    User,
    Vacation,
)
from belote_site.admin import SafeInputAdmin


def refuse_taken_email(email: str, user: User | None = None) -> None:
    """An address logs in one account only (allauth's ``EmailAddress`` and ``User.email``)."""
    users = User.objects.filter(email__iexact=email)
    addresses = EmailAddress.objects.filter(email__iexact=email)
    if user is not None and user.pk is not None:
        users, addresses = users.exclude(pk=user.pk), addresses.exclude(user=user)
    if users.exists() or addresses.exists():
        raise ValidationError(_("Cette adresse est déjà celle d'un autre compte."))


class UserForm(DisplayNameMixin, UserChangeForm):
    """A new address given here becomes the one the user logs in with, to be confirmed
    at their next login (``UserAdmin.save_model``)."""

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "")
        if "email" in self.changed_data:
            if not email:
                raise ValidationError(
                    _("Un compte se connecte par son adresse e-mail : elle est obligatoire.")
                )
            refuse_taken_email(email, self.instance)
        return email


class UserAddForm(AdminUserCreationForm):
    """A user added here logs in by email (allauth): the address, and whether it counts
    as verified or the user confirms it at their first login."""

    email = forms.EmailField(label=_("Adresse e-mail"))
    email_verified = forms.BooleanField(
        label=_("Adresse vérifiée"),
        required=False,
        initial=True,
        help_text=_("Sinon, un lien de confirmation lui est envoyé à sa première connexion."),
    )

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        refuse_taken_email(email)
        return email


@admin.register(User)
class UserAdmin(SafeInputAdmin, DjangoUserAdmin):
    form = UserForm
    add_form = UserAddForm
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "username",
                    "email",
                    "email_verified",
                    "usable_password",
                    "password1",
                    "password2",
                ),
            },
        ),
    )
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Belote"), {"fields": ("display_name", "language", "notify")}),
    )
    list_display = ("username", "display_name", "email", "language", "is_staff", "is_active")
    list_filter = (*DjangoUserAdmin.list_filter, "language", "notify")
    search_fields = ("username", "display_name", "email")

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            obj.email = form.cleaned_data["email"]
        super().save_model(request, obj, form, change)
        if not change:
            EmailAddress.objects.create(
                user=obj,
                email=obj.email,
                primary=True,
                verified=form.cleaned_data["email_verified"],
            )
        elif "email" in form.changed_data:
            # The old address no longer logs in; the new one is confirmed by its owner.
            EmailAddress.objects.filter(user=obj).exclude(email__iexact=obj.email).delete()
            address = EmailAddress.objects.filter(user=obj, email__iexact=obj.email).first()
            if address is None:
                address = EmailAddress(user=obj, email=obj.email, verified=False)
            address.primary = True
            address.save()


# ---------------------------------------------------------------------------------------
# Clubs


class ClubScopedAdmin(SafeInputAdmin, admin.ModelAdmin):
    """Rights that follow the club, not Django's model permissions: whoever manages a
    club (``clubs.manages``) may look at its rows, nobody else. ``club_of`` names the
    club of a row."""

    def club_of(self, obj) -> Club:
        return obj.club

    def has_module_permission(self, request) -> bool:
        user = request.user
        return user.is_superuser or clubs.managed_clubs(user).exists()

    def has_view_permission(self, request, obj=None) -> bool:
        if obj is None:
            return self.has_module_permission(request)
        return clubs.manages(request.user, self.club_of(obj))

    def get_object(self, request, object_id, from_field=None):
        """Found among all rows, not only the user's: a row of another club is then
        refused (403) by the permission checks, rather than said not to exist."""
        field = (
            self.model._meta.pk if from_field is None else self.model._meta.get_field(from_field)
        )
        try:
            return self.model._default_manager.get(**{field.name: field.to_python(object_id)})
        except (self.model.DoesNotExist, ValidationError, ValueError):
            return None


class MembershipForm(forms.ModelForm):
    """One member: typed by username (organisers need no access to the users' admin);
    who they are is fixed once saved, and a role select shows only the roles the
    acting user may give."""

    user = forms.ModelChoiceField(
        label=_("joueur (nom d'utilisateur)"),
        queryset=User.objects.filter(is_active=True),
        to_field_name="username",
        widget=forms.TextInput,
        error_messages={"invalid_choice": _("Aucun joueur actif ne porte ce nom d'utilisateur.")},
    )

    class Meta:
        model = Membership
        fields = ["user", "role"]

    def __init__(self, *args, may_change_roles: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["user"] = self.instance.user.username
            self.fields["user"].disabled = True
            self.fields["role"].disabled = not may_change_roles
        elif not may_change_roles:
            self.fields["role"].choices = [(ClubRole.MEMBER, ClubRole.MEMBER.label)]


class MembershipFormSet(BaseInlineFormSet):
    """Checks every change with ``accounts.clubs.service``' own checks before anything is saved,
    and refuses a set of changes that would leave the club without an owner (judged on
    the rows together: one save may promote a new owner and step the old one down)."""

    acting_user = None  # set for each request by MembershipInline.get_formset

    def get_form_kwargs(self, index):
        club = self.instance
        may_change = club.pk is None or clubs.is_owner(self.acting_user, club)
        return {**super().get_form_kwargs(index), "may_change_roles": may_change}

    def clean(self) -> None:
        super().clean()
        club = self.instance
        if club.pk is None:  # a new club: only a superuser adds one
            return
        owners_before = club.memberships.filter(role=ClubRole.OWNER).count()
        owners_after = 0
        for form in self.forms:
            membership = form.instance
            if not hasattr(form, "cleaned_data") or (
                membership.pk is None and not form.has_changed()
            ):
                continue  # an invalid row (its errors are shown) or an empty extra one
            deleted = self.can_delete and self._should_delete_form(form)
            try:
                if membership.pk is None and not deleted:
                    clubs.check_grant(club=club, by=self.acting_user, role=membership.role)
                elif membership.pk is not None and deleted:
                    original = Membership.objects.get(pk=membership.pk)
                    clubs.check_removal(club=club, by=self.acting_user, membership=original)
                elif membership.pk is not None and "role" in form.changed_data:
                    original = Membership.objects.get(pk=membership.pk)
                    clubs.check_role_change(
                        club=club, by=self.acting_user, membership=original, role=membership.role
                    )
            except clubs.ClubError as refused:
                # Whether an owner is left is judged on all the rows together, below.
                if refused.code != "last_owner":
                    form.add_error(None, refused.message)
            if not deleted and membership.role == ClubRole.OWNER:
                owners_after += 1
        if owners_before and not owners_after:
            raise ValidationError(
                _("Le club doit garder un responsable : nommez-en un autre d'abord.")
            )


class MembershipInline(admin.TabularInline):
    model = Membership
    form = MembershipForm
    formset = MembershipFormSet
    extra = 1
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        return type(formset.__name__, (formset,), {"acting_user": request.user})

    def has_view_permission(self, request, obj=None) -> bool:
        return obj is None or clubs.manages(request.user, obj)

    def has_add_permission(self, request, obj=None) -> bool:
        return obj is None or clubs.manages(request.user, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None or clubs.manages(request.user, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return obj is None or clubs.manages(request.user, obj)


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    list_display = ["name", "slug", "member_count", "accepts_requests", "created_at"]
    list_filter = ["accepts_requests"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    fields = ["name", "slug", "description", "accepts_requests"]
    inlines = [MembershipInline]

    def club_of(self, obj) -> Club:
        return obj

    def get_queryset(self, request):
        queryset = super().get_queryset(request).annotate(member_count=Count("memberships"))
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=clubs.managed_clubs(request.user).values("pk"))

    @admin.display(description=_("membres"), ordering="member_count")
    def member_count(self, club: Club) -> int:
        return club.member_count

    def has_change_permission(self, request, obj=None) -> bool:
        return self.has_view_permission(request, obj)

    def has_add_permission(self, request) -> bool:
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def save_formset(self, request, form, formset, change) -> None:
        """Members are written by ``accounts.clubs.service`` (the formset's checks passed):
        newcomers and promotions first, then the other role changes, then removals, so
        that the club has an owner at every step."""
        if formset.model is not Membership:
            return super().save_formset(request, form, formset, change)
        club = form.instance
        formset.save(commit=False)
        changed = [obj for obj, fields in formset.changed_objects if "role" in fields]
        changed.sort(key=lambda m: m.role != ClubRole.OWNER)
        try:
            for membership in formset.new_objects:
                clubs.add_member(
                    club=club, by=request.user, user=membership.user, role=membership.role
                )
            for membership in changed:
                clubs.set_role(
                    club=club, by=request.user, user=membership.user, role=membership.role
                )
            for membership in formset.deleted_objects:
                clubs.remove_member(club=club, by=request.user, user=membership.user)
        except clubs.ClubError as refused:
            # Somebody changed the club meanwhile; the whole save is rolled back.
            raise PermissionDenied(refused.message) from refused


class ClubRowAdmin(ClubScopedAdmin):
    """Invitations and join requests: read-only rows of the managed clubs, answered by
    the actions only."""

    list_filter = ["status", "club"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["club", "user"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(club__in=clubs.managed_clubs(request.user))

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def _apply(self, request, queryset, call, done: str) -> None:
        """``call`` on each row through ``accounts.clubs.service``; what it refused is said."""
        count = 0
        for row in queryset:
            try:
                call(row)
            except clubs.ClubError as refused:
                self.message_user(request, f"{row} : {refused.message}", messages.ERROR)
            else:
                count += 1
        if count:
            self.message_user(request, done % {"count": count}, messages.SUCCESS)


@admin.register(ClubInvitation)
class ClubInvitationAdmin(ClubRowAdmin):
    list_display = ["user", "club", "status", "invited_by", "created_at", "answered_at"]
    actions = ["withdraw"]

    @admin.action(description=_("Retirer les invitations en attente choisies"))
    def withdraw(self, request, queryset) -> None:
        self._apply(
            request,
            queryset,
            lambda invitation: clubs.withdraw_invitation(invitation=invitation, by=request.user),
            _("Invitations retirées : %(count)s."),
        )


@admin.register(JoinRequest)
class JoinRequestAdmin(ClubRowAdmin):
    list_display = ["user", "club", "status", "message", "created_at", "decided_by"]
    actions = ["accept", "decline"]

    @admin.action(description=_("Accepter les demandes choisies"))
    def accept(self, request, queryset) -> None:
        self._apply(
            request,
            queryset,
            lambda row: clubs.accept_request(join_request=row, by=request.user),
            _("Demandes acceptées : %(count)s."),
        )

    @admin.action(description=_("Refuser les demandes choisies"))
    def decline(self, request, queryset) -> None:
        self._apply(
            request,
            queryset,
            lambda row: clubs.decline_request(join_request=row, by=request.user),
            _("Demandes refusées : %(count)s."),
        )


# ---------------------------------------------------------------------------------------
# Absences and ratings: written by the players and by the service


@admin.register(Vacation)
class VacationAdmin(SafeInputAdmin, admin.ModelAdmin):
    """Read-mostly: a player declares their own absences (their clocks stand still);
    support may look, and delete one that should not be. A delete, single or bulk, goes
    through ``accounts.vacations.delete_vacation``, which moves the player's deadlines."""

    list_display = ["user", "start", "end", "days", "created_at"]
    search_fields = ["user__username", "user__email"]
    date_hierarchy = "start"
    list_select_related = ["user"]
    readonly_fields = ["user", "start", "end", "created_at"]

    @admin.display(description=_("jours"))
    def days(self, vacation: Vacation) -> int:
        return vacation.days

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def delete_model(self, request, obj: Vacation) -> None:
        vacations.delete_vacation(vacation=obj)

    def delete_queryset(self, request, queryset) -> None:
        for vacation in queryset.select_related("user"):
            vacations.delete_vacation(vacation=vacation)


@admin.register(Rating)
class RatingAdmin(SafeInputAdmin, admin.ModelAdmin):
    """Read-only: ratings move with rated games only (games/ratings/service.py)."""

    list_display = ["user", "ordinal", "mu", "sigma", "games", "updated_at"]
    search_fields = ["user__username", "user__display_name"]
    list_select_related = ["user"]
    readonly_fields = ["user", "mu", "sigma", "ordinal", "games", "updated_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
