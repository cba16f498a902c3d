"""The command line: ``agentd run | chat | config | sessions | memory | cron | model``."""

from agentd.cli.main import main

__all__ = ["main"]
