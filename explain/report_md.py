"""report.md: the run's tables as Markdown, from report.json's dict alone.

The same tables as report.html (:mod:`explain.report_html`), without the plots. Text
from the data (names, labels, values, notes) shows its characters that do not print as
escapes (:func:`visible`) and its Markdown and HTML syntax as plain characters (a
renderer passes raw HTML through, and a ``[label](url)`` in the data must not become a
link or an image); rules sit in code fences longer than any run of backticks they contain.
"""

from __future__ import annotations

import re
import unicodedata

from adapters.errors import counted
from explain.figures import decimals, significant
from explain.metrics import SIGNIFICANCE
from imli.predicates import format_value

__all__ = ["render_markdown", "learner_rows", "learner_order", "view_rows", "fmt", "value_cell",
           "views_note", "examples_caption", "reasons_table", "visible", "paired_note",
           "p_text", "vs_run_cell", "FIDELITY_NOTE", "VS_RUN_NOTE", "REASONS_CAPTION",
           "VIEW_LABELS", "VIEW_KEYS"]

#: (report key, column title) of the learners table, in order.
LEARNER_COLUMNS = (
    ("fidelity_test", "fidelity (raw test)"),
    ("fidelity_test_ci", "95% interval (raw test)"),
    ("fidelity_test_lime", "fidelity (LIME test)"),
    ("fidelity_test_lime_ci", "95% interval (LIME test)"),
    ("fidelity_train", "fidelity (train)"),
    ("accuracy_test", "accuracy (test)"),
    ("precision_test", "precision vs BB"),
    ("recall_test", "recall vs BB"),
    ("f1_test", "F1 vs BB"),
    ("n_rules", "rules"),
    ("rule_size", "literals"),
    ("fit_seconds", "fit s"),
    ("optimal", "optimal"),
)


#: What each training view (``RunConfig.train_view``) means, for people.
VIEW_LABELS = {
    "lime": "LIME-filtered rows",
    "lime+raw": "LIME-filtered rows + the same rows in full",
    "raw": "full rows (no LIME)",
}


def visible(text, lines: bool = False) -> str:
    r"""Text from the data as it can be shown safely.

    A terminal control sequence, a tab, a line break or a right-to-left override from the
    data shows as what it is, and a real line break never reads like the two characters
    ``\n``. Spaces of any width and the joiners of Persian words and emoji sequences
    (U+200C, U+200D) show.

    Parameters
    ----------
    text : object
        The text (anything else is shown as its ``str``).
    lines : bool, default=False
        A block of rule text: line breaks stay and the rest is escaped in place.

    Returns
    -------
    str
        ``text`` as is when every character shows, else as a quoted string literal with
        the characters that do not show escaped.

    Examples
    --------
    >>> print(visible("a\x1b[2Jb\u202ec"), visible("yes\nno"), visible("yes\\nno"))
    'a\x1b[2Jb\u202ec' 'yes\nno' yes\nno
    >>> visible("x\ny\tz", lines=True), visible("a\u200db") == "a\u200db"
    ('x\ny\\tz', True)
    """
    text = str(text)
    if text.isprintable() or all(map(_shows, text)):
        return text
    if lines:
        return "".join(c if c == "\n" or _shows(c) else _escaped(c) for c in text)
    return "'" + "".join(c if _shows(c) and c not in "'\\" else _escaped(c)
                         for c in text) + "'"


def _shows(char: str) -> bool:
    return (char.isprintable() or char in "\u200c\u200d"
            or unicodedata.category(char) == "Zs")


def _escaped(char: str) -> str:
    return "\\'" if char == "'" else repr(char)[1:-1]


#: Characters with a meaning in Markdown (emphasis, links, images, code, headings, tables,
#: HTML, GitHub's maths), written with a backslash in plain text.
_MARKDOWN = re.compile(r"([\\`*_\[\]!#|<>&~$])")


def md_text(text) -> str:
    """Text from the data or the run as plain Markdown text: visible characters, its
    Markdown syntax escaped (one line)."""
    return _MARKDOWN.sub(r"\\\1", visible(text))


