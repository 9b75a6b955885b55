"""Markdown tables of benchmark results, for BENCHMARKS.md.

:func:`render` turns the result dicts saved by :mod:`benchmarks.runner` (one per dataset)
into a document: the machine, versions, date and exact command, then one table per dataset
and a line saying which of the issue's targets the numbers meet.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from benchmarks.fetch import DatasetError
from explain.metrics import SIGNIFICANCE, discordant_test
from explain.report_md import p_text, vs_run_cell

__all__ = ["METHODS", "Verdict", "render", "render_header", "render_dataset", "render_summary",
           "targets", "verdicts", "paired_rows", "load_results"]

# (key in the results, label in the table)
METHODS = (
    ("imli", "IMLI (ours)"),
    ("fold", "FOLD (ours)"),
    ("imli_limeonly", "IMLI, LIME rows only (paper)"),
    ("fold_limeonly", "FOLD, LIME rows only (paper)"),
    ("imli_nolime", "IMLI, no LIME (ablation)"),
    ("fold_nolime", "FOLD, no LIME (ablation)"),
    ("foldrpp", "FOLD-R++"),
    ("ripper", "RIPPER"),
    ("tree3", "tree, depth 3"),
    ("tree5", "tree, depth 5"),
)
OURS = ("imli", "fold")
PEERS = ("foldrpp", "ripper", "tree3", "tree5")
COLUMNS = ("method", "fidelity (raw test)", "fidelity (LIME test)", "accuracy", "F1 vs black box",
           "rules", "literals", "fit s", "IMLI optimal")
DASH = "–"


def load_results(directory: Path) -> list[dict]:
    """Every ``*.json`` result in ``directory``, in file-name order.

    Raises
    ------
    DatasetError
        A file that is not a benchmark result (unreadable JSON, or missing its sections).
    """
    results = []
    for path in sorted(Path(directory).glob("*.json")):
        try:
            result = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise DatasetError(f"{path} is not a readable result file ({err})") from None
        missing = [k for k in ("dataset", "summary", "environment")
                   if not isinstance(result, dict) or k not in result]
        if missing:
            raise DatasetError(f"{path} is not a benchmark result (no {', '.join(missing)})")
        if not isinstance(result["dataset"], dict) or "name" not in result["dataset"]:
            raise DatasetError(f"{path} is not a benchmark result (its dataset has no name)")
        results.append(result)
    # a run's datasets in the order it ran them (RESULTS.md's order)
    return sorted(results, key=lambda r: (_run_position(r), r["dataset"]["name"]))


def _run_position(result: dict) -> int:
    names = list((result.get("config") or {}).get("datasets") or ())
    name = result["dataset"]["name"]
    return names.index(name) if name in names else len(names)


def _mean_std(entry: dict | None) -> str:
    if not entry:
        return DASH
    return f"{entry['mean']:.3f} ± {entry['std']:.3f}"


def _number(value, digits: int = 0) -> str:
    if value is None:
        return DASH
    return f"{value:.{digits}f}"


def _optimal(summary: dict) -> str:
    flag = summary.get("optimal")
    return f"{flag['optimal']}/{flag['of']}" if flag else DASH


def _hash_seed(environment: dict) -> str:
    seed = environment.get("pythonhashseed")  # unset, empty or "random": random hashes
    return f"PYTHONHASHSEED={seed} " if seed not in (None, "", "random") else ""


def render_header(environment: dict, config: dict | None = None) -> str:
    """The run's machine, versions, date, command and protocol as markdown lines."""
    versions = ", ".join(f"{k} {v}" for k, v in environment["versions"].items() if v)
    lines = [
        f"- Machine: {environment['cpu']}, {environment['cores_available']} cores available "
        f"({environment['cores']} total), {environment['platform']}",
        f"- Python {environment['python']}; {versions}"
        + (f"; {environment['swipl']}" if environment.get("swipl") else ""),
        f"- Date: {environment['date']}",
        f"- Command: `{_hash_seed(environment)}{environment['command']}`"
        + (f" at commit {environment['commit']}" if environment.get("commit") else ""),
    ]
    if config:
        # results saved before a run recorded the pipeline's default: not recorded
        samples = config.get("lime_samples") or "number of samples not recorded"
        if not isinstance(samples, str):
            samples = f"{samples} samples per row"
        # results saved before the setting existed were run with quartile bins
        discretizer = config.get("discretizer", "quartile")
        top_k = config.get("top_k", 5)  # saved before the setting existed: 5
        categories = config.get("lime_categories")
        categories = f"as {categories}" if categories else "not recorded"
        lines.append(
            f"- Protocol: stratified {config['folds']}-fold (seed {config['random_state']}); "
            f"black box XGBoost trained on each train fold; LIME ({samples}, "
            f"top {top_k} features, {discretizer} bins, categories {categories}) "
            "on train and test rows; every surrogate learns the black box's train-fold labels"
            + (f"; IMLI time limit {config['imli_params']['time_limit']:g} s per fit"
               if config.get("imli_params", {}).get("time_limit") else "") + ". "
            "Scores are mean ± std over folds (the population std, ddof 0); rules, literals "
            "and fit seconds are medians. \"IMLI optimal\" counts the folds whose rule the "
            "solver proved optimal: only one query on all rows (batch_size=None) can, so "
            "mini-batch learning (the default) gives 0 without any fit cut short.")
    return "\n".join(lines)


