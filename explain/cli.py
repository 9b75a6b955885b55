"""The command line: ``python -m explain run|demo|compare``. Thin: parse, call the library, print.

``run`` and ``demo`` are the quick path (one LIME run, one fit per learner); ``compare``
adds the fidelity–size sweep of both learners (reusing that one LIME run) and refits them
on each other training view (lime, lime+raw, raw; :mod:`explain.compare`). All three write
the same report files.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import signal
import stat
import sys
import tempfile
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from adapters import (BUNDLED, InputError, TableEncoder, dropped_columns_read, load_dataset,
                      load_xgboost, relabel_classes, rest_name, restrict_to_model)
from adapters.columns import number_label
from adapters.errors import listing, quoted
from adapters.target import labels_as_written, match_label
from adapters.xgboost_box import STOP_TRAINING, TrainingStopped
from explain.compare import SweepConfig, run_compare, view_comparison
from explain.learners import IMLI_DEFAULTS, LEARNERS, MAX_MDL_WEIGHT
from explain.lime_cache import check_cache_dir
from explain.lime_parallel import DASK_EXTRA_HINT
from explain.lime_runner import CATEGORY_VIEWS, DISCRETIZERS, MAX_SAMPLES, LimeConfig
from explain.outputs import (RUN_FILES, prepare_out_dir, refuse_previous_run, run_lock,
                             write_run)
from explain.pipeline import (MIN_POSITIVE_ROWS, MIN_POSITIVE_SHARE, TRAIN_VIEWS, RunConfig,
                              binarize_target, run_pipeline)
from explain.report_md import (LEARNER_COLUMNS, VS_RUN_NOTE, baseline_note, behind_baseline,
                                fmt, learner_rows, optimal_cell, paired_note, setting_text,
                                visible, vs_run_cell)
from fold import FoldInputError

DEMO_DATASET = "breast_cancer"


def default_cache_dir() -> Path:
    """Where LIME explanations are cached across runs.

    Returns
    -------
    pathlib.Path
        ``surrogate-rules/lime`` under ``$XDG_CACHE_HOME`` (or ``~/.cache``).
    """
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "surrogate-rules" / "lime"


def _default_cache() -> Path | None:
    """The default LIME cache, or None with a warning when it cannot be created (a
    read-only home): the user did not ask for a cache, so the run goes on without one."""
    try:
        check_cache_dir(default_cache_dir())
    except InputError as err:
        print(f"warning: {err}; running without a cache", file=sys.stderr)
        return None
    return default_cache_dir()


@dataclass(frozen=True)
class CliRun:
    """A parsed ``run``/``demo``/``compare`` command.

    Parameters
    ----------
    data : str
        ``--data``: a CSV file's path or a bundled dataset's name.
    target : str or None
        ``--target``.
    positive : str or None
        ``--positive``.
    out : Path
        ``--out``.
    force : bool
        ``--force``.
    model : Path or None
        ``--model``: a saved model to explain instead of training XGBoost.
    cache_dir : Path or None
        The LIME cache (``None``: ``--no-cache``).
    config : RunConfig
        The run's settings.
    sweep : SweepConfig or None, default=None
        Set for ``compare`` only.
    views : bool, default=False
        The training-view ablation (the learners refitted on the other training views;
        always part of ``compare``).
    max_seconds : float or None, default=None
        ``--max-seconds``.
    missing : tuple of str, default=()
        ``--missing`` values.
    model_classes : tuple of str, default=()
        ``--model-class`` labels.
    drop : tuple of str, default=()
        ``--drop`` columns.
    """

    data: str
    target: str | None
    positive: str | None
    out: Path
    force: bool
    model: Path | None
    cache_dir: Path | None
    config: RunConfig
    sweep: SweepConfig | None = None
    views: bool = False
    max_seconds: float | None = None
    missing: tuple = ()
    model_classes: tuple = ()
    drop: tuple = ()


def _items(text: str, nothing: str) -> list[str]:
    """The comma-separated items of ``text``, stripped; an ``argparse.ArgumentTypeError``
    saying ``nothing`` when there is none, or naming an empty one (``,10``: a value lost
    in editing, perhaps)."""
    items = [part.strip() for part in text.split(",")]
    if not any(items):
        raise argparse.ArgumentTypeError(nothing)
    if not all(items):
        raise argparse.ArgumentTypeError(f"an empty item in {text!r}; give values separated "
                                         f"by single commas")
    return items


def _number_list(kind, low=0, high=None, inclusive=False, up_to=False):
    """An argparse type: a comma-separated list of ``kind`` values in the range
    :func:`number_arg` takes (positive by default), none empty; repeats are kept for
    :func:`_once`."""
    one = number_arg(kind, low, high, inclusive=inclusive, up_to=up_to)

    def parse(text: str) -> tuple:
        return tuple(one(part) for part in _items(
            text, f"expected comma-separated values, got {text!r}"))
    return parse


def _learner_list(text: str) -> tuple:
    """An argparse type: comma-separated learner names, each known, at least one, none
    empty; repeats are kept for :func:`_once`."""
    names = tuple(_items(text, f"no learner given; choose from {','.join(LEARNERS)}"))
    unknown = [n for n in names if n not in LEARNERS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown learner(s) {', '.join(unknown)}; choose "
                                         f"from {','.join(LEARNERS)}")
    return names


def _once(option: str, values: tuple, warned: list[str]) -> tuple:
    """``values`` of a comma-list ``option`` each once, in the order first given; a
    message in ``warned`` names the repeated ones."""
    distinct = tuple(dict.fromkeys(values))
    if len(distinct) < len(values):
        repeated = [v for v in distinct if values.count(v) > 1]
        warned.append(f"{option} gives {_csv(repeated)} more than once; each is used once")
    return distinct


def _path(text: str) -> Path:
    """An argparse type: a path that is not empty (``""`` would mean the current directory)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a path, got an empty string")
    return Path(text)


