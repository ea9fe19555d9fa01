"""Tables and tournaments already under way keep the rules they started with.

Re-reading the rule documents changed three presets (issue 12): classique, moderne and
stekius no longer let the turned suit be named in the second round; annonces scores 81
points as a failed contract instead of a litige; stekius gives the taker's belote to
the defence when dedans and sets it aside with the taker's points in a litige. A table
(and a tournament) stores only the options that differ from its preset, so one started
before the change would take the new values silently, and its hands would no longer
replay (``belote_verify``). This writes the old value into the options of every table
that has left the lobby and every tournament past its registration, where the option is
not there already.

Tables still in the lobby and tournaments still registering have dealt nothing: they
play the presets as they are now, their documents' rules.

The old values are written out here, not read from ``games.rules.presets``: they are
what the presets were before this migration, whatever the presets become after it.
Reversed, the pinned values are removed again (the code before this migration does not
know ``belote_kept``, and the other values are its presets' own).
"""

from django.db import migrations

# What each preset said before issue 12, for the options it changed.
OLD_VALUES = {
    "classique": {"second_round_excludes_turned": False},
    "moderne": {"second_round_excludes_turned": False},
    "stekius": {"second_round_excludes_turned": False, "belote_kept": True},
    "annonces": {"litige": "held"},
}
NOT_STARTED = {"Table": "lobby", "Tournament": "registration"}
BATCH = 500


def _started(apps, name):
    model = apps.get_model("games", name)
    rows = model.objects.filter(preset__in=list(OLD_VALUES)).exclude(status=NOT_STARTED[name])
    return model, rows.only("pk", "preset", "options").order_by("pk")


def _rewrite(apps, change) -> None:
    for name in NOT_STARTED:
        model, rows = _started(apps, name)
        changed = []
        for row in rows.iterator(chunk_size=BATCH):
            if not isinstance(row.options, dict):
                continue
            options = change(dict(row.options), OLD_VALUES[row.preset])
            if options != row.options:
                row.options = options
                changed.append(row)
        # bulk_update writes the options alone: a table's updated_at stays as it was.
        model.objects.bulk_update(changed, ["options"], batch_size=BATCH)


def _pin(options: dict, old: dict) -> dict:
    return {**old, **options}


def _unpin(options: dict, old: dict) -> dict:
    return {k: v for k, v in options.items() if not (k in old and old[k] == v)}


def pin(apps, schema_editor) -> None:
    _rewrite(apps, _pin)


def unpin(apps, schema_editor) -> None:
    _rewrite(apps, _unpin)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_tournament_round_hours_range"),
    ]

    operations = [
        migrations.RunPython(pin, unpin),
    ]
