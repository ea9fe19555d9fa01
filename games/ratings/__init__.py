"""Player ratings (OpenSkill): moved at the end of each rated game, rebuilt on demand, and
the club leaderboards."""
