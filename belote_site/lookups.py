"""``field__in`` for integer columns (row ids included) that leaves out the integers no
such column can hold.

Django already answers ``pk=2**63`` with "no row" instead of a query the database cannot
run (``IntegerFieldExact``), but not ``pk__in=[2**63]``: SQLite refuses to bind it
(OverflowError, a 500). The admin runs such a query with whatever a form posts: the
permissions of a group (a ``ModelMultipleChoiceField``), the rows ticked for an action.
An integer past the column's range matches no row, so it is dropped from the list, and
a list left empty matches nothing, as ``__in=[]`` does. Registered for every integer
field by ``games.apps.GamesConfig.ready``.
"""

from __future__ import annotations

from django.db.models import IntegerField
from django.db.models.lookups import In


class IntegerIn(In):
    def process_rhs(self, compiler, connection):
        if self.rhs_is_direct_value():
            internal_type = self.lhs.output_field.get_internal_type()
            try:
                low, high = connection.ops.integer_field_range(internal_type)
            except KeyError:  # not a column type the backend bounds
                return super().process_rhs(compiler, connection)
            self.rhs = [
                value
                for value in self.rhs
                if not isinstance(value, int)
                or ((low is None or value >= low) and (high is None or value <= high))
            ]
        return super().process_rhs(compiler, connection)


def register() -> None:
    IntegerField.register_lookup(IntegerIn)
