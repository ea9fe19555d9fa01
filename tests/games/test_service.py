"""games.tables.service: the only write path of game state, tested against a real database.

The fixed position used by most tests: classique, the unshuffled deck (``range(32)``),
North deals. Play is counter-clockwise, so West speaks first and, once West has taken
the turned JD (carreau), West leads and South plays next:

    N  8H 9H TH 9D TD  QC KC AC
    E  KS AS 7H 7D 8D  9C TC JC
    S  TS JS QS KH AH  AD 7C 8C
    W  7S 8S 9S JH QH  JD QD KD   (takes the turned JD)
"""

from __future__ import annotations

import asyncio
import random
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from games import rules as engine
from games.models import Action, Game, Hand, Seat, Table, Trick
from games.tables import service
from games.tables.board import table_seats
from games.tables.selectors import hand_state
from games.tables.service import SeatAgent, ServiceError
from games.tables.verification import verify_table
from games.timing.absence import check_absent_task
from tests.factories import (
    make_table,
    make_user,
    make_users,
    play_random_move,
    play_to_the_end,
    seated_user,
    started_table,
)

pytestmark = pytest.mark.django_db

N, E, S, W = range(4)
SORTED_DECK = list(range(32))
MAX_QUERIES_PER_MOVE = 12  # the budget for one move through submit
# The move that ends a game also runs the end-of-game hook (games/tables/results.py) in its
# transaction: the ratings take 5 queries, 7 in a player's first rated game.
MAX_QUERIES_GAME_END = MAX_QUERIES_PER_MOVE + 8


def sorted_table(**kwargs) -> Table:
    return started_table(deck=SORTED_DECK, first_dealer=N, **kwargs)


def submit_as(table: Table, seat: int, action: str) -> service.Outcome:
    """``action`` by the user at ``seat``, at the table's current version."""
    table.refresh_from_db()
    return service.submit(
        table_id=table.pk,
        actor=seated_user(table, seat),
        action=action,
        expected_version=table.version,
    )


def db_state(table: Table) -> dict:
    """Everything a refused request must leave as it was."""
    table = Table.objects.get(pk=table.pk)
    return {
        "rows": {
            model.__name__: model.objects.count()
            for model in (Table, Seat, Game, Hand, Trick, Action)
        },
        "table": (table.version, table.updated_at, table.status, table.current_hand_id),
        "hands": list(Hand.objects.filter(game__table=table).order_by("pk").values()),
        "games": list(Game.objects.filter(table=table).order_by("pk").values()),
    }


def expected_next_dealer(rules: engine.Rules, dealer: int) -> int:
    # "left" of a seat is the next one clockwise (N -> E), "right" counter-clockwise.
    return (dealer + 1) % 4 if rules.next_dealer == "left" else (dealer + 3) % 4


def assert_finished_properly(table: Table) -> Game:
    """Finished at the target with the right winner, dealers chained, log matching rows."""
    table.refresh_from_db()
    rules = table.rules
    assert table.status == Table.Status.FINISHED
    game = table.games.get()
    assert max(game.scores) >= rules.target
    if game.score_ns != game.score_ew:
        assert game.winner == (0 if game.score_ns > game.score_ew else 1)
    else:  # only belote_com settles equal totals, by the last hand
        assert rules.tie_break == "last_hand_winner"
        assert game.winner is not None
    assert game.finished_at is not None

    hands = list(game.hands.order_by("number"))
    assert [h.number for h in hands] == list(range(1, len(hands) + 1))
    assert hands[0].dealer == game.first_dealer
    for previous, following in zip(hands, hands[1:], strict=False):
        assert following.dealer == expected_next_dealer(rules, previous.dealer)
    assert all(hand.is_over and hand.finished_at for hand in hands)
    assert table.current_hand_id == hands[-1].pk
    # A fresh shuffle for every hand: 32 distinct cards, no deck dealt twice.
    decks = [hand.deck for hand in hands]
    assert all(len(set(deck[i : i + 2] for i in range(0, 64, 2))) == 32 for deck in decks)
    assert len(set(decks)) == len(decks)

    seqs = list(table.actions.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, table.version + 1))
    assert verify_table(table) == []
    return game


# ---------------------------------------------------------------------------------------
# Whole games


