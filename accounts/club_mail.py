"""Where club emails were queued before the clubs had their own package: a task queued by
that code is found by its path (``accounts.club_mail.club_mail_task``) after an upgrade."""

from accounts.clubs.mail import club_mail_task

__all__ = ["club_mail_task"]