def setting_text(point: dict) -> str:
    """A sweep point's setting: ``data_fidelity=10, n_clauses=3``; ``mdl_weight=none``."""
    return ", ".join(f"{k}={'none' if v is None else format(v, 'g')}"
                     for k, v in point["params"].items())


def fmt(value) -> str:
    """A report value as a short table cell.

    Parameters
    ----------
    value : object
        A value of report.json.

    Returns
    -------
    str
        "–" for None, yes/no for a bool, three decimals for a float (a half rounded up:
        :func:`explain.figures.decimals`; a share strictly between 0 and 1 that would
        round to either end is ``<0.001`` or ``>0.999``, so that a fidelity of 1,999
        rows of 2,000 does not read as full agreement), ``low–high`` for an interval,
        else ``str(value)``.
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        text = decimals(value, 3)
        if 0 < value < 1 and text in ("0.000", "1.000"):
            return "<0.001" if text == "0.000" else ">0.999"
        return text
    if isinstance(value, (list, tuple)) and len(value) == 2:  # an interval
        return f"{fmt(value[0])}–{fmt(value[1])}"
    return str(value)


def value_cell(value) -> str:
    """A data value as a table cell.

    Parameters
    ----------
    value : object
        A cell of the table.

    Returns
    -------
    str
        A number exactly, as the rules state thresholds (``0.00045``, not ``0.000``); a
        missing value as "–".
    """
    if isinstance(value, float):
        return format_value(value)
    return fmt(value)


def cached(lime: dict) -> str:
    """`` (N of them read from the cache)`` when the LIME cache answered, else ``""``."""
    n = lime.get("rows_from_cache") or 0
    return f" ({n} of them read from the cache)" if n else ""


def class_weights_text(black_box: dict) -> str:
    """How the black box weighed its classes in training (``'bad' ×2.33, 'good' ×1``), or
    ``""`` when it did not (unweighted, or a given model). Three significant digits, a half
    rounded up, trailing zeros dropped; a weight of 1000 or more in full (``×1999``, not
    ``×2e+03``)."""
    weights = black_box.get("class_weights")
    if not weights:
        return ""

    def shown(weight):
        text = significant(weight, 3)
        return text.rstrip("0").rstrip(".") if "." in text else text

    return ", ".join(f"{visible(repr(name))} ×{shown(w)}" for name, w in weights.items())


def complement_legend(name: str, rules: str) -> str | None:
    """How a learner's negated tests read on a missing value, when its rules have one; else
    ``None``. IMLI's complement of a column, ``not (…)``, holds on it; ``!=`` (either
    learner's: a known other category) does not."""
    parts = []
    if name == "imli" and "not (" in rules:
        parts.append("`not (…)` holds on it: where f is known, `not (f <= t)` is f > t and "
                     "`not (f == v)` is f ≠ v")
    if " != " in rules or " not in {" in rules:
        parts.append("`f != v` (and `f not in {…}`) holds only where f is known and is not v "
                     "(or LIME's explanation of the row says f is not v)")
    if not parts:
        return None
    learner = "IMLI" if name == "imli" else "FOLD"
    return (f"A missing value (an unknown one, in the reasons) satisfies no test of "
            f"{learner}'s (nor, on a LIME-filtered row, a feature not selected for the row): "
            f"{'; '.join(parts)}.")


def empty_rules_note(name: str, entry: dict) -> str | None:
    """Why a learner's rules test nothing, when they don't; else ``None``."""
    if entry.get("rule_size", 1) != 0:
        return None
    if name == "fold":
        return ("FOLD learned no rule: no test paid for itself in the program's description "
                "length on these rows, so every row gets the same class (the one its program "
                "names: a rule with no test, or the default); a lower "
                "`--fold-mdl-weight` (or `none`) lets smaller rules in.")
    return ("IMLI's rule tests nothing: no literal paid for itself against the training "
            "errors it would fix, so every row gets one class; a higher `--data-fidelity` "
            "lets rules in.")


