"""What the chat channels (Telegram, Matrix) share: the polling base, turns, commands, the
inbox, allowlists, replies and splitting; the email channel uses its ledger, queues, turns and
the base of a channel with a ledger and a readiness of its own."""
