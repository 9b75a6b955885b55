"""The benchmark protocol: stratified k-fold, our pipeline, its no-LIME ablation and the peers.

Per dataset and fold (:func:`run_fold`):

1. :func:`explain.pipeline.run_pipeline` on the fold's split: XGBoost trained on the train
   fold, LIME on the train (and test) rows, IMLI and FOLD learned from the black box's labels
   of the LIME-filtered train rows, scored on the test rows (raw and LIME-filtered).
2. The ablation: the same learners refitted (:func:`explain.compare.refit`) on the same
   rows, LIME run and black box with ``train_view="raw"`` (every feature of every row) and
   ``"lime"`` (the LIME-filtered rows only, the LIME-FOLD paper's dataset).
3. The peers of :mod:`benchmarks.peers` on the raw train rows with the same black-box labels,
   scored on the same test rows.

A multi-class target is explained one-vs-rest with the smallest class that has enough rows
to learn (at least 10, and 5 % of the rows) as positive, by the pipeline
(:func:`explain.pipeline.binarize_target`); the folds are stratified on that binary
target. Fold results are summarized (:func:`summarize`: mean and standard deviation of the
scores, median of the sizes and fit times) and saved as JSON, one file per dataset.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Callable

import numpy as np
from sklearn.model_selection import StratifiedKFold

from benchmarks.datasets import BenchDataset, DatasetError, load
from benchmarks.machine import environment
from benchmarks.peers import PEERS, evaluate_peer, make_peer
from explain.metrics import discordant_test

__all__ = ["BenchConfig", "QUICK_DATASETS", "DEFAULT_DATASETS", "RESULTS_DIR", "LIME_CACHE_DIR",
           "OURS", "ABLATION", "to_project_dataset", "choose_positive", "fold_splits", "run_fold",
           "run_dataset", "disagreeing", "summarize", "check_peers", "run", "save"]

HERE = Path(__file__).resolve().parent
RESULTS_DIR = HERE / "results"
LIME_CACHE_DIR = HERE / ".data" / "lime-cache"
QUICK_DATASETS = ("breast_cancer", "heart", "sonar", "ionosphere", "wine")
DEFAULT_DATASETS = ("breast_cancer", "heart", "ionosphere", "sonar", "pima", "breast-w",
                    "credit-g", "wine", "iris", "ecoli", "adult")
OURS = ("imli", "fold")
ABLATION = {"imli": "imli_nolime", "fold": "fold_nolime"}
#: The LIME-FOLD paper's variant: learning from the LIME-filtered rows alone.
LIME_ONLY = {"imli": "imli_limeonly", "fold": "fold_limeonly"}
SCORE_KEYS = ("fidelity_test", "fidelity_test_lime", "fidelity_train", "accuracy_test",
              "precision_test", "recall_test", "f1_test")
SIZE_KEYS = ("rule_size", "n_rules", "fit_seconds")

Log = Callable[[str], None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class BenchConfig:
    """What a benchmark run does (saved with its results).

    Parameters
    ----------
    datasets : tuple of str
        Names from :data:`benchmarks.datasets.NAMES`.
    folds : int, default=5
        Stratified folds; each fold is the test set once.
    random_state : int, default=0
        Seeds the folds, the black box, LIME, our learners and the peers.
    lime_samples : int, optional
        LIME perturbations per row; ``None`` keeps ``LimeConfig``'s default.
    lime_jobs : int, default=-1
        LIME worker processes (``LimeConfig.n_jobs``; -1 = all cores, 1 = in process).
    discretizer : str, optional
        LIME's discretizer (``LimeConfig.discretizer``); ``None`` keeps the pipeline's. It
        sets LIME's bins and so IMLI's threshold columns.
    top_k : int, optional
        Features LIME keeps per row (``LimeConfig.top_k``); ``None`` keeps the pipeline's.
    lime_categories : str, optional
        How LIME sees categorical columns (``LimeConfig.categories``); ``None`` keeps the
        pipeline's.
    peers : tuple of str
        Peers to run (:data:`benchmarks.peers.PEERS`).
    ablation : bool, default=True
        Also run our learners without LIME filtering.
    imli_params, fold_params : dict
        Extra parameters of our learners (``RunConfig.imli_params`` / ``fold_params``).
    positive : dict
        Dataset name -> the class explained against the rest; by default a multi-class
        dataset's smallest class with enough rows (the pipeline's choice) and a binary
        one's class 1.
    out_dir : Path
        Where the JSON results and the markdown tables go.
    cache_dir : Path or None
        LIME cache (explanations are reused by later runs); ``None`` disables it.
    data_dir : Path or None
        Dataset cache of :mod:`benchmarks.fetch` (default ``benchmarks/.data``).

    Raises
    ------
    ValueError
        If the pipeline's settings it makes (:class:`explain.lime_runner.LimeConfig`) are
        not valid, so that a bad setting stops a run before its first fold.
    """

    datasets: tuple[str, ...] = DEFAULT_DATASETS
    folds: int = 5
    random_state: int = 0
    lime_samples: int | None = None
    lime_jobs: int = -1
    discretizer: str | None = None
    top_k: int | None = None
    lime_categories: str | None = None
    peers: tuple[str, ...] = PEERS
    ablation: bool = True
    imli_params: dict = field(default_factory=dict)
    fold_params: dict = field(default_factory=dict)
    positive: dict = field(default_factory=dict)
    out_dir: Path = RESULTS_DIR
    cache_dir: Path | None = LIME_CACHE_DIR
    data_dir: Path | None = None

    def __post_init__(self):
        _run_config(self)

    def to_dict(self) -> dict:
        """JSON-ready values, with the pipeline's defaults filled in for the settings that
        change the results (LIME's samples, bins, features and categories, IMLI's time
        limit)."""
        from explain.learners import IMLI_DEFAULTS

        out = asdict(self)
        for key in ("out_dir", "cache_dir", "data_dir"):
            out[key] = None if out[key] is None else str(out[key])
        out["datasets"], out["peers"] = list(self.datasets), list(self.peers)
        lime = _run_config(self).lime
        out["lime_samples"] = lime.num_samples
        out["discretizer"], out["top_k"] = lime.discretizer, lime.top_k
        out["lime_categories"] = lime.categories
        out["imli_params"] = {"time_limit": IMLI_DEFAULTS["time_limit"], **self.imli_params}
        return out


def check_peers(peers) -> None:
    """Fail before any work if a peer's package is missing (ImportError naming the extra)."""
    from benchmarks.peers import _bench_import

    needs = {"foldrpp": ("foldrpp", "foldrpp"), "ripper": ("wittgenstein", "wittgenstein")}
    for name in peers:
        make_peer(name)  # unknown names raise ValueError
        if name in needs:
            _bench_import(*needs[name])


