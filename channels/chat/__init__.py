"""What the chat channels (Telegram, Matrix) share: the polling base, turns, commands, the
inbox, allowlists, replies and splitting."""
