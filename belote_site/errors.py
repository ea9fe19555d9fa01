"""The one refusal every layer raises: a request the site turns down, with a code for
machines, a message for people and the HTTP status of the answer.

Each concern raises its own subclass (``games.tables.service.ServiceError``,
``accounts.clubs.service.ClubError``, ...); a page may catch ``ActionRefused`` whichever
concern refused."""

from __future__ import annotations


class ActionRefused(Exception):
    """A refused request: ``code`` for machines, ``message`` for people, an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