def render_dataset(result: dict) -> str:
    """One dataset's heading, black-box accuracy, table and targets line."""
    ds, summary = result["dataset"], result["summary"]
    folds = len(result["folds"])
    lines = [
        f"### {ds['name']}",
        "",
        f"{ds['rows']} rows, {ds['features']} features ({ds['categorical']} categorical); "
        f"positive class `{ds['positive_class']}` ({ds['positive_rate']:.0%} of rows); "
        f"{summary['folds_ok']}/{folds} folds; black-box test accuracy "
        f"{_mean_std(summary['black_box_accuracy'])}; LIME {summary['lime_seconds']:.0f} s, "
        f"whole dataset {result['seconds']:.0f} s.",
    ]
    for note in ds.get("notes", []):
        lines.append(f"Note: {note}.")
    errors = summary.get("errors", [])
    for error in dict.fromkeys(errors):
        lines.append(f"Failed folds ({errors.count(error)}): {error}")
    if not summary["methods"]:
        return "\n".join(lines)
    # results saved before the refits were tested against the default view: no column
    paired = any("vs_run_test" in m for m in summary["methods"].values())
    columns = (*COLUMNS, VS_DEFAULT) if paired else COLUMNS
    lines += ["", "| " + " | ".join(columns) + " |",
              "|" + "|".join(["---"] + ["---:"] * (len(columns) - 1)) + "|"]
    for key, label in METHODS:
        m = summary["methods"].get(key)
        if m is None:
            continue
        cells = [label, _mean_std(m.get("fidelity_test")), _mean_std(m.get("fidelity_test_lime")),
                 _mean_std(m.get("accuracy_test")), _mean_std(m.get("f1_test")),
                 _number(m.get("n_rules"), 1 if m.get("n_rules", 0) % 1 else 0),
                 _number(m.get("rule_size"), 1 if m.get("rule_size", 0) % 1 else 0),
                 _number(m.get("fit_seconds"), 2), _optimal(m)]
        if paired:
            cells.append(vs_run_cell(m))
        lines.append("| " + " | ".join(cells) + " |")
    if paired:
        lines += ["", VS_DEFAULT_NOTE]
    lines += ["", targets(summary["methods"])]
    return "\n".join(lines)


#: The per-dataset tables' last column, and what it says.
VS_DEFAULT = "vs the default view"
VS_DEFAULT_NOTE = (
    f"{VS_DEFAULT}: for the same learner trained on another view of the same training rows, "
    "how many more held-out rows it disagrees with the black box on than the default "
    "(ours) over the folds (negative: fewer), with the exact McNemar test's p-value.")


def _fid(m: dict) -> float:
    # Means of the same fold scores summed in another order differ by ~1e-16: a tie.
    return round(m["fidelity_test"]["mean"], 12)


class Verdict(NamedTuple):
    """One target checked: what it compares, whether it is met, and the held-out rows."""

    target: str
    ours: str
    theirs: str
    met: bool
    why: str  # what a missed target lacks
    rows: str  # the paired test on the pooled held-out rows ("" without row data)


def verdicts(methods: dict) -> list[Verdict]:
    """The issue's targets on raw-test fidelity (mean) and literals (median).

    Best of ours vs the best peer: fidelity ≥ and literals ≤. FOLD vs FOLD-R++ and IMLI vs
    RIPPER: fidelity ≥ and strictly fewer literals. Each verdict also says, from the
    held-out rows pooled over the folds, how many each disagrees with the black box on and
    whether the difference is more than chance (:func:`paired_rows`).
    """
    have = {k: m for k, m in methods.items() if "fidelity_test" in m and "rule_size" in m}
    pairs = []
    ours = [k for k in OURS if k in have]
    peers = [k for k in PEERS if k in have]
    if ours and peers:
        best = max(ours, key=lambda k: (_fid(have[k]), -have[k]["rule_size"]))
        # the best peer; among equal fidelity the one with fewer literals
        rival = max(peers, key=lambda k: (_fid(have[k]), -have[k]["rule_size"]))
        pairs.append(("best of ours vs best peer", best, rival, False))
    for ours_key, peer_key in (("fold", "foldrpp"), ("imli", "ripper")):
        if ours_key in have and peer_key in have:
            pairs.append((f"{_label(ours_key)} vs {_label(peer_key)}", ours_key, peer_key, True))
    return [Verdict(target, _who(a, have), _who(b, have),
                    *_compare(have[a], have[b], strict=strict), paired_rows(have[a], have[b]))
            for target, a, b, strict in pairs]


