"""The wiring and the process: app, lifecycle, sd_notify, logging, prompt."""
