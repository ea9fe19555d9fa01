"""The analysis of finished hands: computed once in the task worker, shown in the replay.

When a hand with card play ends, ``queue_analysis`` (on the commit of the move that ended
it, ``robust``: a queue that fails logs and never breaks the move) queues
``analyse_hand_task`` on the queue ``analysis``, which a worker of its own runs
(``belote_worker --queue-name analysis``), so that no bot's move nor clock waits behind
it. The task replays the hand from its log and asks games/bots/analysis.py, the exact
double-dummy play, which card plays would have scored more for their team; it stores
them once (``HandAnalysis``). Running it twice, late, or for a hand deleted meanwhile
does nothing.

``analysis_shown`` is what the replay shows: nothing for a hand not over (the replay
itself is a 404 then) or without card play; "analyse en cours" while the task has not
run (for at most BELOTE_ANALYSIS_WAIT_SECONDS after the hand's end: after that a worker
is down, or the hand is older than the analysis, and nothing is promised); then each
marked card's note. "Points" are the hand's score (games/bots/analysis.py): what the
player's team would have scored more, with the contract, litige and capot.
"""

from __future__ import annotations

import datetime
import logging
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import rules as engine
from games.bots import analysis
from games.tables.models import Action, Hand, HandAnalysis
from games.tables.selectors import deck_cards
from games.tables.words import RANK_NAMES, SEAT_LETTERS, SUIT_NAMES, name_of_seat

logger = logging.getLogger(__name__)

QUEUE = "analysis"


def queue_analysis(hand_id: int) -> None:
    """On the commit of the move that ended the hand: queue its analysis."""
    analyse_hand_task.enqueue(hand_id=hand_id)


def queue_on_commit(hand_id: int) -> None:
    """In the transaction of the move that ends a hand with card play: its analysis is
    queued once the move is saved, and a failure to queue it is logged, never raised."""
    transaction.on_commit(lambda: queue_analysis(hand_id), robust=True)


@task(queue_name=QUEUE, priority=-10)
def analyse_hand_task(hand_id: int) -> None:
    analyse_hand(hand_id)


# A hand's analysis not stored this long after the hand's end, with no task of it waiting
# or running (started less than this long ago), was lost: the sweep queues it again.
LOST_AFTER = datetime.timedelta(minutes=10)
REQUEUED_PER_SWEEP = 50


def requeue_lost(now: datetime.datetime | None = None) -> int:
    """Queue again the analyses lost on their way (a queue that failed at the move's
    commit, a worker killed in the middle of one): the hands over for LOST_AFTER, and for
    less than BELOTE_ANALYSIS_WAIT_SECONDS (older ones are not promised), with cards
    played, no analysis stored and none waiting or running. Called by the sweep
    (games/timing/sweep.py); returns how many were queued."""
    now = now or timezone.now()
    wait = datetime.timedelta(seconds=settings.BELOTE_ANALYSIS_WAIT_SECONDS)
    hands = Hand.objects.filter(finished_at__gte=now - wait, finished_at__lte=now - LOST_AFTER)
    queued = queue_missing(hands, now, REQUEUED_PER_SWEEP)
    if queued:
        logger.warning("Queued again the lost analysis of %d hands.", queued)
    return queued


def queue_missing(hands, now: datetime.datetime | None = None, limit: int | None = None) -> int:
    """Queue the analysis of those of ``hands`` (a queryset) that are over, with cards
    played, have no analysis and none waiting or running (started less than LOST_AFTER
    ago), the oldest first, at most ``limit``; returns how many were queued. The sweep's
    ``requeue_lost`` and ``manage.py belote_analyse`` (hands older than the analysis)."""
    from django_tasks_db.models import DBTaskResult

    now = now or timezone.now()
    candidates = (
        hands.filter(finished_at__isnull=False, analysis__isnull=True)
        .exclude(contract="")
        .order_by("finished_at")
        .values_list("pk", flat=True)
    )
    if limit is not None:
        candidates = candidates[: limit * 4]
    candidates = list(candidates)
    if not candidates:
        return 0
    pending = DBTaskResult.objects.filter(task_path=analyse_hand_task.module_path).filter(
        Q(status=TaskResultStatus.READY)
        | Q(status=TaskResultStatus.RUNNING, started_at__gte=now - LOST_AFTER)
    )
    waiting = {
        row["kwargs"].get("hand_id") for row in pending.values_list("args_kwargs", flat=True)
    }
    lost = [pk for pk in candidates if pk not in waiting][:limit]
    for hand_id in lost:
        queue_analysis(hand_id)
    return len(lost)


