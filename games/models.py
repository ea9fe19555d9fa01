"""Game persistence (tables, seats, hands, tricks, the action log) arrives with issue 3."""