def number_arg(kind, low=None, high=None, inclusive=True, nonzero=False, up_to=False):
    """An argparse type: one finite ``kind`` value within bounds.

    Also used by ``python -m benchmarks``.

    Parameters
    ----------
    kind : {int, float}
        The type the text is read as.
    low : int or float, optional
        At least this (or above it when not ``inclusive``).
    high : int or float, optional
        Below this (or at most this when ``up_to``).
    inclusive : bool, default=True
        Whether ``low`` itself is allowed.
    nonzero : bool, default=False
        Refuse 0.
    up_to : bool, default=False
        Whether ``high`` itself is allowed.

    Returns
    -------
    callable
        ``parse(text)``: the value, or an ``argparse.ArgumentTypeError`` saying the
        bounds.
    """
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {'an integer' if kind is int else 'a number'}, got {text!r}"
            ) from None
        too_low = low is not None and (value < low if inclusive else value <= low)
        too_high = high is not None and (value > high if up_to else value >= high)
        if too_low or too_high or (nonzero and value == 0) or not math.isfinite(value):
            bounds = []
            shown = "{}" if kind is int else "{:g}"  # 4294967296, not 4.29497e+09
            if low is not None:
                bounds.append(f"{'>=' if inclusive else '>'} {shown.format(low)}")
            if high is not None:
                bounds.append(f"{'<=' if up_to else '<'} {shown.format(high)}")
            if nonzero:
                bounds.append("not 0")
            if not bounds:
                bounds.append("finite")
            raise argparse.ArgumentTypeError(f"expected a value {' and '.join(bounds)}, "
                                             f"got {text!r}")
        return value
    return parse


#: FOLD's mdl_weight: positive, and finite once a stacked training view multiplies it by
#: its copies per row (weights far below the bound already leave an empty program).
_MDL_WEIGHT = number_arg(float, 0, MAX_MDL_WEIGHT, up_to=True)


def _mdl_weight(text: str):
    """An argparse type: a weight from 0 to :data:`~explain.learners.MAX_MDL_WEIGHT`, or
    ``none`` (plain FOLD: ``"none"``)."""
    return "none" if text.strip().lower() == "none" else _MDL_WEIGHT(text)


def _mdl_weights(text: str) -> tuple:
    """An argparse type: comma-separated FOLD weights, each as :func:`_mdl_weight` takes it
    (``None``: plain FOLD), none empty; repeats are kept for :func:`_once`."""
    return tuple(None if w == "none" else w for w in (
        _mdl_weight(part) for part in _items(
            text, f"expected comma-separated values, got {text!r}")))


