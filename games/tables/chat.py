"""A table's chat: who may read and write it, what may be sent when, and the writes.

Seated players (and the table's creator) talk; the other people who may see the table
(spectators, club members, invitees without a seat) read it, or also write, only if the
creator allows it (``Table.chat_spectators``). The creator may turn the chat off
(``Table.chat_enabled``); each user may mute a table's chat for themselves
(``ChatMute``): nothing of it then reaches them.

While a hand is being played (from its deal to its last trick: the bidding and the card
play) only the fixed ``REACTIONS`` are accepted, so that partners cannot tell each other
their cards; free text is open when no hand is in play (the lobby, a finished or
abandoned game). A message is at most ``MAX_CHAT_CHARS`` characters once stripped, never
empty, without invisible or control characters; it is stored as written and escaped
where shown. Each user sends at most the ``table_chat`` rate (``ACCOUNT_RATE_LIMITS``,
allauth's limiter, counted in the shared cache) at a table: the view checks it.

Nothing here takes the table's lock or moves its version: a chat message never delays a
move, and a move sent at version N stays valid. The pages hear of a message through
``signals.chat_changed`` (the broadcast, on commit).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.names import BLANK_LETTERS, REFUSED_CATEGORIES
from games.tables import signals
from games.tables.access import audience, may_see
from games.tables.memo import SharedReadings
from games.tables.models import (
    MAX_CHAT_CHARS,
    ChatMessage,
    ChatMute,
    ChatSpectators,
    Table,
)
from games.tables.seats import table_seats
from games.tables.writes import ServiceError

# The reactions that may be sent during a hand: key (stored) -> words (French first).
REACTIONS = {
    "well_played": pgettext_lazy("chat reaction", "Bien joué !"),
    "bravo": pgettext_lazy("chat reaction", "Bravo partenaire"),
    "oops": pgettext_lazy("chat reaction", "Oups"),
    "thanks": pgettext_lazy("chat reaction", "Merci"),
    "sorry": pgettext_lazy("chat reaction", "Désolé·e"),
    "hello": pgettext_lazy("chat reaction", "Bonjour !"),
    "gg": pgettext_lazy("chat reaction", "Bien vu !"),
    "bye": pgettext_lazy("chat reaction", "À bientôt"),
}

# How many recent messages a page shows when it opens (the older ones stay stored).
RECENT = 50

LINE_TEMPLATE = "games/table/chat_line.html"
# How long the reading of one message serves the pages that hear it, and how many are kept.
SHARED_SECONDS = 2.0
SHARED_MESSAGES = 512

PHASE_WORDS = {
    ChatMessage.Phase.BIDDING: gettext_lazy("pendant les enchères"),
    ChatMessage.Phase.PLAY: gettext_lazy("pendant le jeu"),
    # A hand's messages of this phase came once its game was over (finished or abandoned:
    # the next hand of a game is dealt as the last trick falls, no instant between them).
    ChatMessage.Phase.OVER: gettext_lazy("après la partie"),
}


class ChatRefused(ServiceError):
    """A message or a setting refused: its status and message for the answer."""


@dataclass(frozen=True)
class Rights:
    """What ``user`` may do with a table's chat, now."""

    read: bool  # messages reach them (live and on the page)
    write: bool  # they may send
    muted: bool  # they muted it (they may unmute)
    manage: bool  # the creator: the chat's settings
    player: bool  # seated or creator (else a spectator)
    enabled: bool  # the chat is on
    spectators_read: bool = False  # spectators may read it

    @property
    def shown(self) -> bool:
        """Whether the page shows the chat at all."""
        return self.manage or (self.enabled and (self.player or self.spectators_read))


def rights(user, table: Table) -> Rights:
    """The chat rights of ``user`` at ``table`` (a user who may not see the table has
    none: a stranger never reads a word of it)."""
    if not may_see(user, table):
        return Rights(False, False, False, False, False, table.chat_enabled)
    seats = table_seats(table) if table.status != Table.Status.LOBBY else table.seats.all()
    return rights_among(
        user, table, seats, lambda: ChatMute.objects.filter(table=table, user=user).exists()
    )


def rights_among(user, table: Table, seats, muted) -> Rights:
    """The rights of ``user``, who may see ``table`` (its ``seats`` given); ``muted()``
    says whether they muted its chat (asked only when it matters)."""
    player = table.created_by_id == user.pk or any(s.user_id == user.pk for s in seats)
    spectators = table.chat_spectators
    may_read = table.chat_enabled and (player or spectators != ChatSpectators.NONE)
    may_write = table.chat_enabled and (player or spectators == ChatSpectators.WRITE)
    muted = may_read and muted()
    return Rights(
        read=may_read and not muted,
        write=may_write and not muted,
        muted=muted,
        manage=table.created_by_id == user.pk,
        player=player,
        enabled=table.chat_enabled,
        spectators_read=spectators != ChatSpectators.NONE,
    )


