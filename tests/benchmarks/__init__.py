"""Tests of the benchmark suite."""
