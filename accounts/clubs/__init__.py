"""Clubs: memberships and roles (the only write path, ``service``), invitations and join
requests, their emails and pages."""