def _csv(values) -> str:
    return ",".join("none" if v is None else v if isinstance(v, str) else number_label(v)
                    for v in values)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr.

    The line (exit code 2) points at ``--help``, rather than the usage block and then the
    error. Also used by ``python -m benchmarks``; takes ``argparse.ArgumentParser``'s
    arguments.
    """

    _args: tuple = ()

    def parse_known_args(self, args=None, namespace=None):
        """As :meth:`argparse.ArgumentParser.parse_known_args`; the arguments are kept for
        :meth:`error`'s hint."""
        self._args = tuple(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        """Exit with code 2 after printing ``message`` on one line, pointing at ``--help``.

        Parameters
        ----------
        message : str
            The usage error.
        """
        option = re.fullmatch(r"argument (--[\w-]+)(?:/\S+)?: expected one argument", message)
        if option and any(a == option[1] and b.startswith("-")
                          for a, b in zip(self._args, self._args[1:])):
            # argparse reads a value starting with '-' (a column '-x') as an option
            message += f"; write {option[1]}=VALUE for a value that starts with '-'"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


MISSING_HELP = ("a feature value that means missing, e.g. -999 (repeat for more; write "
                "--missing=-1e9 for a value that reads like an option); a model given with "
                "--model sees it as missing too")
DROP_HELP = "a column to leave out, such as a row ID (repeat for more)"


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m explain",
        description="Explain a black-box classifier with global rules (IMLI, FOLD) "
        "and measure their fidelity.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="explain a model trained on (or given for) a table")
    run.add_argument("--data", required=True, help="a CSV file, or a bundled dataset name")
    run.add_argument("--target", help="the target column (required for a CSV)")
    run.add_argument("--missing", action="append", default=[], metavar="VALUE",
                     help=MISSING_HELP)
    run.add_argument("--drop", action="append", default=[], metavar="COLUMN", help=DROP_HELP)
    demo = sub.add_parser("demo", help=f"run on the bundled {DEMO_DATASET} dataset")
    compare = sub.add_parser("compare", help="run, then sweep both learners' settings on "
                             "the same LIME run and fit them on each training view")
    compare.add_argument("--data", required=True, help="a CSV file, or a bundled dataset name")
    compare.add_argument("--target", help="the target column (required for a CSV)")
    compare.add_argument("--missing", action="append", default=[], metavar="VALUE",
                         help=MISSING_HELP)
    compare.add_argument("--drop", action="append", default=[], metavar="COLUMN",
                         help=DROP_HELP)
    sweep = SweepConfig()
    compare.add_argument("--sweep-data-fidelity",
                         type=_number_list(float, 1e-6, 1e9, inclusive=True, up_to=True),
                         default=None, metavar="L1,L2,...",
                         help=f"IMLI data_fidelity values (default {_csv(sweep.data_fidelity)})")
    compare.add_argument("--sweep-clauses", type=_number_list(int), default=None,
                         metavar="K1,K2,...",
                         help=f"IMLI clause counts (default {_csv(sweep.n_clauses)})")
    compare.add_argument("--sweep-mdl-weight", type=_mdl_weights,
                         default=None, metavar="W1,W2,...",
                         help="FOLD mdl_weight values: larger, smaller programs; none: plain "
                         f"FOLD (default {_csv(sweep.mdl_weight)})")
    compare.add_argument("--sweep-time-limit", type=number_arg(float, 0, 1e8, inclusive=False),
                         default=None,
                         help="seconds per IMLI fit of the sweep "
                         f"(default {sweep.imli_time_limit:g})")
    for p in (run, demo):
        p.add_argument("--compare-views", action="store_true",
                       help="also refit both learners on the two training views --train-view "
                       "did not pick (of lime+raw, lime, raw): two more fits each, no more LIME")
    for p in (run, demo, compare):
        p.add_argument("--out", required=True, type=_path, help="the output directory")
        p.add_argument("--force", action="store_true", help="overwrite a previous run in --out")
        p.add_argument("--positive", help="the label that counts as class 1 (default: "
                       "the yes of a yes/no target such as 0/1 or no/yes, else the minority "
                       "class; with more classes, the smallest class with at least "
                       f"{MIN_POSITIVE_ROWS} rows and {MIN_POSITIVE_SHARE * 100:g}%% of the rows, "
                       "against the rest)")
        p.add_argument("--model", type=_path, help="explain this XGBoost model, saved "
                       "with save_model (.ubj, .json, .bin...), instead of training one")
        p.add_argument("--model-class", action="append", metavar="LABEL",
                       dest="model_classes", help="with --model trained elsewhere: the "
                       "target label of the model's class 0, then of class 1, ... (repeat "
                       "once per class; default: the labels in sorted order, as "
                       "scikit-learn's LabelEncoder numbers them)")
        p.add_argument("--class-weight", choices=("none", "balanced"), default=None,
                       help="how the black box trained here weighs the classes: balanced "
                       "weighs each row of the rarer class by how many times rarer it is, so "
                       "that a class of a few percent of the rows is predicted at all "
                       "(default none; not for --model)")
        p.add_argument("--seed", type=number_arg(int, 0, 2**32), default=0,
                       help="seeds everything (default 0)")
        p.add_argument("--test-size", type=number_arg(float, 0, 1, inclusive=False), default=0.25,
                       help="share of the rows held out to measure fidelity (default 0.25)")
        p.add_argument("--top-k", type=number_arg(int, 1), default=None,
                       help=f"LIME features kept per row (default {LimeConfig.top_k})")
        p.add_argument("--num-samples", type=number_arg(int, 2), default=None,
                       help=f"LIME samples per row (default {LimeConfig.num_samples}, at "
                            f"most {MAX_SAMPLES:,})")
        p.add_argument("--discretizer", choices=DISCRETIZERS, default="entropy",
                       help="how LIME bins numeric features (IMLI's thresholds too): entropy "
                            "cuts where the black box's labels change (quartiles for a "
                            "feature whose first cut fails the MDL test); quartile, decile at "
                            "quantiles (default: entropy)")
        p.add_argument("--lime-engine", choices=("batched", "reference"), default=None,
                       help="batched (this project's, default) or reference (stock lime, "
                       "one row at a time)")
        p.add_argument("--lime-mode", choices=("fast", "exact"), default=None,
                       help="how the batched engine samples each neighbourhood: exact draws "
                       "lime's own random numbers, fast the same distribution faster "
                       "(default fast)")
        p.add_argument("--lime-pool-rows", type=number_arg(int, 1), default=None,
                       help="rows (by id) sharing one LIME seed, so one neighbourhood in "
                       f"the batched engine; 1 = one per row (default {LimeConfig.pool_rows})")
        p.add_argument("--lime-categories", choices=CATEGORY_VIEWS, default=None,
                       help="how LIME sees a categorical column: value (lime's: has the "
                       "row's category) or one-hot (the LIME-FOLD paper's: also one "
                       "feature per other category, so an explanation can say what the "
                       "row is not, c != v; batched engine only) (default value)")
        p.add_argument("--n-jobs", type=number_arg(int, nonzero=True), default=-1,
                       help="LIME worker processes (default -1: one per CPU core, "
                       "started when the rows outlast their start)")
        p.add_argument("--scheduler", help="a Dask scheduler address to explain rows on")
        p.add_argument("--cache-dir", type=_path, default=None,
                       help=f"LIME cache (default {default_cache_dir()})")
        p.add_argument("--no-cache", action="store_true", help="do not cache LIME results")
        p.add_argument("--learners", type=_learner_list, default=("imli", "fold"),
                       help="comma-separated: imli,fold (default: both)")
        p.add_argument("--train-view", choices=TRAIN_VIEWS, default="lime+raw",
                       help="what the learners learn from: LIME-filtered and full rows "
                       "(default), LIME-filtered rows only (the LIME-FOLD paper), or full "
                       "rows only (no LIME)")
        p.add_argument("--imli-clauses", type=number_arg(int, 1), default=None,
                       help=f"IMLI clauses, k (default {IMLI_DEFAULTS['n_clauses']})")
        p.add_argument("--imli-rule-type", choices=("CNF", "DNF"), default=None,
                       help=f"IMLI rule form (default {IMLI_DEFAULTS['rule_type']})")
        p.add_argument("--data-fidelity", type=number_arg(float, 1e-6, 1e9, up_to=True),
                       default=None,
                       help="IMLI weight of one misclassified row vs one literal "
                       f"(default {IMLI_DEFAULTS['data_fidelity']:g})")
        p.add_argument("--time-limit", type=number_arg(float, 0, 1e8, inclusive=False),
                       default=None,
                       help="IMLI solver time limit per fit, seconds "
                       f"(default {IMLI_DEFAULTS['time_limit']:g})")
        p.add_argument("--fold-mdl-weight", type=_mdl_weight, default=None,
                       help="FOLD: weight of the program's size against its training errors "
                       "(default 0.5, doubled on the default training view, which stacks "
                       "two copies of each row; the report gives both; larger: a smaller "
                       "program; 0: training errors alone; none: plain FOLD, every rule "
                       "that gains information)")
        p.add_argument("--max-seconds", type=number_arg(float, 0, 1e8, inclusive=False),
                       default=None,
                       help="stop the whole run after this many seconds (finished LIME "
                       "batches stay in the cache)")
    return parser


def parse_args(argv: list[str]) -> CliRun:
    """Parse ``argv`` into a :class:`CliRun`.

    Argparse exits with code 2 on bad usage, including values the configuration refuses
    (``--top-k 0``, say).

    Parameters
    ----------
    argv : list of str
        The arguments, without the program's name.

    Returns
    -------
    CliRun
        The parsed command.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return _cli_run(args)
    except ValueError as err:  # in the command's words, as argparse's own are
        command = f"{parser.prog} {args.command}"
        parser.exit(2, f"{command}: error: {err} (see {command} --help)\n")


def _cli_run(args) -> CliRun:
    data = DEMO_DATASET if args.command == "demo" else args.data
    if getattr(args, "compare_views", False) and args.train_view == "raw":
        raise ValueError("--compare-views compares with the LIME views, but --train-view raw "
                         "explains no row; leave --train-view at its default")
    if args.scheduler is not None and importlib.util.find_spec("distributed") is None:
        raise ValueError(f"--scheduler needs Dask: {DASK_EXTRA_HINT}")
    repeated: list[str] = []
    for option in ("--learners", "--sweep-data-fidelity", "--sweep-clauses",
                   "--sweep-mdl-weight"):
        dest = option[2:].replace("-", "_")
        if getattr(args, dest, None) is not None:
            setattr(args, dest, _once(option, getattr(args, dest), repeated))
    for message in repeated + _unused_options(args):
        print(f"warning: {message}", file=sys.stderr)
    imli_params = {
        key: value
        for key, value in (
            ("n_clauses", args.imli_clauses),
            ("rule_type", args.imli_rule_type),
            ("data_fidelity", args.data_fidelity),
            ("time_limit", args.time_limit),
        )
        if value is not None
    }
    def lime_option(name):  # without LIME (--train-view raw) its options are ignored
        given = getattr(args, name) if args.train_view != "raw" else None
        return getattr(LimeConfig, name.removeprefix("lime_")) if given is None else given

    lime = LimeConfig(
        num_samples=lime_option("num_samples"),
        top_k=lime_option("top_k"),
        discretizer=args.discretizer,
        engine=lime_option("lime_engine"),
        mode=lime_option("lime_mode"),
        pool_rows=lime_option("lime_pool_rows"),
        categories=lime_option("lime_categories"),
        random_state=args.seed,
        n_jobs=args.n_jobs,
        scheduler=lime_option("scheduler"),
    )
    config = RunConfig(
        test_size=args.test_size,
        random_state=args.seed,
        lime=lime,
        learners=args.learners,
        train_view=args.train_view,
        class_weight=(args.class_weight if args.class_weight != "none" and args.model is None
                      else None),
        imli_params=imli_params,
        fold_params=({} if args.fold_mdl_weight is None else
                     {"mdl_weight": None if args.fold_mdl_weight == "none"
                      else args.fold_mdl_weight}),
    )
    cache = None if args.no_cache else (args.cache_dir or (
        _default_cache() if config.uses_lime else default_cache_dir()))  # raw: unused
    sweep = None
    if args.command == "compare":
        given = {key: value for key, value in (
            ("data_fidelity", args.sweep_data_fidelity), ("n_clauses", args.sweep_clauses),
            ("mdl_weight", args.sweep_mdl_weight), ("imli_time_limit", args.sweep_time_limit),
        ) if value is not None}
        sweep = SweepConfig(**given)
    return CliRun(data, getattr(args, "target", None), args.positive, args.out, args.force,
                  args.model, cache, config, sweep, getattr(args, "compare_views", False),
                  args.max_seconds, tuple(getattr(args, "missing", ())),
                  tuple(args.model_classes or ()), tuple(getattr(args, "drop", ())))


def _unused_options(args) -> list[str]:
    """Why some given options will not apply (a learner's settings when it does not run,
    LIME's when the training view is raw, the batched engine's mode with the reference
    one): they are ignored, and the report does not record them."""
    def given(*options):
        return [o for o in options if getattr(args, o[2:].replace("-", "_")) is not None]

    def sets(options):
        return f"{', '.join(options)} set{'s' if len(options) == 1 else ''}"

    sweeps = args.command == "compare"
    imli = given("--imli-clauses", "--imli-rule-type", "--data-fidelity", "--time-limit",
                 *(("--sweep-data-fidelity", "--sweep-clauses", "--sweep-time-limit")
                   if sweeps else ()))
    fold = given("--fold-mdl-weight", *(("--sweep-mdl-weight",) if sweeps else ()))
    messages = []
    for learner, options in (("imli", imli), ("fold", fold)):
        if options and learner not in args.learners:
            messages.append(f"{sets(options)} {learner.upper()}, which --learners "
                            f"{','.join(args.learners)} does not run: ignored")
    lime = given("--top-k", "--num-samples", "--lime-engine", "--lime-mode",
                 "--lime-pool-rows", "--scheduler", "--lime-categories")
    if lime and args.train_view == "raw":
        messages.append(f"{sets(lime)} LIME, which --train-view raw does not run: ignored")
    elif args.lime_mode is not None and args.lime_engine == "reference":
        messages.append("--lime-mode sets the batched LIME engine, not --lime-engine "
                        "reference: ignored")
    if args.model_classes and args.model is None:
        messages.append("--model-class names the classes of a --model, and none is given: "
                        "ignored")
    if args.class_weight == "balanced" and args.model is not None:
        messages.append("--class-weight sets the black box trained here, and --model "
                        "explains yours as it is: ignored")
    return messages


def _summary_table(report: dict) -> Table:
    # One column per learner, one row per metric: narrow enough for an 80-column terminal.
    rows = learner_rows(report)
    name = visible(report["dataset"]["name"])
    table = Table(title=escape(f"Fidelity to the black box — {name}"))
    table.add_column("")
    for row in rows:
        table.add_column(row[0], justify="right")
    for i, (_, title) in enumerate(LEARNER_COLUMNS, start=1):
        table.add_row(title, *(row[i] for row in rows))
    return table


def _pareto_table(report: dict) -> Table:
    table = Table(title="Pareto fronts of the sweep (fidelity vs literals)")
    for title in ("learner", "setting", "fidelity (raw test)", "literals", "optimal",
                  "vs this run"):
        # a setting wraps rather than ending in "…": cut, settings read alike
        table.add_column(title, justify="left" if title in ("learner", "setting") else "right",
                         overflow="fold" if title == "setting" else "ellipsis",
                         min_width=14 if title == "setting" else None)
    for name, points in report["sweep"]["learners"].items():
        for p in sorted(points, key=lambda p: p["rule_size"]):
            if p["pareto"]:
                table.add_row(name, setting_text(p), fmt(p["fidelity_test"]),
                              str(p["rule_size"]), optimal_cell(p), vs_run_cell(p))
    return table


def execute(run: CliRun, console: Console) -> Path:
    """Check and create ``--out``, then run.

    The run holds ``--out``'s lock (:func:`explain.outputs.run_lock`): a second run into
    the same directory meanwhile is refused. A run that fails or is stopped removes the
    ``--out`` directory it created while it is still empty.

    Parameters
    ----------
    run : CliRun
        The parsed command.
    console : rich.console.Console
        Where progress and the summary are printed.

    Returns
    -------
    pathlib.Path
        The path of ``report.json``.

    Raises
    ------
    adapters.InputError
        If ``--out`` cannot be used, or the data, model or settings cannot.
    """
    try:
        missing = [p for p in (run.out, *run.out.parents) if not p.exists()]  # deepest first
    except OSError as error:  # a name too long: exists() passes on only a few errors
        raise InputError(f"cannot use --out {run.out} ({error.strerror or error}); choose "
                         f"another --out") from None
    out = prepare_out_dir(run.out, force=run.force,
                          inputs={"--data": run.data, "--model": run.model})
    try:
        with run_lock(out):
            if not run.force:  # again: a run that held the lock may have ended since
                refuse_previous_run(out)
            return _execute(run, console, out)
    except BaseException:
        for made in missing:
            if not made.is_dir() or any(made.iterdir()):
                break
            made.rmdir()
        raise


def _read_table(run: CliRun, positive=None):
    """The run's table (its ``--positive`` unless ``positive`` is given); with ``--model``,
    the columns the model reads are kept though the reading would drop them (a single
    value, an identifier...), as the model cannot be explained without them."""
    def read(keep=()):
        return load_dataset(run.data, target=run.target,
                            positive=run.positive if positive is None else positive,
                            missing=run.missing, drop=run.drop, keep=keep)

    dataset = read()
    if run.model is None or not (wanted := dropped_columns_read(dataset, run.model)):
        return dataset
    dataset = read(keep=wanted)
    # the model asked for these columns, not the user
    asked = {f"kept column {quoted(c)}, as asked:": f"kept column {quoted(c)}, which the "
             f"model reads:" for c in wanted}
    notes = tuple(next((note.replace(a, b, 1) for a, b in asked.items()
                        if note.startswith(a)), note) for note in dataset.notes)
    return replace(dataset, notes=notes + (
        f"the model reads {listing(wanted, 10)}, which reading the table would drop as "
        f"{'a feature' if len(wanted) == 1 else 'features'}: kept, as the model cannot be "
        f"explained without {'it' if len(wanted) == 1 else 'them'}",))


def _execute(run: CliRun, console: Console, out: Path) -> Path:
    if run.model is None or run.data in BUNDLED or not _is_pipe(Path(run.data)):
        return _explain(run, console, out)
    # with --model the table may be read again (another class reading, a kept column),
    # and a pipe (`--data <(zcat t.csv.gz)`) gives its rows once
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / Path(run.data).name
        copy.write_bytes(Path(run.data).read_bytes())
        return _explain(replace(run, data=str(copy)), console, out)


def _is_pipe(path: Path) -> bool:
    try:
        return stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        return False


def _explain(run: CliRun, console: Console, out: Path) -> Path:
    dataset = _read_table(run)
    black_box = None
    if run.model is not None:
        black_box, dataset = _load_model(run, dataset)
    # the class explained against the rest is the pipeline's choice; say it here too
    said = binarize_target(dataset).notes
    for note in said:
        console.print(f"[dim]note:[/dim] {escape(visible(note))}")
    with _warnings_shown() as warned, _progress_reporter(console) as progress:
        if run.sweep is not None:
            result = run_compare(dataset, run.config, run.sweep, black_box=black_box,
                                 cache_dir=run.cache_dir, progress=progress)
        else:
            result = run_pipeline(dataset, run.config, black_box=black_box,
                                  cache_dir=run.cache_dir, progress=progress)
            if run.views:
                result.report["filtering"] = view_comparison(result)
    if not run.force and any((out / name).exists() for name in RUN_FILES):
        # --out held no run when this one began: another run into it ended meanwhile
        raise InputError(f"another run wrote its report to {out} while this one ran; run "
                         "again with another --out, or with --force to replace it")
    written = write_run(result, out)
    try:
        console.print(_summary_table(result.report))
        if note := paired_note(result.report.get("agreement", {})):
            console.print(escape(note))
        for note in _notes_after_the_run(result.report, (*said, *warned)):
            console.print(f"[dim]note:[/dim] {escape(visible(note))}")
        if "sweep" in result.report:
            console.print(_pareto_table(result.report))
            console.print(escape(VS_RUN_NOTE))
    except BaseException as err:
        err.written = out  # a stop while the summary prints: the run's files are complete
        raise
    return written["report_json"]


@contextmanager
def _warnings_shown():
    """The messages of the warnings shown meanwhile (shown as usual), as a list."""
    shown, show = [], warnings.showwarning

    def record(message, *rest):
        shown.append(str(message))
        show(message, *rest)

    warnings.showwarning = record
    try:
        yield shown
    finally:
        warnings.showwarning = show


def _notes_after_the_run(report: dict, said) -> list[str]:
    """The report's notes not ``said`` already (held-out copies of training rows, a small
    test set, ...) and, when a learner does no better than one constant answer, the line
    that says so."""
    notes = [note for note in report["dataset"]["notes"] if note not in said]
    if behind_baseline(report):
        notes.append(baseline_note(report))
    return notes


#: Off a terminal, a stage's progress is also printed when it moved and its last line is
#: this old (a quarter of a slow LIME stage can take minutes).
PROGRESS_SECONDS = 30.0


def _per_second(count: float, seconds: float) -> str:
    """A rate as a person reads it: whole numbers from 10 up, two digits below (a sweep's
    fits of several seconds each read "0 fits/s")."""
    rate = count / seconds
    return f"{rate:.0f}" if rate >= 10 else f"{rate:.2g}"


@contextmanager
def _progress_reporter(console: Console):
    """A ``progress(stage, done, total)`` callback: a live bar on a terminal; elsewhere (a
    log file, CI) a line on stderr at each quarter, and at work done since a line
    :data:`PROGRESS_SECONDS` or more before, so a long run is not silent."""
    def unit_of(stage):
        return "fits" if stage.startswith(("sweep", "fitting", "training")) else "rows"

    if not console.is_terminal:
        # per stage: (time, done) of its first report; (quarter, time, done) of its last line
        first, shown = {}, {}

        def log(stage: str, done: int, total: int) -> None:
            now = time.monotonic()
            began, done0 = first.setdefault(stage, (now, done))
            quarter = 4 * done // total if total else 4
            last = shown.get(stage)
            if last is not None and last[0] == quarter and (
                    now - last[1] < PROGRESS_SECONDS or done == last[2]):
                return
            shown[stage] = (quarter, now, done)
            elapsed = now - began
            # the rate of the work seen since the first report (which may come after a fit)
            rate = (f", {_per_second(done - done0, elapsed)} {unit_of(stage)}/s"
                    if done > done0 and elapsed > 0 and total > 1 else "")
            print(f"{stage}: {done}/{total} {unit_of(stage)}{rate}", file=sys.stderr,
                  flush=True)

        yield log
        return
    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} {task.fields[unit]}"),
                  TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                  console=console, transient=True) as bar:
        tasks: dict[str, int] = {}

        def update(stage: str, done: int, total: int) -> None:
            unit = unit_of(stage)
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total, rate="", unit=unit)
            task = bar.tasks[tasks[stage]]
            rate = (f"{_per_second(done, task.elapsed)} {unit}/s"
                    if task.elapsed and unit == "rows" else "")
            bar.update(tasks[stage], completed=done, total=total, rate=rate)

        yield update


def _load_model(run: CliRun, dataset):
    """The user's model with its classes read as ``dataset``'s labels, and the dataset (with
    a note saying how the classes were read)."""
    dataset = restrict_to_model(dataset, run.model)
    # The pipeline encodes with an encoder fitted the same way on the whole table.
    box = load_xgboost(run.model, TableEncoder().fit(dataset.X, dataset.categorical))
    names = labels_as_written(box.class_names, dataset.source_labels)
    if run.model_classes and names is not None:
        raise InputError("--model-class is for a model trained elsewhere: this model file "
                         f"names its classes ({listing(names)})")
    recorded = None if names is not None else labels_as_written(_recorded_reading(box),
                                                                 dataset.source_labels)
    if recorded is not None and not run.model_classes and (
            positive := _positive_of_reading(recorded, dataset)) is not None:
        # the saved copy of a model of one class against the rest, as a run read it: that
        # class is explained again, as for a model trained here
        dataset = _with_classes(run, dataset, recorded, positive, run.positive is None)
    if run.model_classes or recorded is not None:
        given, how = ((run.model_classes, "as --model-class gives them") if run.model_classes
                      else (recorded, "as the run that saved the model read them"))
        labels = _model_class_labels(given, dataset, len(box.classes_),
                                     "--model-class" if run.model_classes else
                                     "the model file's class reading")
        source = dict(dataset.source_labels)
        codes = [source[label] if label in source else dataset.class_names.index(label)
                 for label in labels]
    elif names is None and len(box.classes_) == 2 < len(dataset.source_labels):
        rest, positive = (dataset.class_names if len(dataset.class_names) == 2
                          else ("not LABEL", "LABEL"))
        raise InputError(f"the model gives 2 classes and target {dataset.target!r} has "
                         f"{len(dataset.source_labels)} labels; for a model of one class "
                         f"against the rest, give --positive and its classes in order, e.g. "
                         f"--model-class {rest!r} --model-class {positive!r}")
    elif names is None:
        # Trained elsewhere: class i is the raw target's i-th label as LabelEncoder numbers
        # them; the dataset may have re-encoded them (the positive class as 1, one-vs-rest).
        codes = [code for _, code in dataset.source_labels]
        labels = [label for label, _ in dataset.source_labels]
        how = ("in the bundled dataset's own order" if run.data in BUNDLED else
               "numbered as scikit-learn's LabelEncoder numbers them (sorted, numbers in "
               "numeric order)")
    else:
        # Trained here: the file names its classes, perhaps one class against the rest.
        rest = len(names) == 2 and names[0].startswith(f"not {names[1]}")
        dataset = _with_classes(run, dataset, names, names[1] if rest else None,
                                rest and run.positive is None
                                and names[1] in dict(dataset.source_labels))
        codes = [dataset.class_names.index(name) for name in names]
        labels, how = names, "as the model file names them"
    if names is None:  # the file a run saves keeps the reading (not a class naming:
        # that would mark the model as trained here, whose column names are all encoded)
        box.booster.set_attr(**{CLASS_READING: json.dumps(list(labels))})
    order = ", ".join(f"{i} = {label!r}" for i, label in enumerate(labels))
    note = f"the model's classes read as the target's labels, {how}: {order}"
    box = relabel_classes(box, codes, f"target {dataset.target!r}")
    return box, replace(dataset, notes=dataset.notes + (note,))


#: The booster attribute in which a run's saved copy of a user's model keeps how its
#: classes were read (the target label of each class, in order).
CLASS_READING = "surrogate_rules_class_reading"


def _recorded_reading(box) -> list | None:
    """The class reading a run saved with this model file, if any."""
    text = box.booster.attr(CLASS_READING)
    if text is None:
        return None
    try:
        labels = json.loads(text)
    except ValueError:
        labels = None
    if not (isinstance(labels, list) and all(isinstance(v, str) for v in labels)):
        raise InputError(f"the model file's {CLASS_READING} attribute is not a list of "
                         f"labels; give the model's classes with --model-class")
    return labels


def _with_classes(run: CliRun, dataset, classes, positive, read_again: bool):
    """``dataset`` (read again with ``positive`` explained against the rest when
    ``read_again``), refused unless its classes are the model's ``classes``; the refusal
    names ``positive`` for a model of one class against the rest."""
    if read_again:
        dataset = restrict_to_model(_read_table(run, positive=positive), run.model)
    if sorted(classes) != sorted(dataset.class_names):
        hint = f"; run with --positive {positive!r}" if positive is not None else ""
        raise InputError(f"the model's classes {listing(classes)} are not the target's "
                         f"{listing(dataset.class_names)}{hint}")
    return dataset


def _positive_of_reading(labels, dataset) -> str | None:
    """The label a saved class reading explains against the rest (``['not lo', 'lo']``, in
    either order), when ``dataset``'s target has more than two labels; else None."""
    source = [label for label, _ in dataset.source_labels]
    if len(labels) != 2 or len(source) <= 2:
        return None
    for rest, positive in (labels, labels[::-1]):
        if positive in source and rest not in source and rest == rest_name(positive, source):
            return positive
    return None


