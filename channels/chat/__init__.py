"""What the chat channels (Telegram, Matrix) share: turns, commands, the inbox, splitting."""
