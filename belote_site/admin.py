"""What every ModelAdmin of ours shares: input the admin's own code does not check.

- A JSON field (a table's or a tournament's options) given a number of 5,000 digits, or
  JSON nested deeper than the parser goes: Django's ``forms.JSONField`` catches only
  ``JSONDecodeError``, and Python's ``int`` limit (a ValueError) or a RecursionError
  went up as a 500. ``SafeJSONField`` refuses them as invalid JSON.
- The date hierarchy (``?start__year=``, ``__month``, ``__day``): Django turns a
  ValueError into "incorrect lookup parameters", but a year past 9999 (OverflowError,
  or a ValueError one step later, when it computes the end of that year) went up as a
  500. ``SafeChangeList`` treats them as incorrect parameters: the admin's own "?e=1"
  page.
- A row id past 2**63 - 1 in the address of a model whose primary key is a relation
  (``HandAnalysis``): no such row, as Django already says for an integer key.
"""

from __future__ import annotations

from django import forms
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.db import models


class SafeJSONField(forms.JSONField):
    def to_python(self, value):
        try:
            return super().to_python(value)
        except (ValueError, RecursionError) as error:
            raise forms.ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": value}
            ) from error

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except (ValueError, RecursionError):
            return forms.fields.InvalidJSONInput(data)


class SafeChangeList(ChangeList):
    def get_filters(self, request):
        try:
            return super().get_filters(request)
        except (OverflowError, ValueError) as error:
            raise IncorrectLookupParameters(error) from error


class SafeInputAdmin:
    """Mixed into every ModelAdmin of the site, before ``admin.ModelAdmin``."""

    formfield_overrides = {models.JSONField: {"form_class": SafeJSONField}}

    def get_changelist(self, request, **kwargs):
        return SafeChangeList

    def get_object(self, request, object_id, from_field=None):
        # A row id past the column's range, for a model whose primary key is a relation
        # (a hand's analysis): Django bounds it for an integer key only, and SQLite
        # refuses to bind it (OverflowError, a 500). No such row.
        try:
            return super().get_object(request, object_id, from_field)
        except OverflowError:
            return None