def _model_class_labels(given, dataset, n_classes, what="--model-class") -> list[str]:
    """The target labels ``given`` names, one per class of the model, in order; for a model
    of two classes on a target explained one class against the rest, the dataset's two
    class names (the rest, and the class)."""
    labels = [label for label, _ in dataset.source_labels]
    if n_classes == len(dataset.class_names) == 2 < len(labels):
        labels = list(dataset.class_names)
    named = [match_label(label, labels, dataset.target, what) for label in given]
    if len(named) != n_classes or sorted(named) != sorted(labels):
        raise InputError(f"{what} must name each of the target's labels "
                         f"{listing(labels, 10)} once, in the order of the model's "
                         f"{n_classes} classes; got {listing(given, 10)}")
    return named


class RunTimeout(BaseException):
    """The whole run went past ``--max-seconds``.

    A ``BaseException``, like ``KeyboardInterrupt``: it arrives asynchronously, and no
    handler of ordinary errors along the way may swallow it.
    """


class Terminated(BaseException):
    """The process was asked to stop (SIGTERM: ``kill``, ``timeout``, a job scheduler)."""


#: Seconds after which a stop that came inside XGBoost's training is tried again.
RETRY_SECONDS = 0.05
_STOPS = {signal.SIGALRM: RunTimeout, signal.SIGINT: KeyboardInterrupt,
          signal.SIGTERM: Terminated}