def to_project_dataset(bench: BenchDataset):
    """The pipeline's :class:`adapters.Dataset` for a benchmark table (same columns, labels)."""
    from adapters import Dataset

    return Dataset(name=bench.name, X=bench.X, y=bench.y, target=bench.target,
                   class_names=bench.class_names, categorical=bench.categorical)


def choose_positive(dataset, positive: str):
    """``dataset`` with ``positive`` as class 1 and every other class as 0.

    Raises
    ------
    ValueError
        If ``positive`` is not one of the dataset's class names.
    """
    names = tuple(dataset.class_names)
    if positive not in names:
        raise ValueError(f"{dataset.name} has no class {positive!r}; choose from "
                         f"{', '.join(names)}")
    label = names.index(positive)
    rest = names[1 - label] if len(names) == 2 else f"not {positive}"
    note = f"explaining '{positive}' against the rest (chosen with --positive)"
    return replace(dataset, y=(dataset.y == label).astype(np.int64), class_names=(rest, positive),
                   notes=tuple(dataset.notes) + (note,))


def fold_splits(y: np.ndarray, folds: int, random_state: int) -> list[tuple[np.ndarray, ...]]:
    """Seeded, shuffled stratified k-fold splits ``(train_idx, test_idx)`` of ``y``."""
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=random_state)
    try:
        return [(train, test) for train, test in splitter.split(np.zeros(len(y)), y)]
    except ValueError as err:
        raise DatasetError(f"cannot split {len(y)} rows into {folds} folds "
                           f"({' '.join(str(err).split())})") from None


def _run_config(config: BenchConfig):
    from explain.lime_runner import LimeConfig
    from explain.pipeline import RunConfig

    lime = LimeConfig(random_state=config.random_state, n_jobs=config.lime_jobs)
    if config.lime_samples is not None:
        lime = replace(lime, num_samples=config.lime_samples)
    if config.discretizer is not None:
        lime = replace(lime, discretizer=config.discretizer)
    if config.top_k is not None:
        lime = replace(lime, top_k=config.top_k)
    if config.lime_categories is not None:
        lime = replace(lime, categories=config.lime_categories)
    return RunConfig(random_state=config.random_state, lime=lime, learners=OURS,
                     imli_params=dict(config.imli_params), fold_params=dict(config.fold_params))


