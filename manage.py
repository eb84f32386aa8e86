#!/usr/bin/env python
"""Django's command-line utility for chanfuzz (`python manage.py generate|verify|sample|…`)."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chanfuzz_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
