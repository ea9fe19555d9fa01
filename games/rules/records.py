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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import IllegalAction
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


class RecordRefused(ValueError):
    """A record that does not verify; the message says what does not match."""


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

    def summary(self) -> str:
        parts = [f"{self.kind} record, table {self.table}, game {self.game}: {self.hands} hands"]
        if self.scores is not None:
            parts.append(f"score NS {self.scores[0]} EW {self.scores[1]}")
        if self.winner:
            parts.append(f"won by {self.winner}{' (forfeit)' if self.forfeit else ''}")
        parts.append(f"{self.committed} deals match their commitment")
        if self.uncommitted:
            numbers = ", ".join(str(n) for n in self.uncommitted)
            parts.append(f"hands dealt before commitments: {numbers}")
        return "; ".join(parts)


def _get(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj or not isinstance(obj[key], kind):
        raise RecordRefused(f"{where}: '{key}' is missing or malformed")
    return obj[key]


def _is_seat(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in SEATS


def _team_points(obj: Any, where: str) -> tuple[int, int]:
    if not isinstance(obj, dict) or any(type(obj.get(t)) is not int for t in TEAMS):
        raise RecordRefused(f"{where}: scores are {{'NS': n, 'EW': n}}")
    return obj["NS"], obj["EW"]


def _check_commitment(hand: dict, where: str, verified: Verified, number: int) -> None:
    salt, committed = hand.get("salt"), hand.get("commitment")
    if salt is None and committed is None:
        verified.uncommitted.append(number)
        return
    if not isinstance(salt, str) or not isinstance(committed, str):
        raise RecordRefused(f"{where}: salt and commitment are hex strings")
    deck = hand["deck"]
    if commitment(deck, salt) != committed:
        raise RecordRefused(
            f"{where}: the deck and the salt do not match the commitment {committed[:12]}…"
            " (a card or the salt differs from what was committed before the deal)"
        )
    verified.committed += 1


def _compare(where: str, what: str, recorded: Any, replayed: Any) -> None:
    if recorded != replayed:
        raise RecordRefused(f"{where}: {what} recorded {recorded!r}, the replay gives {replayed!r}")


def _verify_hand(record: dict, hand: Any, running: Game, verified: Verified) -> Game:
    number = _get(hand, "number", int, "hand")
    where = f"hand {number}"
    dealer = _get(hand, "dealer", str, where)
    if not _is_seat(dealer):
        raise RecordRefused(f"{where}: the dealer is one of N, E, S, W")
    deck = _get(hand, "deck", list, where)
    if len(deck) != 32 or not all(isinstance(card, str) for card in deck):
        raise RecordRefused(f"{where}: the deck is the 32 card codes, top first")
    if running.dealer >= 0 and SEATS.index(dealer) != running.dealer:
        _compare(where, "dealer", dealer, SEATS[running.dealer])
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
        raise RecordRefused(f"{where}: {error}") from error
    except IllegalAction as error:
        raise RecordRefused(
            f"{where}: action {error.index + 1} ({actions[error.index]!r}) is not legal: "
            f"{error.code} ({error.message})"
        ) from error
    if state.phase != DONE:
        raise RecordRefused(f"{where}: the actions stop before the hand is over")
    result = score(state)
    recorded = _get(hand, "result", dict, where)
    _compare(where, "end", recorded.get("ended"), state.ended)
    _compare(where, "points", _team_points(recorded.get("points"), where), result.points)
    _compare(where, "contract made", recorded.get("made"), None if result.passed else result.made)
    _compare(where, "litige", recorded.get("litige"), result.litige)
    capot = TEAMS[result.capot] if result.capot >= 0 else None
    _compare(where, "capot", recorded.get("capot"), capot)
    _compare(where, "held points", recorded.get("held"), result.held)
    if running.over:
        raise RecordRefused(f"{where}: dealt after the game was won")
    verified.hands += 1
    return record_hand(running._replace(dealer=SEATS.index(dealer)), state)


def verify_record(record: Any) -> Verified:
    """Replay a record; its summary if everything matches, else ``RecordRefused``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordRefused(f"not a record: 'format' must be {FORMAT!r}")
    kind = record.get("kind")
    if kind not in ("game", "hand"):
        raise RecordRefused("'kind' is 'game' or 'hand'")
    preset = _get(record, "preset", str, "record")
    if preset not in PRESETS:
        raise RecordRefused(f"record: unknown preset {preset!r}")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise RecordRefused("record: 'options' is an object")
    try:
        game_rules = rules_for(preset, options)
    except (InvalidOptions, TypeError) as error:
        raise RecordRefused(f"record: {error}") from error
    hands = _get(record, "hands", list, "record")
    if kind == "hand" and len(hands) != 1:
        raise RecordRefused("a hand record holds one hand")
    verified = Verified(kind, record.get("table"), record.get("game"))
    if "rules" in record:
        _compare("record", "rules", record["rules"], game_rules.to_dict())
    # Who deals the first hand: the record's first dealer; -1 (unknown) for a hand record.
    first = record.get("first_dealer")
    running = new_game(game_rules, SEATS.index(first) if _is_seat(first) else -1)
    before = record.get("before") or {"NS": 0, "EW": 0, "held": 0}
    scores = _team_points(before, "before")
    held = before.get("held", 0)
    if type(held) is not int or held < 0 or min(scores) < 0:
        raise RecordRefused("before: scores and held points are whole numbers, 0 or more")
    running = running._replace(scores=scores, held=held)
    for index, hand in enumerate(hands):
        if not isinstance(hand, dict):
            raise RecordRefused(f"hand {index + 1}: a hand is an object")
        if kind == "game":
            _compare(f"hand {index + 1}", "number", hand.get("number"), index + 1)
        running = _verify_hand(record, hand, running, verified)
    if kind == "game":
        after = _get(record, "after", dict, "record")
        verified.scores = _team_points(after, "after")
        _compare("game", "score", verified.scores, running.scores)
        _compare("game", "held points", after.get("held"), running.held)
        verified.forfeit = bool(after.get("forfeit"))
        replayed_winner = TEAMS[running.winner] if running.over else None
        if verified.forfeit:  # lost on time: the winner is not the rules' to decide
            if running.over:
                raise RecordRefused("game: a forfeit recorded after the game was won")
            verified.winner = after.get("winner")
        else:
            _compare("game", "winner", after.get("winner"), replayed_winner)
            verified.winner = replayed_winner
    return verified


def verify_json(data: bytes) -> Verified:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordRefused(f"a record is at most {MAX_RECORD_BYTES} bytes")
    try:
        record = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise RecordRefused(f"not JSON: {error}") from error
    return verify_record(record)


def verify_archive(data: bytes) -> list[tuple[str, Verified | RecordRefused]]:
    """Each JSON record of a zip archive, verified or refused (in the archive's order)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise RecordRefused(f"not a zip archive: {error}") from error
    if len(members) > MAX_ARCHIVE_RECORDS:
        raise RecordRefused(f"an archive holds at most {MAX_ARCHIVE_RECORDS} records")
    if sum(i.file_size for i in members) > MAX_ARCHIVE_BYTES:
        raise RecordRefused(f"an archive holds at most {MAX_ARCHIVE_BYTES} bytes")
    results: list[tuple[str, Verified | RecordRefused]] = []
    for info in members:
        try:
            with archive.open(info) as member:
                content = member.read(MAX_RECORD_BYTES + 1)
            results.append((info.filename, verify_json(content)))
        except RecordRefused as refused:
            results.append((info.filename, refused))
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as error:
            results.append((info.filename, RecordRefused(f"unreadable: {error}")))
    if not results:
        raise RecordRefused("the archive holds no record")
    return results


def verify_bytes(data: bytes) -> list[tuple[str, Verified | RecordRefused]]:
    """A record (JSON) or an archive of records (zip), told apart by their first bytes."""
    if data[:4] == b"PK\x03\x04":
        return verify_archive(data)
    try:
        return [("record", verify_json(data))]
    except RecordRefused as refused:
        return [("record", refused)]
