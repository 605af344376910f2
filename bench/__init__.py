"""partyhub benchmarks (not run by `make test`). Entry: `python -m bench` (see bench/__main__.py)."""