def phase_of(table: Table) -> str:
    """When a message sent now is sent: during a hand (its bidding or its play), or not."""
    if table.status == Table.Status.LOBBY or table.current_hand_id is None:
        return ChatMessage.Phase.LOBBY
    hand = table.current_hand
    if table.status != Table.Status.PLAYING or hand.is_over:
        return ChatMessage.Phase.OVER
    return ChatMessage.Phase.PLAY if hand.contract else ChatMessage.Phase.BIDDING


def in_hand(phase: str) -> bool:
    return phase in (ChatMessage.Phase.BIDDING, ChatMessage.Phase.PLAY)


def clean_text(text: str) -> str:
    """The free text as it will be stored, or ``ChatRefused`` (422) saying why."""
    text = (text or "").strip()
    if not text:
        raise ChatRefused("chat_empty", _("Écrivez un message."))
    if len(text) > MAX_CHAT_CHARS:
        raise ChatRefused(
            "chat_too_long",
            _("Un message fait au plus %(n)s caractères.") % {"n": MAX_CHAT_CHARS},
        )
    # One line; control, format, private-use... characters hide or disguise text, as in
    # a display name (accounts/names.py).
    refused = [
        char
        for char in dict.fromkeys(text)
        if char in BLANK_LETTERS or unicodedata.category(char) in REFUSED_CATEGORIES
    ]
    if refused:
        raise ChatRefused(
            "chat_hidden_characters",
            _("Ce message contient des caractères invisibles ou de contrôle : %(chars)s.")
            % {"chars": ", ".join(f"U+{ord(char):04X}" for char in refused)},
        )
    return text


def check_send(*, table: Table, user, text: str = "", reaction: str = "") -> tuple[str, str]:
    """What would be stored for this message, ``(kind, text)``, or ``ChatRefused``."""
    allowed = rights(user, table)
    if not may_see(user, table):
        raise ChatRefused("not_found", _("Cette table n'existe pas."), 404)
    if not allowed.enabled:
        raise ChatRefused("chat_off", _("La discussion de cette table est fermée."), 403)
    if allowed.muted:
        raise ChatRefused(
            "chat_muted", _("Vous avez coupé la discussion : réactivez-la pour écrire."), 403
        )
    if not allowed.write:
        raise ChatRefused("chat_read_only", _("Les spectateurs ne peuvent pas écrire ici."), 403)
    if reaction:
        if reaction not in REACTIONS:
            raise ChatRefused("chat_unknown_reaction", _("Cette réaction n'existe pas."))
        with translation.override("fr"):  # stored in the words it was sent with
            return ChatMessage.Kind.REACTION, str(REACTIONS[reaction])
    if in_hand(phase_of(table)):
        raise ChatRefused(
            "chat_reactions_only",
            _("Pendant une donne, seules les réactions proposées peuvent être envoyées."),
            409,
        )
    return ChatMessage.Kind.TEXT, clean_text(text)


def send(*, table: Table, user, text: str = "", reaction: str = "") -> ChatMessage:
    """Store a message (after ``check_send``) and tell the table's pages once committed.

    No table lock, no version: the table was read without a lock, and a move made
    meanwhile changes only the phase the message is recorded in (a reaction is fine in
    any phase; free text refused at the check was refused against a table at most as old
    as the page's)."""
    kind, words = check_send(table=table, user=user, text=text, reaction=reaction)
    hand = table.current_hand if table.current_hand_id is not None else None
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table=table,
            author=user,
            kind=kind,
            reaction=reaction if kind == ChatMessage.Kind.REACTION else "",
            text=words,
            phase=phase_of(table),
            game_id=hand.game_id if hand is not None else None,
            hand=hand,
        )
        signals.chat_changed.send(sender=ChatMessage, table_id=table.pk, message_id=message.pk)
    return message


def set_muted(*, table: Table, user, muted: bool) -> None:
    """Mute (or unmute) the table's chat for ``user`` alone."""
    if not may_see(user, table):
        raise ChatRefused("not_found", _("Cette table n'existe pas."), 404)
    if muted:
        ChatMute.objects.get_or_create(table=table, user=user)
    else:
        ChatMute.objects.filter(table=table, user=user).delete()


