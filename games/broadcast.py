"""Telling a table's viewers that it changed: only the table id and its new version.

No game data travels in a broadcast, so nothing hidden can leak through it; each viewer
fetches its own view of the table when the version moves (see games/consumers.py). A
change of who is connected (games/presence.py) is a version-less ping of the same kind:
``{"table": id, "presence": true}``.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        table_group(table_id), {"type": "table.changed", "table": table_id, "version": version}
    )


async def presence_changed(table_id: int) -> None:
    """Someone came or went: the pages refetch their board to move the dots."""
    layer = get_channel_layer()
    if layer is None:
        return
    await layer.group_send(table_group(table_id), {"type": "table.presence", "table": table_id})
