"""The unread notifications counter of the header, for logged-in users only.

Lazy: templates call the function, so the count (one indexed query, once per response)
runs only on a page that shows it.
"""

from functools import cache

from django.http import HttpRequest


def notifications(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from games.notifications.service import unread_count

    @cache
    def unread() -> int:
        return unread_count(user)

    return {"unread_notifications": unread}