def analyse_hand(hand_id: int) -> HandAnalysis | None:
    """Analyse the finished hand ``hand_id`` and store it; None when there is nothing to
    do (no such hand, not over, already analysed) or the hand went meanwhile."""
    hand = Hand.objects.select_related("game__table").filter(pk=hand_id).first()
    if hand is None or not hand.is_over or HandAnalysis.objects.filter(hand=hand).exists():
        return None
    rows = Action.objects.filter(hand=hand).order_by("seq").values_list("seq", "payload")
    moves = [(seq, engine.Action.parse(p["action"])) for seq, p in rows if "action" in p]
    start = engine.deal(hand.game.table.rules, hand.dealer, deck_cards(hand.deck))
    first_trick = max(1, min(8, settings.BELOTE_ANALYSIS_FIRST_TRICK))
    began = time.perf_counter()
    notes = analysis.analyse(start, [a for _seq, a in moves], first_trick=first_trick)
    seconds = time.perf_counter() - began
    stored = [
        {
            "seq": moves[n.index][0],
            "seat": n.seat,
            "trick": n.trick,
            "played": engine.code_of(n.played),
            "best": [engine.code_of(c) for c in n.best],
            "gain": n.gain,
            "spared": n.spared,
        }
        for n in notes
    ]
    try:
        with transaction.atomic():
            row, _created = HandAnalysis.objects.get_or_create(
                hand_id=hand_id,
                defaults={"first_trick": first_trick, "notes": stored, "seconds": seconds},
            )
    except (IntegrityError, HandAnalysis.DoesNotExist):
        logger.info("Hand %s went before its analysis was stored.", hand_id)
        return None
    return row


# ---------------------------------------------------------------------------------------
# What the replay shows


@dataclass(frozen=True)
class NoteShown:
    trick: int
    seat: str  # letter
    played: str  # code
    played_words: str  # "le valet de pique"
    text: str  # "Le 9 d'atout aurait gagné 14 points."

    @property
    def seat_name(self) -> str:
        return name_of_seat(self.seat)


@dataclass
class AnalysisShown:
    pending: bool = False
    first_trick: int = 1
    notes: list[NoteShown] = field(default_factory=list)

    def of_trick(self, number: int) -> list[NoteShown]:
        return [n for n in self.notes if n.trick == number]

    @property
    def marked(self) -> set[tuple[int, str]]:
        """(trick, card) of each marked card, for the table of tricks."""
        return {(n.trick, n.played) for n in self.notes}


def analysis_shown(hand: Hand, contract: str | None) -> AnalysisShown | None:
    """The analysis as the replay of the finished ``hand`` shows it (module docstring);
    None when there is nothing to say. ``contract``: the hand's mode ("H", "SA", ...)."""
    if not hand.is_over or not contract:
        return None
    row = HandAnalysis.objects.filter(hand=hand).first()
    if row is None:
        wait = datetime.timedelta(seconds=settings.BELOTE_ANALYSIS_WAIT_SECONDS)
        if hand.finished_at is not None and timezone.now() - hand.finished_at < wait:
            return AnalysisShown(pending=True)
        return None
    notes = []
    for note in row.notes if isinstance(row.notes, list) else []:
        try:
            notes.append(
                NoteShown(
                    trick=int(note["trick"]),
                    seat=SEAT_LETTERS[int(note["seat"])],
                    played=str(note["played"]),
                    played_words=card_words(str(note["played"]), contract),
                    text=note_text(note, contract),
                )
            )
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # a note this code cannot read is left out, never a 500
    return AnalysisShown(first_trick=row.first_trick, notes=notes)


def note_text(note: dict, contract: str) -> str:
    """``Le 9 d'atout aurait gagné 14 points.`` (the better cards, the team's gain), or,
    when the team would have scored no more but the others less (a capot or a litige
    avoided), ``Avec le 9 d'atout, l'adversaire aurait marqué 81 points de moins.``"""
    cards = [card_words(code, contract) for code in note["best"]]
    if not cards:
        raise ValueError("a note names a better card")
    named = (
        cards[0]
        if len(cards) == 1
        else _("%(cards)s ou %(last)s")
        % {
            "cards": ", ".join(cards[:-1]),
            "last": cards[-1],
        }
    )
    gain, spared = int(note["gain"]), int(note["spared"])
    if gain > 0:
        text = ngettext(
            "%(card)s aurait gagné %(points)s point.",
            "%(card)s aurait gagné %(points)s points.",
            gain,
        ) % {"card": named, "points": gain}
        return capfirst(text)
    return ngettext(
        "Avec %(card)s, l'adversaire aurait marqué %(points)s point de moins.",
        "Avec %(card)s, l'adversaire aurait marqué %(points)s points de moins.",
        spared,
    ) % {"card": named, "points": spared}


# A card with its article, as a sentence names it: "le 9 d'atout", "la dame de cœur",
# "l'as de pique". Numbers as digits, heads and the ace in words.
RANK_WORDS = {"7": "7", "8": "8", "9": "9", "T": "10"}
WITH_ARTICLE = {
    "Q": (gettext_lazy("la dame de %(suit)s"), gettext_lazy("la dame d'atout")),
    "A": (gettext_lazy("l'as de %(suit)s"), gettext_lazy("l'as d'atout")),
}
PLAIN = (gettext_lazy("le %(rank)s de %(suit)s"), gettext_lazy("le %(rank)s d'atout"))


def card_words(code: str, contract: str) -> str:
    rank, suit = code[0], code[1]
    if rank not in RANK_NAMES or suit not in SUIT_NAMES:
        raise ValueError(f"not a card: {code!r}")
    trump = contract == suit  # in a suit contract; SA and TA name the suit
    plain, of_trumps = WITH_ARTICLE.get(rank, PLAIN)
    words = of_trumps if trump else plain
    return str(words) % {
        "rank": RANK_WORDS.get(rank) or RANK_NAMES[rank],
        "suit": SUIT_NAMES[suit],
    }
