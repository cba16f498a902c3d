"""The email channel: IMAP in (IDLE or polling), SMTP submission out, threads as sessions."""

from channels.email.channel import EmailChannel

__all__ = ["EmailChannel"]
