"""Shared state stores beyond one machine: PostgreSQL (the embedded default stays SQLite)."""
