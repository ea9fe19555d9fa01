"""Our account pages, mounted under /comptes/ next to allauth's."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("profil/", views.profile, name="profile"),
]
