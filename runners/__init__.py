"""Compiling and running rendered programs on real toolchains.

- :mod:`runners.engine.toolchains` finds installed compilers/runtimes and their versions.
- :mod:`runners.engine.build` compiles sources (with an artifact cache) and runs the
  results with a timeout in their own process group.
"""