def run_fold(dataset, split, config: BenchConfig, log: Log = _stderr, tag: str = "",
             extend: Callable | None = None) -> dict:
    """Our learners, their ablation and the peers on one fold.

    Parameters
    ----------
    dataset : adapters.Dataset
        Binary or multi-class (explained one class vs the rest by the pipeline).
    split : (train_idx, test_idx)
    config : BenchConfig
    log : callable
        Receives progress lines.
    tag : str
        Prefix of the progress lines.
    extend : callable, optional
        ``extend(result, split)`` -> more methods (name -> a learner report with
        ``disagree_rows``), measured on the pipeline's result (``explain.pipeline.
        PipelineResult``) of this fold: an experiment's variants of our learners.

    Returns
    -------
    dict
        ``methods`` (name -> the pipeline's learner report keys), ``black_box``, ``lime``,
        ``train_rows``, ``test_rows``, ``seconds``.
    """
    from explain.compare import refit
    from explain.pipeline import run_pipeline

    train_idx, test_idx = split
    run_config = _run_config(config)
    started = time.perf_counter()
    result = run_pipeline(dataset, run_config, split=(train_idx, test_idx),
                          cache_dir=config.cache_dir, progress=_lime_progress(log, tag))
    report = result.report
    methods = {name: report["learners"][name] for name in OURS}
    for name in OURS:
        methods[name]["disagree_rows"] = disagreeing(
            result.predictions[name]["test"], result.labels["bb_test"], test_idx)
    log(f"{tag} pipeline {time.perf_counter() - started:.1f}s (LIME "
        f"{report['lime']['seconds']:.1f}s) " + _brief(methods))

    if config.ablation:
        # the same rows, LIME run and black box; only the training view changes
        for view, names, title in (("raw", ABLATION, "no-LIME ablation"),
                                   ("lime", LIME_ONLY, "LIME-rows-only")):
            begun = time.perf_counter()
            refitted = {names[n]: refit(result, n, view) for n in OURS}
            methods.update(refitted)
            log(f"{tag} {title} {time.perf_counter() - begun:.1f}s " + _brief(refitted))
    if extend is not None:
        begun = time.perf_counter()
        extended = extend(result, (train_idx, test_idx))
        methods.update(extended)
        log(f"{tag} variants {time.perf_counter() - begun:.1f}s " + _brief(extended))

    labels = result.labels
    X_train, X_test = dataset.X.iloc[train_idx], dataset.X.iloc[test_idx]
    for name in config.peers:
        begun = time.perf_counter()
        methods[name] = evaluate_peer(
            make_peer(name, config.random_state), X_train, labels["bb_train"], X_test,
            labels["bb_test"], labels["y_test"], dataset.categorical,
            X_test_lime=result.views["fold"]["test_lime"])
        methods[name]["disagree_rows"] = disagreeing(
            methods[name].pop("test_predictions"), labels["bb_test"], test_idx)
        log(f"{tag} {name} {time.perf_counter() - begun:.1f}s " + _brief({name: methods[name]}))
    return {
        "train_rows": int(len(train_idx)),
        "test_rows": int(len(test_idx)),
        "black_box": report["black_box"],
        "lime": report["lime"],
        "positive_class": report["dataset"]["positive_class"],
        "methods": methods,
        "seconds": time.perf_counter() - started,
    }


def disagreeing(predicted, bb_test, test_idx) -> list[int]:
    """The dataset rows among a fold's test rows where ``predicted`` is not the black box's
    label (pooled over the folds, every row is tested once: the paired tests of
    :func:`benchmarks.tables.verdicts`)."""
    return [int(i) for i in test_idx[np.asarray(predicted) != np.asarray(bb_test)]]


def _brief(methods: dict) -> str:
    return " ".join(f"{name}: fid {m['fidelity_test']:.3f}, {m['rule_size']} lit"
                    for name, m in methods.items())


