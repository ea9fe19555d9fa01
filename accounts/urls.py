"""Our account pages, mounted under /comptes/ next to allauth's."""

from django.urls import path

from accounts import unsubscribe, views

urlpatterns = [
    path("profil/", views.profile, name="profile"),
    path("profil/absences/", views.vacation_declare, name="vacation_declare"),
    path(
        "profil/absences/<int:vacation_id>/annuler/", views.vacation_cancel, name="vacation_cancel"
    ),
    path("desabonner/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
]