#: The exit code of each stop (128 + the signal's number for Ctrl-C and SIGTERM).
_STOP_CODES = {RunTimeout: 3, KeyboardInterrupt: 130, Terminated: 143}


def _in_xgboost(frame) -> bool:
    """Whether ``frame`` runs inside XGBoost, whose C++ training calls back into Python:
    an exception raised there unwinds through code that cannot take it (XGBoost ignored
    it, failed a check or crashed)."""
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("xgboost"):
            return True
        frame = frame.f_back
    return False


@contextmanager
def run_stops(seconds: float | None):
    """Stop the run, in the main thread, on a time limit, Ctrl-C or SIGTERM.

    Once ``seconds`` of wall time pass (:class:`RunTimeout`), on Ctrl-C
    (``KeyboardInterrupt``) or on SIGTERM (:class:`Terminated`: ``kill``, ``timeout``, a
    job scheduler), so that every stop cleans up as Ctrl-C does (an empty ``--out`` it made
    is removed). A stop that comes while XGBoost trains is raised when it returns (tried
    again every :data:`RETRY_SECONDS`).

    Parameters
    ----------
    seconds : float or None
        The wall-time limit (``--max-seconds``); ``None``: none.

    Yields
    ------
    None
        While the stops are armed.

    Raises
    ------
    adapters.InputError
        If ``seconds`` is not positive.
    """
    if seconds is not None and seconds <= 0:
        raise InputError("--max-seconds must be positive")
    pending = []

    def stop(signum, frame):
        if not pending:
            pending.append(_STOPS[signum])
        if _in_xgboost(frame):
            STOP_TRAINING.set()  # a black box in training ends after its current round
            signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
            return
        raise pending.pop()()

    try:
        # a stop the parent set to be ignored (`explain ... &` in a script, nohup) stays so;
        # SIGALRM is the run's own timer
        previous = {signum: signal.signal(signum, stop) for signum in _STOPS
                    if signum == signal.SIGALRM
                    or signal.getsignal(signum) is not signal.SIG_IGN}
    except ValueError:  # not the main thread: leave the defaults
        yield
        return
    if seconds:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except TrainingStopped:  # ended early at the stop's request: the stop itself
        signal.setitimer(signal.ITIMER_REAL, 0)
        if pending:
            raise pending.pop()() from None
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        STOP_TRAINING.clear()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class _Stdout:
    """Standard output for the console: a write that fails (a full disk, a pipe closed by
    ``head``) is kept in :attr:`failed` and the run goes on writing nothing there, as its
    files in ``--out`` are its results."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        self._guarded(self._stream.write, text)
        return len(text)

    def flush(self) -> None:
        self._guarded(self._stream.flush)

    def _guarded(self, call, *args) -> None:
        if self.failed is not None:
            return
        try:
            call(*args)
        except OSError as err:
            self.failed = err
            try:  # what is still buffered goes nowhere at exit, not to a second error
                null = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(null, self._stream.fileno())
                finally:
                    os.close(null)
            except (OSError, ValueError, AttributeError):
                pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m explain``.

    Parameters
    ----------
    argv : list of str, optional
        The arguments, without the program's name; by default ``sys.argv[1:]``.

    Returns
    -------
    int
        The process exit code: 0 on success, 2 for bad input (said in one line), 1 out of
        memory, 3 when ``--max-seconds`` stops the run, 130 on Ctrl-C, 143 on SIGTERM.

    Raises
    ------
    SystemExit
        From the argument parser: code 2 on a usage error, 0 after ``--help``.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            # an output whose encoding lacks a character printed (the table's dash, a
            # name, in a Latin-1 locale or a file on Windows) shows it as "?", not a
            # traceback
            stream.reconfigure(errors="replace")
    stdout = _Stdout(sys.stdout)
    # no stdout at all (fd 1 closed, pythonw): rich's own null file
    console = Console(file=stdout if sys.stdout is not None else None)
    run = parse_args(sys.argv[1:] if argv is None else argv)
    # Warnings (an IMLI time limit reached, say) are notes for the user, not source lines.
    warnings.showwarning = lambda message, category, *rest: print(
        f"warning: {message}", file=sys.stderr)
    try:
        with run_stops(run.max_seconds):
            report = execute(run, console)
    except (InputError, FoldInputError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except MemoryError as err:  # numpy's says how much it asked for
        print(f"error: out of memory ({' '.join(str(err).split()) or 'no detail'}); give "
              f"fewer rows or LIME samples (--num-samples)", file=sys.stderr)
        return 1
    except BaseException as err:
        return _stopped(err, run)
    for label, path in (("report:", report), ("", report.with_name("report.html")),
                        ("", report.with_name("report.md"))):
        console.print(escape(f"{label:8}{visible(path)}"))
    if stdout.failed is not None:
        print(f"warning: standard output could not be written "
              f"({stdout.failed.strerror or stdout.failed}); the results are in "
              f"{visible(report.parent)}", file=sys.stderr)
    return 0


def _stopped(err: BaseException, run: CliRun) -> int:
    """The exit code of a run stopped by ``--max-seconds``, Ctrl-C or SIGTERM, after saying so.

    The stop may surface as another error: a library cleaning up after it (joblib's pool
    interrupted while starting a thread) raises its own, with the stop as its context.
    Any other error is raised again.
    """
    seen = err
    while seen is not None and not isinstance(seen, RunTimeout | KeyboardInterrupt
                                              | Terminated):
        seen = seen.__context__ or seen.__cause__
    if seen is None:
        raise err
    written = getattr(err, "written", None) or getattr(seen, "written", None)
    if written is not None:
        print(f"{'terminated' if isinstance(seen, Terminated) else 'interrupted'} after the "
              f"run wrote its files: the results in {visible(written)} are complete",
              file=sys.stderr)
        return next(code for kind, code in _STOP_CODES.items() if isinstance(seen, kind))
    # only LIME's batches are cached: the black box and the fits are redone on a rerun
    cached = run.cache_dir is not None and run.config.train_view != "raw"
    kept = "finished LIME batches are kept in the cache (the fits are redone)"
    if isinstance(seen, Terminated):
        print("terminated (SIGTERM)" + (f"; {kept}" if cached else ""), file=sys.stderr)
        return _STOP_CODES[Terminated]
    if isinstance(seen, RunTimeout):
        resume = (f"{kept}, so running it again resumes LIME" if cached else
                  "without a cache (--no-cache) nothing was kept" if run.cache_dir is None
                  else "nothing was kept (a run without LIME caches nothing)")
        print(f"error: the run took longer than --max-seconds {run.max_seconds:g}; {resume}",
              file=sys.stderr)
        return _STOP_CODES[RunTimeout]
    resume = (f"{kept}; run the same command again to resume LIME" if cached else
              "nothing was kept (--no-cache)" if run.cache_dir is None else
              "nothing was kept (a run without LIME caches nothing)")
    print(f"interrupted: {resume}", file=sys.stderr)
    return _STOP_CODES[KeyboardInterrupt]
