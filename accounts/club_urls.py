"""URLs of the clubs, under /clubs/."""

from django.urls import path

from accounts import club_views

app_name = "clubs"

urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("<slug:slug>/", club_views.club_detail, name="detail"),
]
