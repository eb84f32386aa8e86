"""The mutation study (issue #14): chanfuzz against the runtimes' own tests on mutants."""
