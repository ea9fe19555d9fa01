"""What games/tables tells the concerns above it, which it does not import.

Synchronous Django signals, sent inside the transaction of the change and the table's lock:
a receiver that queues a task or writes a row does so atomically with the change (a change
rolled back leaves nothing), and an exception in a receiver rolls the change back. Who
listens to what is wired in one place, ``games.apps.GamesConfig.ready``.
"""

from __future__ import annotations

from django.dispatch import Signal

# A table's state changed (a move, a start, a stand-in, the end of a game...), its own
# follow-ups queued. Arguments: ``table_id``, ``version`` (the new one), ``clock`` (the
# table as saved when its turn and deadline changed, else None), ``live`` (``clock`` is
# that of a live table), ``by`` (the id of the user who made it, whose page gets the new
# board as its answer, or None). Heard by the turn notifications, the absence check of
# live players and the broadcast to the table's pages (on commit).
table_changed = Signal()

# A game ended, whichever way (its target reached, a forfeit on time): its winner and end
# time are saved, the table is locked, its row maybe not saved yet (read the result from
# ``game``). Heard by the ratings, then the tournaments.
game_ended = Signal()

# A user opened a table's page (``user_id``, ``table_id``): their notifications of it are
# read.
table_opened = Signal()

# The lobby of open tables changed (games/tables/open_tables.py): an open table was
# created, opened or closed, its seats changed, it started or it was abandoned. Argument:
# ``table_id``. Heard by the broadcast to the pages showing the list (on commit), which
# carries no data: each page fetches its own list again.
open_tables_changed = Signal()

# The sweep closed an open table that waited too long for its players (``table_id``,
# ``version``, ``user_ids``: the players seated at it). Heard by the notifications.
open_table_closed = Signal()
# A table's chat changed, never its game: a message was sent (``message_id``), or its
# settings changed (``message_id`` None: each page reads its chat again). Heard by the
# broadcast to the table's pages (on commit), which carries no text: each page's
# consumer reads the message for its own user, if they may read it.
chat_changed = Signal()