@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_an_all_bot_game_is_played_to_the_target(preset):
    table = started_table(
        preset=preset, bots={N: "heuristic", E: "random", S: "heuristic", W: "random"}
    )

    moves = service.play_bots(table.pk)

    game = assert_finished_properly(table)
    assert moves == table.version - 1  # every action but the start is a bot's move
    sources = set(table.actions.exclude(kind="start").values_list("source", flat=True))
    assert sources == {Action.Source.BOT}
    assert not table.actions.exclude(kind="start").filter(actor__isnull=False).exists()
    assert game.hands.count() >= 2


def test_four_users_play_a_whole_game_through_submit():
    table = started_table(preset="belote_com")

    play_to_the_end(table, seed=3)

    assert_finished_properly(table)
    moves = table.actions.exclude(kind="start")
    assert set(moves.values_list("source", flat=True)) == {Action.Source.PLAYER}
    for action in moves.select_related("actor")[:50]:
        assert action.actor == seated_user(table, action.seat)


def test_a_finished_hand_is_scored_into_the_game_and_the_next_hand_dealt():
    table = sorted_table()
    first = table.current_hand
    rng = random.Random(5)

    while Table.objects.get(pk=table.pk).current_hand_id == first.pk:
        play_random_move(table, rng)

    first.refresh_from_db()
    table.refresh_from_db()
    game = first.game
    game.refresh_from_db()
    assert first.is_over and first.finished_at is not None
    assert game.scores == (first.points_ns, first.points_ew)
    assert game.held == first.held
    if first.ended == "played":
        assert first.tricks.count() == 8
        assert first.contract and first.taker is not None
    second = table.current_hand
    assert (second.game_id, second.number) == (game.pk, 2)
    assert second.dealer == expected_next_dealer(table.rules, N)  # classique: to the right
    assert second.deck != first.deck
    assert not second.is_over and second.tricks.count() == 0
    assert verify_table(table) == []


def test_the_contract_and_tricks_are_written_as_the_hand_goes():
    table = sorted_table()

    submit_as(table, W, "take")
    for seat, card in ((W, "7S"), (S, "TS"), (E, "AS"), (N, "9D")):
        submit_as(table, seat, f"play {card}")

    hand = Hand.objects.get(pk=table.current_hand_id)
    assert (hand.contract, hand.taker) == ("D", W)
    trick = hand.tricks.get()
    # N cuts the spade lead with the 9 of trumps: 14 + 10 + 11 points.
    assert (trick.number, trick.leader, trick.cards, trick.winner) == (1, W, "7STSAS9D", N)
    assert trick.points == 35
    assert list(table.actions.order_by("seq").values_list("seq", "kind", "seat")) == [
        (1, "start", None),
        (2, "take", W),
        (3, "play", W),
        (4, "play", S),
        (5, "play", E),
        (6, "play", N),
    ]
    assert hand_state(table).turn == N


# ---------------------------------------------------------------------------------------
# Versions: stale and repeated submissions


def test_a_repeated_submission_is_applied_once():
    table = sorted_table()
    west = seated_user(table, W)
    version = table.version

    first = service.submit(table_id=table.pk, actor=west, action="pass", expected_version=version)
    before = db_state(table)
    again = service.submit(table_id=table.pk, actor=west, action="pass", expected_version=version)

    assert first == service.Outcome(version + 1, True)
    assert again == service.Outcome(version + 1, False)
    assert db_state(table) == before
    assert table.actions.filter(kind="pass").count() == 1


@pytest.mark.parametrize("offset", [-1, +1, +5])
def test_a_submission_for_another_version_changes_nothing(offset):
    table = sorted_table()
    submit_as(table, W, "pass")
    table.refresh_from_db()
    before = db_state(table)

    outcome = service.submit(
        table_id=table.pk,
        actor=seated_user(table, S),  # South is to speak: the move itself is legal
        action="pass",
        expected_version=table.version + offset,
    )

    assert outcome == service.Outcome(table.version, False)
    assert db_state(table) == before


# ---------------------------------------------------------------------------------------
# Illegal actions


