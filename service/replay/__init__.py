"""Game logs: the log model, one turn state machine per game family, and the audit."""
