"""Speed benchmarks: `make bench` (python -m benchmarks)."""
