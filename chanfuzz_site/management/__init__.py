"""Management commands of chanfuzz (see `commands/`)."""