@pytest.mark.parametrize(
    ("moves", "seat", "action", "code", "message"),
    [
        ([], N, "pass", "not_your_turn", "Ce n'est pas à vous de jouer."),
        ([], W, "play 7S", "wrong_phase", "On ne joue pas de carte pendant les enchères."),
        (
            [],
            W,
            "take SA",
            "wrong_suit",
            "Au premier tour, on prend à la couleur de la retourne (« take »).",
        ),
        ([(W, "take")], W, "play AH", "card_not_in_hand", "Vous n'avez pas cette carte."),
        (
            [(W, "take"), (W, "play 7S")],
            S,
            "play KH",
            "must_follow_suit",
            "Vous devez fournir à la couleur demandée.",
        ),
        ([], W, "dance", "unknown_action", "Action inconnue : « dance »."),
    ],
)
def test_an_illegal_action_is_refused_with_the_engines_code(moves, seat, action, code, message):
    table = sorted_table()
    for who, move in moves:
        submit_as(table, who, move)
    table.refresh_from_db()
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        submit_as(table, seat, action)

    assert refused.value.code == code
    assert refused.value.status == 422
    if message is not None:
        assert refused.value.message == message
    assert db_state(table) == before


def test_a_bot_cannot_play_out_of_turn():
    table = sorted_table(players=None, bots={p: "random" for p in range(4)})
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        service.submit(
            table_id=table.pk, actor=SeatAgent(N), action="pass", expected_version=table.version
        )

    assert refused.value.code == "not_your_turn"
    assert db_state(table) == before


# ---------------------------------------------------------------------------------------
# Who may act, and when


def test_a_user_who_is_not_seated_is_refused():
    table = sorted_table()
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        service.submit(
            table_id=table.pk, actor=make_user(), action="pass", expected_version=table.version
        )

    assert (refused.value.code, refused.value.status) == ("not_seated", 403)
    assert db_state(table) == before


def test_an_anonymous_actor_is_refused():
    table = sorted_table()

    with pytest.raises(ServiceError) as refused:
        service.submit(table_id=table.pk, actor=None, action="pass", expected_version=1)

    assert refused.value.status == 403


def test_a_bot_agent_cannot_act_for_a_human_seat():
    table = sorted_table()
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        service.submit(
            table_id=table.pk, actor=SeatAgent(W), action="pass", expected_version=table.version
        )

    assert (refused.value.code, refused.value.status) == ("not_a_bot", 403)
    assert db_state(table) == before


def test_a_missing_table_is_a_404():
    with pytest.raises(ServiceError) as refused:
        service.submit(table_id=999_999, actor=make_user(), action="pass", expected_version=0)

    assert (refused.value.code, refused.value.status) == ("no_table", 404)


def test_no_move_at_a_table_in_the_lobby():
    users = make_users(4)
    table = make_table(players=dict(enumerate(users)))
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        service.submit(table_id=table.pk, actor=users[0], action="pass", expected_version=0)

    assert (refused.value.code, refused.value.status) == ("not_playing", 409)
    assert db_state(table) == before


def test_no_move_at_a_finished_table():
    table = play_to_the_end(started_table(preset="stekius"), seed=1)
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        submit_as(table, N, "pass")

    assert (refused.value.code, refused.value.status) == ("not_playing", 409)
    assert db_state(table) == before


def test_a_table_with_a_free_seat_does_not_start():
    table = make_table(players={N: make_user(), S: make_user()}, bots={E: "random"})
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        service.start_table(table_id=table.pk)

    assert refused.value.code == "seats_free"
    assert db_state(table) == before


def test_a_table_starts_only_once():
    table = sorted_table()
    before = db_state(table)

    with pytest.raises(ServiceError) as refused:
        service.start_table(table_id=table.pk, deck=SORTED_DECK, first_dealer=N)

    assert (refused.value.code, refused.value.status) == ("already_started", 409)
    assert db_state(table) == before


def test_starting_deals_the_given_deck_from_the_given_dealer():
    table = started_table(deck=SORTED_DECK, first_dealer=E)

    assert table.status == Table.Status.PLAYING
    assert table.version == 1
    hand = table.current_hand
    assert (hand.number, hand.dealer, hand.game.number, hand.game.first_dealer) == (1, E, 1, E)
    assert hand.deck == "".join(engine.code_of(c) for c in SORTED_DECK)
    start = table.actions.get()
    assert (start.seq, start.kind, start.payload, start.hand_id) == (
        1,
        "start",
        {"dealer": E},
        None,
    )