def set_settings(*, table: Table, by, enabled: bool, spectators: str) -> None:
    """The creator turns the chat on or off and says what spectators may do with it."""
    if not may_see(by, table):
        raise ChatRefused("not_found", _("Cette table n'existe pas."), 404)
    if table.created_by_id != by.pk:
        raise ChatRefused(
            "not_creator", _("Seule la personne qui a créé la table règle sa discussion."), 403
        )
    if spectators not in ChatSpectators.values:
        raise ChatRefused("bad_choice", _("Ce choix n'existe pas."))
    with transaction.atomic():
        Table.objects.filter(pk=table.pk).update(
            chat_enabled=bool(enabled), chat_spectators=spectators
        )
        table.chat_enabled, table.chat_spectators = bool(enabled), spectators
        signals.chat_changed.send(sender=ChatMessage, table_id=table.pk, message_id=None)


@dataclass(frozen=True)
class Line:
    """One message as a page shows it (the template escapes ``text``)."""

    id: int
    author: str
    text: str
    reaction: bool
    mine: bool
    sent_at: object
    phase: str


def line_of(message: ChatMessage, user) -> Line:
    author = message.author
    name = (author.display_name or author.username) if author is not None else _("ancien compte")
    if message.kind == ChatMessage.Kind.REACTION and message.reaction in REACTIONS:
        words = str(REACTIONS[message.reaction])
    else:
        words = message.text
    return Line(
        id=message.pk,
        author=name,
        text=words,
        reaction=message.kind == ChatMessage.Kind.REACTION,
        mine=user is not None and message.author_id == user.pk,
        sent_at=message.sent_at,
        phase=str(PHASE_WORDS.get(message.phase, "")),
    )


def recent_lines(table: Table, user, *, limit: int = RECENT) -> list[Line]:
    """The last ``limit`` messages, oldest first (only call once ``rights`` lets read)."""
    messages = list(
        ChatMessage.objects.filter(table=table).select_related("author").order_by("-id")[:limit]
    )
    return [line_of(message, user) for message in reversed(messages)]


@dataclass(frozen=True)
class HandTalk:
    """A finished hand's messages for its history: those sent while it was played, and
    those sent once the game was over (recorded with the game's last hand)."""

    during: list[Line]
    after: list[Line]


def hand_lines(hand, user) -> HandTalk:
    """The messages of ``hand`` (the hand history), during it and after the game."""
    messages = ChatMessage.objects.filter(hand=hand).select_related("author").order_by("id")
    during, after = [], []
    for message in messages:
        (during if in_hand(message.phase) else after).append(line_of(message, user))
    return HandTalk(during, after)


class SharedMessage:
    """One chat message as this process's pages get it (games/live/consumers.py): the
    table, its seats, who may see it, who muted its chat and the message are read once,
    at the first page's push, and each line rendered once per (language, whether the
    reader wrote it); then each page costs a look-up and a send, not 4 to 7 queries and
    a rendering. Each reader's rights are still their own (``rights_among``): a stranger,
    a spectator kept out, a user who muted the chat get nothing. Thread-safe."""

    def __init__(self, table_id: int, message_id: int) -> None:
        self.table_id, self.message_id = table_id, message_id
        self._lock = threading.RLock()
        self._read = False
        self._table: Table | None = None
        self._message: ChatMessage | None = None
        self._seats: list = []
        self._audience = None
        self._muted: frozenset[int] = frozenset()
        self._lines: dict[tuple[str, bool], str] = {}
        self.renders = 0  # lines rendered (the tests read it)

    def html_for(self, user, language: str) -> str | None:
        """The message's line in ``language`` for ``user``, if they may read it now."""
        with self._lock:
            self._read_once()
            table, message = self._table, self._message
            if table is None or message is None or not self._audience.may_see(user):
                return None
            allowed = rights_among(user, table, self._seats, lambda: user.pk in self._muted)
            if not allowed.read:
                return None
            key = (language, message.author_id == user.pk)
            if key not in self._lines:
                with translation.override(language):
                    line = line_of(message, user)
                    self._lines[key] = render_to_string(LINE_TEMPLATE, {"line": line})
                self.renders += 1
            return self._lines[key]

    def _read_once(self) -> None:
        if self._read:
            return
        self._read = True
        table = Table.objects.select_related("current_hand").filter(pk=self.table_id).first()
        if table is None:
            return
        self._table = table
        self._seats = table_seats(table)
        self._audience = audience(table, self._seats)
        self._muted = frozenset(
            ChatMute.objects.filter(table=table).values_list("user_id", flat=True)
        )
        self._message = (
            ChatMessage.objects.select_related("author")
            .filter(pk=self.message_id, table_id=self.table_id)
            .first()
        )


# (table id, message id) -> SharedMessage
_shared = SharedReadings(SHARED_MESSAGES, SHARED_SECONDS)


def shared_message(table_id: int, message_id: int) -> SharedMessage:
    """The reading of a message that this process's pages share (for SHARED_SECONDS:
    they all hear it within milliseconds)."""
    return _shared.get((table_id, message_id), lambda: SharedMessage(table_id, message_id))