def baseline_note(report: dict) -> str | None:
    """What one constant answer, the black box's most frequent training label, scores on the
    test rows, and which learners do no better; ``None`` for reports without it."""
    bb = report["black_box"]
    baseline = bb.get("majority_fidelity_test")
    if baseline is None:
        return None
    text = (f"Answering {bb['majority_label']!r} for every row (the black box's most frequent "
            f"label on the training rows) would have raw-test fidelity {fmt(baseline)}.")
    behind = [name.upper() for name in behind_baseline(report)]
    if behind:
        text += (f" {' and '.join(behind)} {'does' if len(behind) == 1 else 'do'} no better: "
                 f"read {'its' if len(behind) == 1 else 'their'} rules with care.")
    return text


def behind_baseline(report: dict) -> list[str]:
    """The learners whose raw-test fidelity is no better than one constant answer's (the
    black box's most frequent training label); none for reports without that baseline."""
    baseline = report.get("black_box", {}).get("majority_fidelity_test")
    if baseline is None or "learners" not in report:
        return []
    return [name for name in learner_order(report)
            if (report["learners"][name].get("fidelity_test") or 0.0) <= baseline]


def paired_note(agreement: dict) -> str | None:
    """Which surrogate the test rows show to be more faithful, if either.

    Parameters
    ----------
    agreement : dict
        The report's ``agreement`` section.

    Returns
    -------
    str or None
        The rows where they disagree (exactly one of them matches the black box there) put
        to the exact McNemar test, in words; ``None`` for reports without it.
    """
    p = agreement.get("fidelity_difference_p")
    if p is None:
        return None
    imli, fold = agreement["only_imli_faithful_test"], agreement["only_fold_faithful_test"]
    if imli + fold == 0:
        return ("IMLI and FOLD give the same class on every test row, so these rows cannot "
                "tell their fidelity apart.")
    text = (f"Where IMLI and FOLD disagree, IMLI matches the black box on {_rows(imli)} and "
            f"FOLD on {_rows(fold)}")
    if p < SIGNIFICANCE:
        more = "IMLI" if imli > fold else "FOLD"
        return f"{text}: {more} is the more faithful (exact McNemar test, {p_text(p)})."
    return (f"{text}: the test rows do not show either to be more faithful (exact McNemar "
            f"test, {p_text(p)}).")


def _rows(n: int) -> str:
    return counted(n, "row") if n else "none"


def p_text(p: float) -> str:
    """A p-value as the reports print it.

    Parameters
    ----------
    p : float
        The p-value.

    Returns
    -------
    str
        ``p < 0.001``, ``p = 0.0034``, ``p = 0.60``; to as many digits as it takes to show
        on which side of :data:`~explain.metrics.SIGNIFICANCE` it is (``p = 0.0498``, not
        ``0.050``).
    """
    if p < 0.001:
        return "p < 0.001"
    if p >= 0.1:
        return f"p = {decimals(p, 2)}"
    for digits in range(2, 18):
        text = significant(p, digits)
        if (float(text) < SIGNIFICANCE) == (p < SIGNIFICANCE):
            break
    return f"p = {text}"


def vs_run_cell(point: dict) -> str:
    """A refit's held-out rows against the run's own fit.

    Parameters
    ----------
    point : dict
        A sweep point or view entry with ``vs_run_test``.

    Returns
    -------
    str
        How many more rows it disagrees with the black box on (``-2``: fewer), and the
        exact McNemar p-value: ``+3 (p = 0.25)``; ``same`` when both give every row the
        same class.
    """
    vs = point.get("vs_run_test")
    if vs is None:
        return "–"
    refit, run = vs["only_refit_faithful"], vs["only_run_faithful"]
    if refit == run == 0:
        return "same"
    return f"{run - refit:+d} ({p_text(vs['p_value'])})"


#: What the "vs this run" column says (the sweep and the training-view tables).
VS_RUN_NOTE = ("vs this run: how many more held-out rows (in full) the refit disagrees with "
               "the black box on than the run's own fit (negative: fewer; same: every row gets the "
               "same class), with the exact McNemar test's p-value; a smaller refit with p "
               "of 0.05 or more is not shown to be less faithful.")


