"""Root URLs: the home page, accounts (allauth) under /comptes/, the admin, i18n."""

from django.contrib import admin
from django.urls import include, path

from belote_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("comptes/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
