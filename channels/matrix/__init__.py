"""The Matrix channel: /sync long polling, allowlist, mentions, HTML replies, the sync ledger."""

from channels.matrix.channel import MatrixChannel

__all__ = ["MatrixChannel"]