def _lime_progress(log: Log, tag: str):
    """A ``progress(stage, done, total)`` callback printing about every 25 %."""
    last = {}

    def progress(stage: str, done: int, total: int) -> None:
        step = max(1, total // 4)
        key = (stage, total)
        if done == last.get(key):
            return
        if done == total or done - last.get(key, 0) >= step:
            last[key] = done
            log(f"{tag} {stage} {done}/{total}")

    return progress


def summarize(folds: list[dict]) -> dict:
    """Per method: mean and std of the scores, median of sizes and fit seconds over folds.

    Folds that failed (holding ``error``) are left out; ``folds_ok`` counts the others.

    Returns
    -------
    dict
        ``methods`` -> name -> ``{key: {"mean", "std"}}`` for scores, ``{key: median}`` for
        sizes, ``optimal`` (folds where IMLI proved its rule optimal, when reported),
        ``disagree_rows`` (the held-out rows where it disagrees with the black box, over
        all folds, when every fold kept them), ``vs_run_test`` (a refit's paired test
        against the default view, its counts summed over the folds);
        ``black_box_accuracy`` ``{"mean", "std"}``; ``lime_seconds`` (total);
        ``folds_ok``; ``errors``.
    """
    ok = [f for f in folds if "error" not in f]
    names: list[str] = []
    for fold in ok:
        names += [n for n in fold["methods"] if n not in names]
    methods = {}
    for name in names:
        entries = [f["methods"][name] for f in ok if name in f["methods"]]
        summary: dict = {"folds": len(entries)}
        for key in SCORE_KEYS:
            values = [e[key] for e in entries if e.get(key) is not None]
            if values:
                summary[key] = {"mean": float(np.mean(values)), "std": float(np.std(values))}
        for key in SIZE_KEYS:
            values = [e[key] for e in entries if e.get(key) is not None]
            if values:
                summary[key] = float(np.median(values))
        flags = [bool(e["optimal"]) for e in entries if e.get("optimal") is not None]
        if flags:
            summary["optimal"] = {"optimal": sum(flags), "of": len(flags)}
        if all("disagree_rows" in e for e in entries):
            summary["disagree_rows"] = sorted(r for e in entries for r in e["disagree_rows"])
        if all("vs_run_test" in e for e in entries):  # a refit, tested on each fold's rows
            from explain.compare import vs_run  # the pipeline: only when there are refits
            summary["vs_run_test"] = vs_run(discordant_test(
                *(sum(e["vs_run_test"][k] for e in entries)
                  for k in ("only_refit_faithful", "only_run_faithful"))))
        methods[name] = summary
    bb = [f["black_box"]["accuracy_test"] for f in ok]
    return {
        "methods": methods,
        "black_box_accuracy": ({"mean": float(np.mean(bb)), "std": float(np.std(bb))}
                               if bb else None),
        "lime_seconds": float(sum(f["lime"]["seconds"] for f in ok)),
        "folds_ok": len(ok),
        "errors": [f["error"] for f in folds if "error" in f],
    }


def run_dataset(name: str, config: BenchConfig, log: Log = _stderr,
                bench: BenchDataset | None = None, extend: Callable | None = None) -> dict:
    """Every fold of one dataset; the result dict that is saved as ``<name>.json``.

    ``bench`` is the dataset already loaded (by default it is loaded here). ``extend(result,
    split, fold)`` measures more methods on fold number ``fold`` (:func:`run_fold`). A fold whose
    pipeline rejects its input (``adapters.InputError``, e.g. a black box that predicts
    one class for every training row) is recorded with its ``error``.
    """
    from adapters import InputError
    from explain.pipeline import binarize_target

    dataset = to_project_dataset(bench if bench is not None else load(name, config.data_dir))
    if name in config.positive:
        dataset = choose_positive(dataset, config.positive[name])
    dataset = binarize_target(dataset)
    started = time.perf_counter()
    folds = []
    splits = fold_splits(dataset.y, config.folds, config.random_state)
    for k, split in enumerate(splits):
        tag = f"[{name} fold {k + 1}/{config.folds}]"
        try:
            record = run_fold(dataset, split, config, log, tag,
                              None if extend is None else partial(extend, fold=k))
        except InputError as exc:
            log(f"{tag} skipped: {exc}")
            record = {"error": str(exc)}
        folds.append({"fold": k, **record})
    seconds = time.perf_counter() - started
    log(f"[{name}] done in {seconds:.1f}s")
    return {
        "dataset": {
            "name": name,
            "rows": int(dataset.X.shape[0]),
            "features": int(dataset.X.shape[1]),
            "categorical": len(dataset.categorical),
            "positive_class": dataset.class_names[1],
            "positive_rate": float(np.mean(dataset.y == 1)),
            "notes": list(dataset.notes),
        },
        "seconds": seconds,
        "folds": folds,
        "summary": summarize(folds),
    }


def save(result: dict, out_dir: Path) -> Path:
    """Write one dataset's result as ``out_dir/<name>.json``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{result['dataset']['name']}.json"
    path.write_text(json.dumps(result, indent=1, default=_json_default) + "\n")
    return path


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def run(config: BenchConfig, command: str, log: Log = _stderr) -> list[dict]:
    """Run every dataset of ``config``, saving each result as soon as it is complete.

    Each saved result carries the configuration and the :func:`environment`. The peers'
    packages are checked and every dataset is loaded (fetched when not cached) first, so
    that a missing one stops the run before its first fold.
    """
    check_peers(config.peers)
    data = {name: load(name, config.data_dir) for name in config.datasets}
    env = environment(command)
    results = []
    for i, name in enumerate(config.datasets):
        log(f"[{name}] dataset {i + 1}/{len(config.datasets)}")
        result = run_dataset(name, config, log, data.pop(name, None))  # None: given twice
        result["config"] = config.to_dict()
        result["environment"] = env
        path = save(result, config.out_dir)
        log(f"[{name}] saved {path}")
        results.append(result)
    return results
