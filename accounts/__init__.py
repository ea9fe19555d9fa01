"""Users and, later, their profiles, clubs and memberships."""