def learner_order(section: dict) -> list[str]:
    """The learners of a report section, in the reports' order.

    report.json sorts its keys, so the order is fixed here rather than taken from the dict.

    Parameters
    ----------
    section : dict
        A section with a ``learners`` key (``report``, ``report["sweep"]``...).

    Returns
    -------
    list of str
        IMLI, FOLD, then the others sorted.
    """
    known = ("imli", "fold")
    names = list(section["learners"])
    return [n for n in known if n in names] + sorted(n for n in names if n not in known)


def optimal_cell(entry: dict) -> str:
    """IMLI's "optimal" cell for a fit's report ``entry``; "no (time limit)" when the
    solver's time limit cut the fit short, so the rule may be improved by more time."""
    return "no (time limit)" if entry.get("timed_out") else fmt(entry.get("optimal"))


#: What the "optimal" column says, for the reports' captions.
OPTIMAL_NOTE = ("IMLI's rule is a proven optimum of its MaxSAT objective on all "
                "training rows, which only one query over all of them (batch_size=None) "
                "with no time limit struck can prove; \"no (time limit)\": the time limit "
                "cut the fit short.")


#: What the learners table's columns mean (report.md and report.html).
FIDELITY_NOTE = (
    "Fidelity is agreement with the black box's labels. Raw test: on the held-out rows as "
    "they are (the surrogate used as a global model, with no black box); LIME test: on the "
    "held-out rows, each keeping only its top LIME features (the LIME-FOLD protocol); "
    "train: on the training rows as they are, which the learners learned from (in full, "
    "as LIME views, or both: see the training view; a train fidelity far above the raw "
    "test one is overfitting). A 95% interval is the Wilson score interval of a test "
    "fidelity: the fidelities the held-out rows are consistent with. Precision, recall and F1 take the black box's labels as "
    "the truth; accuracy compares with the true labels. Rules: IMLI's clauses, terms or "
    "list entries, FOLD's clauses with its exceptions; literals: the conditions they test. "
    "predictions.csv holds every row's labels these figures come from, and report.json "
    "each figure in full (here to three decimals, a half rounded up). Optimal: "
    + OPTIMAL_NOTE)


def learner_rows(report: dict) -> list[list[str]]:
    """One row of cells per learner.

    Parameters
    ----------
    report : dict
        The run's report (report.json's content).

    Returns
    -------
    list of list of str
        The name, then the cells in :data:`LEARNER_COLUMNS` order.
    """
    return [
        [name] + [optimal_cell(report["learners"][name]) if key == "optimal"
                  else fmt(report["learners"][name].get(key)) for key, _ in LEARNER_COLUMNS]
        for name in learner_order(report)
    ]


class Code(str):
    """A table cell shown as a code span: literal text (rules, feature names), no escaping
    (made :func:`visible` where it is built)."""


def _cell(value) -> str:
    if isinstance(value, Code):
        longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
        fence = "`" * (longest + 1)
        text = f"{fence} {value} {fence}" if longest else f"{fence}{value}{fence}"
        return text.replace("|", "\\|")
    return md_text(value if isinstance(value, str) else fmt(value))