# ---------------------------------------------------------------------------------------
# Queries per move


def move_kind(before: engine.HandState, after: engine.HandState) -> tuple:
    """What a move writes besides its action: a contract, a trick, a hand's end."""
    return (
        before.phase,
        after.contract != before.contract or after.taker != before.taker,
        len(after.tricks) > len(before.tricks),
        after.phase == engine.DONE,
    )


def test_queries_per_move_are_bounded_and_do_not_grow_with_the_hand_number(
    django_capture_on_commit_callbacks,
):
    """The budget covers the whole move: the transaction (its savepoint standing for BEGIN
    and COMMIT here) and what runs once it commits (the tasks it queues)."""
    with django_capture_on_commit_callbacks(execute=True):  # as the start's commit would
        table = sorted_table(options={"target": 1500})
        # A process reads a started table's seats once, then keeps them per seats version
        # (games/tables/board.py table_seats): the moves below are not that first reading.
        table_seats(table)
    actors = {seat.position: seat.user for seat in table.seats.select_related("user")}
    rng = random.Random(11)
    counts: dict[tuple, dict[int, set[int]]] = {}
    while table.status == Table.Status.PLAYING:
        number = table.current_hand.number
        before = hand_state(table)
        action = rng.choice(engine.legal_actions(before))
        after = engine.apply(before, action)
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            outcome = service.submit(
                table_id=table.pk,
                actor=actors[before.turn],
                action=str(action),
                expected_version=table.version,
            )
        assert outcome.applied
        table.refresh_from_db()
        kind = (*move_kind(before, after), table.status)
        counts.setdefault(kind, {}).setdefault(number, set()).add(len(queries))

    last_hand = table.current_hand.number
    assert last_hand >= 6, "the game should be long enough to compare hands"

    def worst(ending: bool) -> int:
        return max(
            n
            for kind, by_hand in counts.items()
            if (kind[-1] == Table.Status.FINISHED) == ending
            for ns in by_hand.values()
            for n in ns
        )

    assert worst(ending=False) <= MAX_QUERIES_PER_MOVE
    assert worst(ending=True) <= MAX_QUERIES_GAME_END
    for kind, by_hand in counts.items():
        assert len(set().union(*by_hand.values())) == 1, (kind, by_hand)
    # An ordinary card play costs the same at the first hand and at the last one.
    plain_play = counts[(engine.PLAYING, False, False, False, Table.Status.PLAYING)]
    assert plain_play[1] == plain_play[last_hand]


def test_one_move_late_in_a_game_stays_within_the_budget(django_assert_max_num_queries):
    table = sorted_table(options={"target": 1500})
    rng = random.Random(2)
    while table.current_hand.number < 5:
        play_random_move(table, rng)
        table.refresh_from_db()
    state = hand_state(table)
    actor = seated_user(table, state.turn)
    action = str(engine.legal_actions(state)[0])

    with django_assert_max_num_queries(MAX_QUERIES_PER_MOVE):
        outcome = service.submit(
            table_id=table.pk, actor=actor, action=action, expected_version=table.version
        )

    assert outcome.applied


# ---------------------------------------------------------------------------------------
# What follows a move: the bot's task and the clock's in its transaction, then the broadcast


def bot_tasks():
    return DBTaskResult.objects.filter(task_path=service.play_bot_move_task.module_path)


def queued_tasks() -> list[str]:
    return sorted(DBTaskResult.objects.values_list("task_path", flat=True))


def test_a_human_move_before_a_bots_turn_queues_one_bot_task_with_the_move():
    """Queued in the move's own transaction (issue 13: "A committed move must always [...]
    queue its follow-ups"), not after the commit, where a failure could lose it."""
    west = make_user()
    table = sorted_table(players={W: west}, bots={N: "random", E: "random", S: "random"})
    assert not bot_tasks().exists()  # West, a human, speaks first

    outcome = service.submit(
        table_id=table.pk, actor=west, action="pass", expected_version=table.version
    )

    task = bot_tasks().get()
    assert task.args_kwargs["kwargs"] == {"table_id": table.pk, "version": outcome.version}


