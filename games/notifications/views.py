"""The notifications page (/notifications/): the latest ones, and "Tout marquer comme lu".

Opening a table marks its own notifications read (games.notifications.table_seen).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import notifications
from games.notifications.models import Notification

PAGE_SIZE = 50


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    rows = Notification.objects.filter(user=request.user).select_related("table")[:PAGE_SIZE]
    return render(request, "games/notifications.html", {"notifications": rows})


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    notifications.mark_all_read(request.user)
    messages.success(request, _("Toutes vos notifications sont lues."))
    return redirect("notifications")