def _table(header: list, rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(report: dict) -> str:
    """Render the report's tables and rules as Markdown text.

    Parameters
    ----------
    report : dict
        The run's report (report.json's content).

    Returns
    -------
    str
        The text of report.md.
    """
    ds, bb, lime = report["dataset"], report["black_box"], report["lime"]
    split = report["split"]
    text = md_text

    positives = round(ds["positive_rate"] * ds["rows"])
    out = [f"# Surrogate rules for {text(ds['name'])}", ""]
    out += [
        f"- Rows: {ds['rows']} ({split['train_rows']} train / {split['test_rows']} test), "
        f"features: {ds['features']} ({len(ds['numeric'])} numeric, "
        f"{len(ds['categorical'])} categorical)",
        f"- Target: {text(ds['target'])}; class balance: {text(ds['class_names'][1])} "
        f"{positives} ({fmt(ds['positive_rate'])}), {text(ds['class_names'][0])} "
        f"{ds['rows'] - positives} ({fmt(1 - ds['positive_rate'])})",
        f"- Black box: {text(bb['kind'])}, accuracy {fmt(bb['accuracy_test'])} (test), "
        f"{fmt(bb.get('accuracy_train'))} (train)",
    ]
    if weights := class_weights_text(bb):
        out.append(f"- Black box trained with class weights (balanced): {md_text(weights)}")
    if lime.get("rows_explained"):
        out.append(
            f"- LIME: {lime['rows_explained']} rows explained in {fmt(lime['seconds'])} s"
            f"{cached(lime)} "
            f"(top-{lime['top_k']}, {lime['num_samples']} samples, {lime['discretizer']} "
            f"bins, {lime['engine']} engine)"
        )
    else:
        out.append("- LIME: not run")
    view = lime.get("train_view")
    if view:
        out.append(f"- Learners trained on: {VIEW_LABELS.get(view, view)}")
    out += [f"- Note: {text(note)}" for note in ds.get("notes", [])]
    out += ["", "## Fidelity to the black box", ""]
    out += _table(["learner"] + [title for _, title in LEARNER_COLUMNS], learner_rows(report))
    out += ["", FIDELITY_NOTE]
    if baseline := baseline_note(report):
        out += ["", md_text(baseline)]
    if "agreement" in report:
        ag = report["agreement"]
        out += [
            "",
            "## IMLI vs FOLD",
            "",
            f"The two surrogates agree on {fmt(ag['imli_vs_fold_test'])} of the test rows "
            f"({counted(ag['disagreements_test'], 'disagreement')}); both match the black box "
            f"on {fmt(ag['both_faithful_test'])}.",
        ]
        if note := paired_note(ag):
            out += ["", note]
        out += _examples(ag)
    for name in learner_order(report):
        entry = report["learners"][name]
        title = "IMLI rules (MaxSAT)" if name == "imli" else "FOLD program (defaults + exceptions)"
        out += ["", f"## {title}", ""] + _fenced(entry["rules"])
        for legend in (complement_legend(name, entry["rules"]), empty_rules_note(name, entry)):
            out += ["", legend] if legend else []
        out += _rule_stats(entry.get("rule_stats", []))
    out += _sweep(report.get("sweep"))
    out += _features(report)
    out += _filtering(report.get("filtering"))
    return "\n".join(out) + "\n"


def _fenced(text: str) -> list[str]:
    text = visible(text, lines=True)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, text.rstrip(), fence]


def _rule_stats(stats: list[dict]) -> list[str]:
    if not stats:
        return []
    rows = [[Code("\u2003" * int(st["depth"]) + visible(st["text"])), st["kind"], st["predicts"],
             st["covered"], st["coverage"], st["precision"], st.get("precision_ci")]
            for st in stats]
    return ["", "Each rule on the test rows: the rows it decides (a CNF clause: the rows on "
            "which it fails; an exception: the rows it takes from its rule's class; a row "
            "that several rules decide counts for each), their share, and the fraction the "
            "black box gives the same class, with its 95% interval (wide where a rule "
            "decides few rows).", ""] + _table(
        ["rule", "kind", "decides", "rows", "coverage", "precision vs BB", "95% interval"],
        rows)


#: Rows of the "Features LIME selected" table, the most selected first.
FEATURES_SHOWN = 15


def features_caption(n_selected: int) -> str:
    """Which of the features LIME selected the table shows."""
    if n_selected > FEATURES_SHOWN:
        return f"The {FEATURES_SHOWN} features LIME selected most often, of {n_selected}"
    if n_selected == 1:
        return "The 1 feature LIME selected"
    return f"Each of the {n_selected} features LIME selected"


