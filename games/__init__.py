"""Tables, hands and tournaments; the pure rules engine lives in games.rules."""
