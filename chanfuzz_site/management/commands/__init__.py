"""`generate`, `verify` and `sample`: thin command-line wrappers over the generator package."""
