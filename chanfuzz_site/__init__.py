"""The Django project of chanfuzz: settings, URLs, the web pages and the management commands.

It is also an installed app (see `apps.py`) so that it can hold the management
commands that wrap the generator (`generate`, `verify`, `sample`).
"""
