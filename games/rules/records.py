"""Game records and deal commitments: what anyone can check with the engine alone.

A deal commitment is published before the bidding: SHA-256 over the deck in its exact
order and a random salt, in the versioned encoding ``COMMITMENT_ENCODING`` (see
``commitment``). Once the hand is over the deck and the salt are revealed, and anyone can
recompute it. A record (``FORMAT``, documented in docs/records.md) holds a game's finished
hands (or one hand): the rules, each hand's dealer, deck, salt, commitment, every action
with its seat, and the scores. ``verify_record`` replays it through the engine and refuses
it, saying what does not match, when the deck does not match its commitment, an action is
not legal, or a score is not the replay's. ``verify_archive`` does the same for every
record of a zip archive (a tournament's). Pure: no Django, no database, no randomness;
the archive is read from bytes in memory.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import IllegalAction, gettext_noop
from .cards import SEATS, TEAMS
from .description import BadInput, run, start
from .game import Game, new_game, record_hand, score
from .hand import DONE
from .options import InvalidOptions
from .presets import PRESETS, rules_for

FORMAT = "belote-record/1"
COMMITMENT_ENCODING = "belote-deal-v1"
# An archive's limits: a record is a few kilobytes per hand.
MAX_RECORD_BYTES = 2_000_000
MAX_ARCHIVE_RECORDS = 5_000
MAX_ARCHIVE_BYTES = 200_000_000


def commitment(deck: Sequence[str], salt: str) -> str:
    """The commitment to a deal, as 64 hex digits: SHA-256 over the UTF-8 bytes of
    ``belote-deal-v1``, a newline, the 32 card codes top first joined by commas, a newline,
    and the salt as written (hex)."""
    data = f"{COMMITMENT_ENCODING}\n{','.join(deck)}\n{salt}"
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


class Text:
    """A message of the verifier: a marked French ``template`` and its ``params``, which may
    be ``Text`` themselves (where in the record, what was compared). ``str`` gives the
    French; ``render(translate)`` gives it through a catalogue (the site's ``gettext``)."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def render(self, translate: Callable[[str], str] = str) -> str:
        params = {
            key: value.render(translate) if isinstance(value, Text) else value
            for key, value in self.params.items()
        }
        return translate(self.template).format(**params)

    def __str__(self) -> str:
        return self.render()


def _hand(number: Any) -> Text:
    return Text(gettext_noop("donne {number}"), number=number)


RECORD = Text(gettext_noop("enregistrement"))
BEFORE = Text(gettext_noop("« before » (avant)"))
AFTER = Text(gettext_noop("« after » (après)"))
GAME = Text(gettext_noop("partie"))
WHAT = {
    "rules": Text(gettext_noop("règles :")),
    "number": Text(gettext_noop("numéro :")),
    "score": Text(gettext_noop("score :")),
    "held": Text(gettext_noop("points en réserve :")),
    "winner": Text(gettext_noop("gagnant :")),
    "dealer": Text(gettext_noop("donneur :")),
    "end": Text(gettext_noop("fin de la donne :")),
    "points": Text(gettext_noop("points :")),
    "made": Text(gettext_noop("contrat réussi :")),
    "litige": Text(gettext_noop("litige :")),
    "capot": Text(gettext_noop("capot :")),
}


class RecordRefused(ValueError):
    """A record that does not verify; the message (``text``, French, translatable with
    ``render``) says what does not match."""

    def __init__(self, template: str, **params: Any) -> None:
        self.text = Text(template, **params)
        super().__init__(str(self.text))

    def render(self, translate: Callable[[str], str] = str) -> str:
        return self.text.render(translate)


@dataclass
class Verified:
    """What a verified record holds."""

    kind: str
    table: Any
    game: Any
    hands: int = 0
    committed: int = 0  # hands whose deck matched a commitment
    uncommitted: list[int] = field(default_factory=list)  # dealt before commitments existed
    scores: tuple[int, int] | None = None
    winner: str | None = None
    forfeit: bool = False

    def summary(self, translate: Callable[[str], str] = str) -> str:
        """What was verified, in French (or through ``translate``, the site's ``gettext``)."""
        if self.kind == "game":
            head = gettext_noop("partie, table {table}, partie n° {game} : {hands} donnes")
        else:
            head = gettext_noop("donne, table {table}, partie n° {game} : {hands} donnes")
        parts = [Text(head, table=self.table, game=self.game, hands=self.hands)]
        if self.scores is not None:
            ns, ew = self.scores
            parts.append(Text(gettext_noop("score NS {ns}, EW {ew}"), ns=ns, ew=ew))
        if self.winner:
            if self.forfeit:
                won = gettext_noop("gagnée par {winner} (forfait)")
            else:
                won = gettext_noop("gagnée par {winner}")
            parts.append(Text(won, winner=self.winner))
        parts.append(
            Text(
                gettext_noop("{count} donnes correspondent à leur empreinte"),
                count=self.committed,
            )
        )
        if self.uncommitted:
            numbers = ", ".join(str(n) for n in self.uncommitted)
            parts.append(
                Text(
                    gettext_noop("donnes distribuées avant les empreintes : {numbers}"),
                    numbers=numbers,
                )
            )
        return " ; ".join(part.render(translate) for part in parts)


def _get(obj: Any, key: str, kind: type | tuple[type, ...], where: Text) -> Any:
    if not isinstance(obj, dict) or key not in obj or not isinstance(obj[key], kind):
        raise RecordRefused(
            gettext_noop("{where} : « {key} » manque ou est mal formé"), where=where, key=key
        )
    return obj[key]


def _is_seat(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in SEATS


def _team_points(obj: Any, where: Text) -> tuple[int, int]:
    if not isinstance(obj, dict) or any(type(obj.get(t)) is not int for t in TEAMS):
        raise RecordRefused(
            gettext_noop('{where} : les scores s\'écrivent {{"NS": n, "EW": n}}'), where=where
        )
    return obj["NS"], obj["EW"]


def _check_commitment(hand: dict, where: Text, verified: Verified, number: int) -> None:
    salt, committed = hand.get("salt"), hand.get("commitment")
    if salt is None and committed is None:
        verified.uncommitted.append(number)
        return
    if not isinstance(salt, str) or not isinstance(committed, str):
        raise RecordRefused(
            gettext_noop("{where} : le sel et l'empreinte s'écrivent en hexadécimal"), where=where
        )
    deck = hand["deck"]
    if commitment(deck, salt) != committed:
        raise RecordRefused(
            gettext_noop(
                "{where} : le paquet et le sel ne correspondent pas à l'empreinte {commitment}… "
                "(une carte ou le sel diffère de ce qui était engagé avant la donne)"
            ),
            where=where,
            commitment=committed[:12],
        )
    verified.committed += 1


def _compare(where: Text, what: Text, recorded: Any, replayed: Any) -> None:
    if recorded != replayed:
        raise RecordRefused(
            gettext_noop("{where} : {what} {recorded} enregistré, le rejeu donne {replayed}"),
            where=where,
            what=what,
            recorded=repr(recorded),
            replayed=repr(replayed),
        )


def _verify_hand(record: dict, hand: Any, running: Game, verified: Verified) -> Game:
    number = _get(hand, "number", int, Text(gettext_noop("une donne")))
    where = _hand(number)
    dealer = _get(hand, "dealer", str, where)
    if not _is_seat(dealer):
        raise RecordRefused(gettext_noop("{where} : le donneur est N, E, S ou W"), where=where)
    deck = _get(hand, "deck", list, where)
    if len(deck) != 32 or not all(isinstance(card, str) for card in deck):
        raise RecordRefused(
            gettext_noop("{where} : le paquet est la liste des 32 codes de cartes, du dessus"),
            where=where,
        )
    if running.dealer >= 0 and SEATS.index(dealer) != running.dealer:
        _compare(where, WHAT["dealer"], dealer, SEATS[running.dealer])
    _check_commitment(hand, where, verified, number)
    spec = {
        "preset": record["preset"],
        "options": record.get("options") or {},
        "dealer": dealer,
        "deck": deck,
    }
    actions = _get(hand, "actions", list, where)
    try:
        state, _ = start(spec)
        state = run(state, actions)
    except BadInput as error:
        raise RecordRefused(
            gettext_noop("{where} : description invalide ({error})"), where=where, error=error
        ) from error
    except IllegalAction as error:
        raise RecordRefused(
            gettext_noop(
                "{where} : l'action {number} ({action}) n'est pas légale : {code} ({why})"
            ),
            where=where,
            number=error.index + 1,
            action=repr(actions[error.index]),
            code=error.code,
            why=Text(error.template, **error.params),
        ) from error
    if state.phase != DONE:
        raise RecordRefused(
            gettext_noop("{where} : les actions s'arrêtent avant la fin de la donne"), where=where
        )
    result = score(state)
    recorded = _get(hand, "result", dict, where)
    _compare(where, WHAT["end"], recorded.get("ended"), state.ended)
    _compare(where, WHAT["points"], _team_points(recorded.get("points"), where), result.points)
    _compare(where, WHAT["made"], recorded.get("made"), None if result.passed else result.made)
    _compare(where, WHAT["litige"], recorded.get("litige"), result.litige)
    capot = TEAMS[result.capot] if result.capot >= 0 else None
    _compare(where, WHAT["capot"], recorded.get("capot"), capot)
    _compare(where, WHAT["held"], recorded.get("held"), result.held)
    if running.over:
        raise RecordRefused(
            gettext_noop("{where} : donne distribuée après la fin de la partie"), where=where
        )
    verified.hands += 1
    return record_hand(running._replace(dealer=SEATS.index(dealer)), state)


def verify_record(record: Any) -> Verified:
    """Replay a record; its summary if everything matches, else ``RecordRefused``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordRefused(
            gettext_noop("pas un enregistrement : « format » doit valoir {format}"),
            format=repr(FORMAT),
        )
    kind = record.get("kind")
    if kind not in ("game", "hand"):
        raise RecordRefused(gettext_noop("« kind » vaut « game » ou « hand »"))
    preset = _get(record, "preset", str, RECORD)
    if preset not in PRESETS:
        raise RecordRefused(
            gettext_noop("{where} : variante inconnue {preset}"), where=RECORD, preset=repr(preset)
        )
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordRefused(gettext_noop("{where} : « options » est un objet"), where=RECORD)
    try:
        game_rules = rules_for(preset, options)
    except (InvalidOptions, TypeError) as error:
        raise RecordRefused(
            gettext_noop("{where} : options invalides ({error})"), where=RECORD, error=error
        ) from error
    hands = _get(record, "hands", list, RECORD)
    if kind == "hand" and len(hands) != 1:
        raise RecordRefused(gettext_noop("un enregistrement de donne contient une seule donne"))
    verified = Verified(kind, record.get("table"), record.get("game"))
    if "rules" in record:
        _compare(RECORD, WHAT["rules"], record["rules"], game_rules.to_dict())
    # Who deals the first hand: the record's first dealer; -1 (unknown) for a hand record.
    first = record.get("first_dealer")
    running = new_game(game_rules, SEATS.index(first) if _is_seat(first) else -1)
    before = record.get("before") or {"NS": 0, "EW": 0, "held": 0}
    scores = _team_points(before, BEFORE)
    held = before.get("held", 0)
    if type(held) is not int or held < 0 or min(scores) < 0:
        raise RecordRefused(
            gettext_noop("{where} : les scores et les points en réserve sont des entiers positifs"),
            where=BEFORE,
        )
    running = running._replace(scores=scores, held=held)
    for index, hand in enumerate(hands):
        if not isinstance(hand, dict):
            raise RecordRefused(
                gettext_noop("{where} : une donne est un objet"), where=_hand(index + 1)
            )
        if kind == "game":
            _compare(_hand(index + 1), WHAT["number"], hand.get("number"), index + 1)
        running = _verify_hand(record, hand, running, verified)
    if kind == "game":
        after = _get(record, "after", dict, RECORD)
        verified.scores = _team_points(after, AFTER)
        _compare(GAME, WHAT["score"], verified.scores, running.scores)
        _compare(GAME, WHAT["held"], after.get("held"), running.held)
        verified.forfeit = bool(after.get("forfeit"))
        replayed_winner = TEAMS[running.winner] if running.over else None
        if verified.forfeit:  # lost on time: the winner is not the rules' to decide
            if running.over:
                raise RecordRefused(
                    gettext_noop("{where} : un forfait enregistré après la fin de la partie"),
                    where=GAME,
                )
            verified.winner = after.get("winner")
        else:
            _compare(GAME, WHAT["winner"], after.get("winner"), replayed_winner)
            verified.winner = replayed_winner
    return verified


def verify_json(data: bytes) -> Verified:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordRefused(
            gettext_noop("un enregistrement fait au plus {limit} octets"), limit=MAX_RECORD_BYTES
        )
    try:
        record = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise RecordRefused(gettext_noop("pas du JSON : {error}"), error=error) from error
    return verify_record(record)


def verify_archive(data: bytes) -> list[tuple[str, Verified | RecordRefused]]:
    """Each JSON record of a zip archive, verified or refused (in the archive's order)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise RecordRefused(gettext_noop("pas une archive zip : {error}"), error=error) from error
    if len(members) > MAX_ARCHIVE_RECORDS:
        raise RecordRefused(
            gettext_noop("une archive contient au plus {limit} enregistrements"),
            limit=MAX_ARCHIVE_RECORDS,
        )
    if sum(i.file_size for i in members) > MAX_ARCHIVE_BYTES:
        raise RecordRefused(
            gettext_noop("une archive fait au plus {limit} octets"), limit=MAX_ARCHIVE_BYTES
        )
    results: list[tuple[str, Verified | RecordRefused]] = []
    for info in members:
        try:
            with archive.open(info) as member:
                content = member.read(MAX_RECORD_BYTES + 1)
            results.append((info.filename, verify_json(content)))
        except RecordRefused as refused:
            results.append((info.filename, refused))
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as error:
            results.append(
                (info.filename, RecordRefused(gettext_noop("illisible : {error}"), error=error))
            )
    if not results:
        raise RecordRefused(gettext_noop("l'archive ne contient aucun enregistrement"))
    return results


def verify_bytes(data: bytes) -> list[tuple[str, Verified | RecordRefused]]:
    """A record (JSON) or an archive of records (zip), told apart by their first bytes."""
    if data[:4] == b"PK\x03\x04":
        return verify_archive(data)
    try:
        return [("record", verify_json(data))]
    except RecordRefused as refused:
        return [("record", refused)]
