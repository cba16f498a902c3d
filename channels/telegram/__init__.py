"""The Telegram channel: long polling, allowlist, formatting and the update ledger."""

from channels.telegram.channel import TelegramChannel

__all__ = ["TelegramChannel"]
