from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Belote"), {"fields": ("display_name", "language", "notify")}),
    )
    list_display = ("username", "display_name", "email", "language", "is_staff", "is_active")
    list_filter = (*DjangoUserAdmin.list_filter, "language", "notify")
    search_fields = ("username", "display_name", "email")
