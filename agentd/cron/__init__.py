"""Heartbeat: pure schedules, the tick runner and the SQLite tick log."""
