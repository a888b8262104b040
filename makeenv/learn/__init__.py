"""Policies trained with the project's own tools: ``imitate`` (a small network copying a slow
search bot, from games played through the referee) and ``policy`` (its weights as a bot's data,
played by a compiled function)."""
