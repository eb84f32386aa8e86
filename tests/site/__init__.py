"""Tests of the Django project: settings, pages and management commands."""
