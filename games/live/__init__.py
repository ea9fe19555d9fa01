"""The live stack: the table websocket, the broadcasts and their relay, the boards pushed
to each page, the per-user socket limits."""