def paired_rows(a: dict, b: dict) -> str:
    """``a``'s and ``b``'s held-out rows disagreeing with the black box, pooled over the
    folds, and the exact McNemar test's p-value on the rows where only one of them
    disagrees: ``"68 vs 67 rows, p = 1.00"``; ``""`` when a summary has no rows."""
    if "disagree_rows" not in a or "disagree_rows" not in b:
        return ""
    wrong_a, wrong_b = set(a["disagree_rows"]), set(b["disagree_rows"])
    test = discordant_test(len(wrong_b - wrong_a), len(wrong_a - wrong_b))
    return f"{len(wrong_a)} vs {len(wrong_b)} rows, {p_text(test['p_value'])}"


def _compare(a: dict, b: dict, strict: bool = True) -> tuple[bool, str]:
    """Whether ``a`` meets the target against ``b``, and if not, what it lacks."""
    gap = _fid(a) - _fid(b)
    lit_a, lit_b = a["rule_size"], b["rule_size"]
    fewer = lit_a < lit_b if strict else lit_a <= lit_b
    if gap >= 0 and fewer:
        return True, ""
    if gap == 0 and lit_a == lit_b:
        return False, "tie: equal fidelity and literals"
    why = []
    if gap < 0:
        digits = 3 if gap <= -0.0005 else 4
        why.append(f"fidelity {gap:+.{digits}f}, fold std {a['fidelity_test']['std']:.3f} "
                   f"/ {b['fidelity_test']['std']:.3f}")
    if not fewer:
        why.append(f"{lit_a:g} vs {lit_b:g} literals")
    return False, "; ".join(why)


def targets(methods: dict) -> str:
    """The line under a dataset's table saying which targets (:func:`verdicts`) are met."""
    parts = []
    for target, ours, theirs, met, why, rows in verdicts(methods):
        if target.startswith("best"):
            target = f"best of ours ({ours}) vs best peer ({theirs})"
        parts.append(f"{target}: {'met' if met else f'not met ({why})'}"
                     + (f" [held-out rows disagreeing: {rows}]" if rows else ""))
    return ("Targets (raw-test fidelity ≥, literals ≤ / <): " + "; ".join(parts) + "."
            if parts else "")


def render_summary(results: list[dict]) -> str:
    """One line per dataset: each target, met or not (and why not), with the numbers it
    compares."""
    found = [(result["dataset"]["name"], v) for result in results
             for v in verdicts(result["summary"]["methods"])]
    if not found:
        return ""
    paired = any(v.rows for _, v in found)  # results saved before the rows were kept: none
    rows = [f"| {name} | {v.target} | {v.ours} | {v.theirs} | "
            f"{'met' if v.met else f'**not met**: {v.why}'} |"
            + (f" {v.rows or DASH} |" if paired else "") for name, v in found]
    header = ["| dataset | target | ours | peer | |", "|---|---|---|---|---|"]
    if paired:
        header = ["| dataset | target | ours | peer | | held-out rows disagreeing (ours vs "
                  "peer) |", "|---|---|---|---|---|---|"]
    met = sum(v.met for _, v in found)
    return "\n".join([f"### Targets at a glance ({met} of {len(rows)} met)", "",
                      *([PAIRED_NOTE, ""] if paired else []), *header, *rows])


#: What the summary's last column says.
PAIRED_NOTE = (
    "Last column: the held-out rows (each row of the dataset is held out once over the "
    "folds that ran) on which ours and the peer disagree with the black box, and the exact "
    "McNemar test of the rows on which only one of them does: a p-value of "
    f"{SIGNIFICANCE:g} or more means that these rows do not show either to be more "
    "faithful. In \"best of ours vs best peer\" both sides are the most faithful of their "
    "kind on these same rows, so its p-value is a little optimistic.")


def _label(key: str) -> str:
    return dict(METHODS)[key].replace(" (ours)", "")


def _who(key: str, have: dict) -> str:
    m = have[key]
    return f"{_label(key)} {_fid(m):.3f}, {m['rule_size']:g} literals"


def render(results: list[dict]) -> str:
    """The whole document: header of the first result's run, then each dataset."""
    if not results:
        return "No results.\n"
    first = results[0]
    parts = ["## Results", "", render_header(first["environment"], first.get("config")), ""]
    commands = {}
    for result in results:
        commands.setdefault(result["environment"].get("command", "?"), []).append(
            result["dataset"]["name"])
    if len(commands) > 1:
        parts += ["These results come from more than one run (the header is the first's): "
                  + "; ".join(f"`{c}` ({', '.join(names)})" for c, names in commands.items())
                  + ".", ""]
    summary = render_summary(results)
    if summary:
        parts += [summary, ""]
    for result in results:
        parts += [render_dataset(result), ""]
    return "\n".join(parts)
