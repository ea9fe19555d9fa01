"""Querysets of a fixed shape, compiled to SQL once per process and run with new keys.

Compiling a queryset costs more than running it when it is small and hot: the table with
its current hand and game (``select_related``, 55 columns and two joins), which every move,
every bot move and every pushed board of another process reads, took 627 µs on SQLite,
of which 475 µs built the SQL and 83 µs ran it (2026-12-07). A ``Prepared`` query is
built from the queryset the caller describes, compiled by Django's own compiler the first
time it runs on a database connection, and from then on only executed: the row goes
through the compiler's converters and becomes model instances as ``QuerySet`` makes them
(``from_db``, the related objects of ``select_related``, the annotations).

Only the keys change from one run to the next (integers: a row's id, a version): the
queryset is described by a function of its keys, compiled with sentinel keys, and the
sentinels' places in the parameters take the keys at each run. Everything else in the
queryset (dates, settings) is fixed at compile time, so its parameters must not depend
on the moment (``tests/tables/test_prepared.py`` compares each prepared query with its
queryset, row by row). The table's log of moves (games/tables/selectors.py) and the
table a move's POST checks (games/tables/pages.py) are read the same way.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

from django.db import DatabaseError, connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    get_related_populators,
)
from django.db.models.signals import post_save, pre_save
from django.db.transaction import TransactionManagementError

# The keys' places in the compiled parameters are where each run's keys go (values that
# no other parameter of the query has; in the range of every integer column).
SENTINELS = (2_147_480_671, 2_147_480_683, 2_147_480_687)


class _Compiled:
    """The SQL of one queryset on one connection, and how its rows become results."""

    def __init__(self, queryset: QuerySet, keys: int, alias: str) -> None:
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        self.places = []
        for sentinel in SENTINELS[:keys]:
            places = [i for i, value in enumerate(params) if value == sentinel]
            if len(places) != 1:
                raise ValueError(
                    f"each key must appear once in the parameters, not {len(places)} times"
                )
            self.places.append(places[0])
        self.sql = sql
        self.params = list(params)
        self.compiler = compiler
        self.alias = alias
        # As the compiler: a lock outside a transaction is refused where there are locks.
        locks = connections[alias].features.has_select_for_update
        self.locks = bool(queryset.query.select_for_update) and locks
        # A key out of the range of the model's key matches no row (as a queryset's lookup
        # says), where the database would refuse it.
        pk = queryset.model._meta.pk.get_internal_type()
        self.bounds = connections[alias].ops.integer_field_range(pk)
        # How each column's value comes out of the database (dates, JSON...), found once
        # instead of at every run as ``results_iter`` does.
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("composite fields cannot be prepared")
        self.converters = compiler.get_converters(columns)
        if queryset._iterable_class is FlatValuesListIterable:
            self.flat = True
            return
        if queryset._iterable_class is not ModelIterable:
            raise ValueError("only querysets of instances or of flat values can be prepared")
        self.flat = False
        klass_info = compiler.klass_info
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.model = klass_info["model"]
        self.init_list = [f[0].target.attname for f in compiler.select[self.start : self.end]]
        self.populators = get_related_populators(
            klass_info, compiler.select, alias, queryset._fetch_mode
        )
        self.annotations = list(compiler.annotation_col_map.items())
        self.fetch_mode = queryset._fetch_mode

    def run(self, keys: tuple[int, ...]) -> list:
        connection = connections[self.alias]
        if self.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        low, high = self.bounds
        if any((low is not None and k < low) or (high is not None and k > high) for k in keys):
            return []
        params = list(self.params)
        for place, key in zip(self.places, keys, strict=True):
            params[place] = key
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        results = self.compiler.apply_converters(rows, self.converters) if self.converters else rows
        if self.flat:
            return [row[0] for row in results]
        found: list[Model] = []
        peers: list = []
        for row in results:
            values = row[self.start : self.end]
            instance = self.model.from_db(
                self.alias, self.init_list, values, fetch_mode=self.fetch_mode
            )
            if self.fetch_mode.track_peers:
                peers.append(weakref.ref(instance))
                instance._state.peers = peers
            for populator in self.populators:
                populator.populate(row, instance)
            for name, index in self.annotations:
                setattr(instance, name, row[index])
            found.append(instance)
        return found


class Prepared:
    """``describe(*keys)`` returns the queryset (of instances, or ``values_list(...,
    flat=True)``) filtered on ``keys`` (integers: row ids, versions); ``prepared(*keys)``
    runs it and returns its results as a list, compiling it on the first run per database
    alias."""

    def __init__(self, describe: Callable[..., QuerySet], *, keys: int = 1) -> None:
        if not 1 <= keys <= len(SENTINELS):
            raise ValueError(f"from 1 to {len(SENTINELS)} keys")
        self.describe = describe
        self.keys = keys
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._lock = threading.Lock()

    def __call__(self, *keys: int, using: str = "default") -> list:
        if len(keys) != self.keys:
            raise TypeError(f"{self.keys} keys expected, {len(keys)} given")
        vendor = connections[using].vendor
        compiled = self._compiled.get((using, vendor))
        if compiled is None:
            with self._lock:
                queryset = self.describe(*SENTINELS[: self.keys])
                compiled = _Compiled(queryset, self.keys, using)
                self._compiled[using, vendor] = compiled
        return compiled.run(tuple(int(key) for key in keys))


# Writes of a fixed shape. ``Model.save`` builds its UPDATE or INSERT anew at each call
# (the query, its compiler, the field checks): for the three rows every move writes (the
# table's version and turn, the action, a trick at the end of one), that cost more than
# the statements themselves. Their SQL is written here once per model, fields and
# database, and their parameters prepared as Django's compilers prepare them
# (``pre_save``, ``get_db_prep_save``). A model with pre_save or post_save receivers, or
# a value that is an expression, goes through ``save`` as before.

_statements: dict[tuple, tuple[str, list] | None] = {}


def save_fields(instance: Model, fields: list[str] | tuple[str, ...]) -> None:
    """``instance.save(update_fields=fields)`` of a row that exists."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    key = ("update", model, tuple(fields), alias, connection.vendor)
    statement = _statement(key, lambda: _update_statement(model, fields, connection))
    if statement is None or _has_receivers(model):
        instance.save(update_fields=fields)
        return
    sql, columns = statement
    params = _params(instance, columns, connection, adding=False)
    if params is None:
        instance.save(update_fields=fields)
        return
    params.append(model._meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    instance._state.adding = False
    instance._state.db = alias


def insert(instance: Model) -> None:
    """``instance.save()`` of a new row whose key nobody reads back: the instance's
    ``pk`` stays unset (an action of the log, a trick)."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    key = ("insert", model, alias, connection.vendor)
    statement = _statement(key, lambda: _insert_statement(model, connection))
    if statement is None or _has_receivers(model) or instance.pk is not None:
        instance.save()
        return
    sql, columns = statement
    params = _params(instance, columns, connection, adding=True)
    if params is None:
        instance.save()
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _statement(key: tuple, build: Callable[[], tuple[str, list] | None]):
    if key not in _statements:
        _statements[key] = build()
    return _statements[key]


def _params(instance: Model, columns: list, connection, *, adding: bool) -> list | None:
    """The columns' values as Django's compilers prepare them (``pre_save``, then
    ``get_db_prep_save``), or None if one is an expression, which only ``save`` writes."""
    values = [field.pre_save(instance, adding) for field in columns]
    if any(hasattr(value, "resolve_expression") for value in values):
        return None
    return [field.get_db_prep_save(v, connection) for field, v in zip(columns, values, strict=True)]


def _has_receivers(model: type[Model]) -> bool:
    return pre_save.has_listeners(model) or post_save.has_listeners(model)


def _plain(field) -> bool:
    """A column written as ``%s`` with its prepared value (no placeholder of its own)."""
    return getattr(field, "get_placeholder_sql", None) is None and not field.generated


def _update_statement(model: type[Model], names, connection) -> tuple[str, list] | None:
    meta = model._meta
    if meta.parents or meta.pk.generated:
        return None
    columns = [meta.get_field(name) for name in names]
    if not columns or any(not f.concrete or f.primary_key or not _plain(f) for f in columns):
        return None
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(f.column)} = %s" for f in columns)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    return sql, columns


def _insert_statement(model: type[Model], connection) -> tuple[str, list] | None:
    meta = model._meta
    if meta.parents or meta.auto_field is None:
        return None
    columns = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
    if any(not _plain(f) for f in columns):
        return None
    quote = connection.ops.quote_name
    names = ", ".join(quote(f.column) for f in columns)
    places = ", ".join("%s" for _ in columns)
    return f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES ({places})", columns
