"""Time at the tables beyond one move: the periodic sweep, stand-ins for absent players,
and the deadlines moved by vacations."""
