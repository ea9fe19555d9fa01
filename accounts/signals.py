"""What accounts tells the concerns above it, which it does not import: a change of a
user's vacations (accounts/vacations.py), inside its transaction and the user's lock.

``vacations_changing`` is sent before the change: each receiver answers what it needs to
know of the time before (games.timing.vacations: the user's clocks). ``vacations_changed``
is sent after it with ``before``, those answers by receiver, and ``paused``, the windows
that stay paused though no vacation covers them any more. Wired in games.apps.
"""

from __future__ import annotations

from django.dispatch import Signal

vacations_changing = Signal()
vacations_changed = Signal()