def missing_selections_note(frequency: list[dict]) -> str | None:
    """Which features LIME selected on rows where they have no value (explained as
    imputed, and not kept in those rows' filtered data), most often first; ``None`` if
    none."""
    missing = sorted((r for r in frequency if r.get("selected_missing")),
                     key=lambda r: -r["selected_missing"])
    if not missing:
        return None
    shown = ", ".join(f"{visible(r['feature'])} ({counted(r['selected_missing'], 'row')})"
                      for r in missing[:5])
    more = f", and {len(missing) - 5} more" if len(missing) > 5 else ""
    return ("Not counted above: LIME also selected features on rows where they are missing "
            "(it explains a missing value as the training median, or as a category "
            f"'(missing)'), selections the filtered rows do not keep: {shown}{more}.")


def examples_caption(agreement: dict, n_features: int) -> str:
    """What the disagreement table shows of the whole: rows, and features when cut.

    Parameters
    ----------
    agreement : dict
        The report's ``agreement`` section.
    n_features : int
        Feature columns the table shows.

    Returns
    -------
    str
        The table's caption.
    """
    shown, total = len(agreement["examples"]), agreement["disagreements_test"]
    parts = [f"the first {shown} of {total}" if shown < total else f"all {total}"]
    tested = agreement.get("features_tested", n_features)
    if n_features < tested:
        parts.append(f"{n_features} of the {tested} features their rules test, the most "
                     "tested")
    return f"Test rows where they disagree ({'; '.join(parts)}):"


#: The disagreement table's own columns, before the features'.
EXAMPLE_COLUMNS = ("row", "black box", "IMLI", "FOLD", "truth")


def example_table(examples: list, features: list | None = None) -> tuple[list, list, int]:
    """The disagreement table's header, rows and number of features: its own columns, then
    each feature's value (a feature named like one of its columns says it is one).

    ``features`` orders the feature columns (``agreement.example_features``: table order;
    the examples' ``values`` come back from report.json with their keys sorted); by
    default, the order of the ``values``.
    """
    if features is None:
        features = list(dict.fromkeys(f for ex in examples for f in ex["values"]))
    header = list(EXAMPLE_COLUMNS) + [f"{f} (feature)" if f in EXAMPLE_COLUMNS else f
                                      for f in features]
    rows = [[ex["row"], ex["black_box"], ex["imli"], ex["fold"], ex["truth"]]
            + [value_cell(ex["values"].get(f)) for f in features] for ex in examples]
    return header, rows, len(features)


#: What the table of reasons shows.
REASONS_CAPTION = ("Why each surrogate gives its class on these rows: the clause, term or rule "
                   "that decides, each test with the row's value (report.json holds each "
                   "reason in full, under agreement.examples):")


def reasons_table(examples: list) -> tuple[list, list]:
    """The table of why IMLI and FOLD give their classes on the disagreement table's rows.

    Parameters
    ----------
    examples : list of dict
        The report's ``agreement.examples``.

    Returns
    -------
    header : list of str
        The columns.
    rows : list of list
        Per example its row, then for each surrogate the class (as :func:`visible` shows
        it, so that a name with a line break does not turn the whole cell into a quoted
        literal) and the one-line reason. A report written before reasons were has none.
    """
    rows = [[ex["row"]] + [f"{visible(ex[name])}: {ex['reasons'][name]['summary']}"
                           for name in ("imli", "fold")]
            for ex in examples if "reasons" in ex]
    return ["row", "IMLI: why", "FOLD: why"], rows


def _examples(agreement: dict) -> list[str]:
    examples = agreement.get("examples", [])
    if not examples:
        return []
    header, rows, n_features = example_table(examples, agreement.get("example_features"))
    out = ["", examples_caption(agreement, n_features), ""] + _table(header, rows)
    header, rows = reasons_table(examples)
    return out + (["", REASONS_CAPTION, ""] + _table(header, rows) if rows else [])


def _sweep(sweep: dict | None) -> list[str]:
    if not sweep:
        return []
    out = ["", "## Fidelity vs rule size (sweep)", "",
           "Each learner refitted on the run's training rows, one setting at a time; "
           "★ marks the Pareto front of the swept settings (no other swept setting is "
           "smaller and at least as faithful, or as small and more faithful; settings that "
           "tie are all on it; the run's own setting, above, is not counted unless swept)."]
    for name in learner_order(sweep):
        points = sweep["learners"][name]
        rows = [[setting_text(p), p["fidelity_test"],
                 p.get("fidelity_test_lime"), p["accuracy_test"], p["n_rules"],
                 p["rule_size"], p["fit_seconds"], optimal_cell(p), vs_run_cell(p),
                 "★" if p["pareto"] else ""] for p in points]
        out += ["", f"### {name}", ""] + _table(
            ["setting", "fidelity (raw test)", "fidelity (LIME test)", "accuracy", "rules",
             "literals", "fit s", "optimal", "vs this run", "Pareto"], rows)
    return out + ["", VS_RUN_NOTE]