def test_a_move_rolled_back_takes_its_tasks_with_it():
    west = make_user()
    table = sorted_table(players={W: west}, bots={N: "random", E: "random", S: "random"})
    version, before = table.version, queued_tasks()

    with pytest.raises(RuntimeError), transaction.atomic():
        service.submit(table_id=table.pk, actor=west, action="pass", expected_version=version)
        raise RuntimeError("the transaction fails after the move")

    assert queued_tasks() == before
    table.refresh_from_db()
    assert table.version == version


def test_a_move_before_a_humans_turn_queues_the_clock_and_no_bot_task():
    table = sorted_table()

    outcome = submit_as(table, W, "pass")

    # A live table: the absence check, in the transaction; it queues the deadline's
    # expiry when it runs and finds the turn still waiting (tests/timing/test_stand_in.py).
    rows = DBTaskResult.objects.all()
    new = [r.task_path for r in rows if r.args_kwargs["kwargs"]["version"] == outcome.version]
    assert new == [check_absent_task.module_path]
    assert not bot_tasks().exists()


def test_a_refused_move_has_no_follow_up(django_capture_on_commit_callbacks):
    table = sorted_table()
    with django_capture_on_commit_callbacks(execute=True):
        table_seats(table)  # this process keeps the seats it read (not a follow-up)
    before = queued_tasks()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(ServiceError):
            submit_as(table, N, "pass")
        service.submit(
            table_id=table.pk,
            actor=seated_user(table, W),
            action="pass",
            expected_version=table.version - 1,
        )

    assert callbacks == []
    assert queued_tasks() == before


# transaction=True: on_commit runs for real, and the worker checks its connection between
# tasks, which would end the wrapping transaction of an ordinary django_db test.
@pytest.mark.django_db(transaction=True)
def test_the_worker_plays_the_bots_until_a_human_is_to_act(keep_signal_handlers, at_the_table):
    west = make_user()
    table = sorted_table(players={W: west}, bots={N: "heuristic", E: "random", S: "random"})
    version = table.version
    at_the_table(table, west)  # a live table plays only while a player is there

    service.submit(table_id=table.pk, actor=west, action="pass", expected_version=version)
    with override_settings(DEBUG=False):
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)

    table.refresh_from_db()
    assert table.version > version + 1
    bot_moves = table.actions.filter(seq__gt=version + 1)
    assert set(bot_moves.values_list("source", flat=True)) == {Action.Source.BOT}
    assert hand_state(table).turn == W  # the bots stop where the human is to act
    assert not bot_tasks().exclude(status="SUCCESSFUL").exists()
    assert verify_table(table) == []


def test_a_move_is_broadcast_to_the_tables_group(django_capture_on_commit_callbacks):
    """One event loop for the listener, as a consumer has: the Redis pub/sub layer reads
    a channel's messages in the loop that subscribed it."""
    table = sorted_table()
    layer = get_channel_layer()

    def move():
        with django_capture_on_commit_callbacks(execute=True):
            return submit_as(table, W, "pass")

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add(f"table-{table.pk}", channel)
        try:
            outcome = await sync_to_async(move)()
            message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        finally:
            await layer.group_discard(f"table-{table.pk}", channel)
        return outcome, message

    outcome, message = async_to_sync(scenario)()

    west = seated_user(table, W)
    assert message == {
        "type": "table.changed",
        "table": table.pk,
        "version": outcome.version,
        "by": west.pk,  # whose page has the board as its answer (games/live/consumers.py)
    }


# ---------------------------------------------------------------------------------------
# Concurrency (PostgreSQL: the row lock serialises the moves of one table)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_identical_submissions_at_once_are_applied_once():
    table = sorted_table()
    west = seated_user(table, W)
    version = table.version
    actions_before = Action.objects.count()
    barrier = threading.Barrier(8)
    outcomes: list[service.Outcome] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def player():
        try:
            barrier.wait(timeout=10)
            outcome = service.submit(
                table_id=table.pk, actor=west, action="take", expected_version=version
            )
            with lock:
                outcomes.append(outcome)
        except BaseException as error:  # reported by the main thread
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=player) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert errors == []
    assert sorted(o.applied for o in outcomes) == [False] * 7 + [True]
    assert {o.version for o in outcomes} == {version + 1}
    assert Action.objects.count() == actions_before + 1
    table.refresh_from_db()
    assert table.version == version + 1
    assert table.actions.filter(kind="take").count() == 1
    assert verify_table(table) == []