def _features(report: dict) -> list[str]:
    frequency = report["lime"].get("feature_frequency")
    if not frequency:
        return []
    learners = learner_order(report)
    selected = [r for r in frequency if r["selected"]]
    rows = [[Code(visible(r["feature"])), r["rate"], r["selected"], r["toward_positive"]]
            + [r.get(n, 0) for n in learners] for r in selected[:FEATURES_SHOWN]]
    note = missing_selections_note(frequency)
    return ["", "## Features LIME selected", "",
            f"{features_caption(len(selected))}: the fraction of training rows whose top LIME "
            "features include it, the fraction of those selections pushing toward the "
            "positive class, and the literals testing it in each rule set.", ""] + _table(
        ["feature", "selected by LIME", "rows", "toward positive"]
        + [f"literals in {n}" for n in learners], rows) + (["", md_text(note)] if note else [])


#: (key, title) of the training-view comparison's columns.
VIEW_KEYS = (("fidelity_test", "fidelity (raw test)"), ("fidelity_test_lime", "fidelity (LIME test)"),
             ("accuracy_test", "accuracy"), ("f1_test", "F1 vs BB"), ("n_rules", "rules"),
             ("rule_size", "literals"), ("fit_seconds", "fit s"), ("optimal", "optimal"),
             ("vs_run_test", "vs this run"))


def view_rows(filtering: dict) -> list[list]:
    """One row per learner and training view.

    Parameters
    ----------
    filtering : dict
        The report's ``filtering`` section (:func:`explain.compare.view_comparison`).

    Returns
    -------
    list of list
        Learner, view (the run's marked), then the metrics of :data:`VIEW_KEYS`.
    """
    rows = []
    for name in learner_order(filtering):
        views = filtering["learners"][name]
        for view in filtering["views"]:
            label = VIEW_LABELS.get(view, view)
            if view == filtering["run_view"]:
                label += " (this run)"
            cells = {"optimal": optimal_cell(views[view]),
                     "vs_run_test": "–" if view == filtering["run_view"]
                     else vs_run_cell(views[view])}
            rows.append([name, label] + [cells[k] if k in cells else views[view].get(k)
                                         for k, _ in VIEW_KEYS])
    return rows


def views_note(filtering: dict) -> str | None:
    """Why the views cannot differ, when they cannot.

    Parameters
    ----------
    filtering : dict
        The report's ``filtering`` section.

    Returns
    -------
    str or None
        Said when the run explained no rows, or LIME kept every feature of every row;
        else ``None``.
    """
    if all(view == "raw" for view in filtering["views"]):
        return ("LIME was not run (training view: full rows only), so there is nothing to "
                "compare: run without --train-view raw to measure the LIME-filtered views.")
    if filtering.get("same_rows"):
        return ("LIME kept every feature of every training row (--top-k is at least the "
                "number of features LIME weighs: the columns, or with --lime-categories "
                "one-hot each category's own), so the LIME-filtered rows are the full rows: the "
                "views differ only in counting each row once or twice. Run with a smaller "
                "--top-k to measure what filtering does.")
    return None


def _filtering(filtering: dict | None) -> list[str]:
    if not filtering:
        return []
    note = views_note(filtering)
    return ["", "## The effect of LIME filtering", "",
            "The same learners, settings, black box and split, trained on each view of the "
            "training rows.", ""] + ([note, ""] if note else []) + _table(
        ["learner", "trained on"] + [t for _, t in VIEW_KEYS], view_rows(filtering)) + [
        "", VS_RUN_NOTE]
