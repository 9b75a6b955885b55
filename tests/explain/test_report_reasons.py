"""Why IMLI and FOLD give their classes to the rows where they disagree: on real runs
(XGBoost or a user's model, lime, RC2, SWI-Prolog), in report.json, report.md and
report.html."""

import json
import subprocess
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import HistGradientBoostingClassifier

from adapters import from_frame, load_dataset
from explain.learners import LEARNERS
from explain.lime_runner import LimeConfig
from explain.outputs import prepare_out_dir, write_run
from explain.pipeline import RunConfig, run_pipeline
from explain.report_details import MAX_EXAMPLES, row_reasons
from explain.report_html import render_html
from explain.report_md import (REASONS_CAPTION, md_text, reasons_table, render_markdown,
                               visible)
from imli.predicates import readable
from tests.explain.helpers import users_model

ROOT = Path(__file__).resolve().parents[2]
FAST_LIME = LimeConfig(num_samples=300, top_k=5, n_jobs=1)
IMLI_FORMS = [{"rule_type": "CNF"}, {"rule_type": "DNF"}, {"mode": "decision_list"},
              {"mode": "decision_set"}]


class Cells(HTMLParser):
    """The text of every table cell of a page."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.cells, self._open = [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._open = []

    def handle_endtag(self, tag):
        if tag == "td":
            self.cells.append("".join(self._open))
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open.append(data)


def _run(dataset, imli=None, black_box=None, categories="value"):
    config = RunConfig(lime=replace(FAST_LIME, categories=categories),
                       imli_params={"time_limit": 5.0, **(imli or {})})
    return run_pipeline(dataset, config, black_box=black_box)


def _says_its_class(result, i, reasons):
    """Each learner's reason for test row ``i`` names the class it predicts there, on
    one line (``summary``) and in full (``text``)."""
    names = result.report["dataset"]["class_names"]
    for name in LEARNERS:
        predicted = names[int(result.predictions[name]["test"][i])]
        summary, text = reasons[name]["summary"], reasons[name]["text"]
        assert summary and "\n" not in summary
        head = text.splitlines()[0]
        if name == "imli":
            assert head == f"{readable(predicted)}: {summary.split(': ')[0]}"
        else:
            assert head.startswith(f"Predicted {predicted!r}")


def _cell(example, name):
    return f"{visible(example[name])}: {example['reasons'][name]['summary']}"


def _in_every_output(out: Path):
    """The reasons of report.json's examples, each in report.md and report.html."""
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    examples = report["agreement"]["examples"]
    md = (out / "report.md").read_text(encoding="utf-8")
    cells = Cells((out / "report.html").read_text(encoding="utf-8")).cells
    assert REASONS_CAPTION in " ".join(md.split()) and examples
    for ex in examples:
        for name in LEARNERS:
            assert md_text(_cell(ex, name)) in md
            assert _cell(ex, name) in cells
    return report


@pytest.mark.parametrize("form", IMLI_FORMS, ids=lambda f: next(iter(f.values())))
def test_each_reason_gives_the_learners_class_in_every_imli_form(form, tmp_path):
    result = _run(load_dataset("breast_cancer"), form)
    assert result.learners["imli"].extra["params"].items() >= form.items()
    disagree = np.flatnonzero(result.predictions["imli"]["test"]
                              != result.predictions["fold"]["test"])
    for i in sorted(set(range(40)) | set(disagree[:MAX_EXAMPLES])):
        _says_its_class(result, i, row_reasons(result, i))
    write_run(result, prepare_out_dir(tmp_path / "run"))
    report = _in_every_output(tmp_path / "run")
    examples = report["agreement"]["examples"]
    assert len(examples) == min(MAX_EXAMPLES, len(disagree))
    rows = list(result.views["fold"]["test"].index)
    for ex in examples:
        i = rows.index(ex["row"])
        assert ex["reasons"] == row_reasons(result, i)
        assert ex["imli"] != ex["fold"]
        for name in LEARNERS:
            why = result.learners[name].explain(result.views[name]["test"].iloc[[i]],
                                                result.views["fold"]["test"].iloc[[i]])
            assert why.label == result.predictions[name]["test"][i]


def test_a_multiclass_table_explained_one_class_against_the_rest(tmp_path):
    # IMLI and FOLD both learn the positive class against the rest, named as such
    for name in ("iris", "wine"):
        result = _run(load_dataset(name))
        assert result.report["dataset"]["class_names"][0].startswith("not ")
        for i in range(len(result.labels["bb_test"])):
            _says_its_class(result, i, row_reasons(result, i))
    write_run(result, prepare_out_dir(tmp_path / "wine"))
    _in_every_output(tmp_path / "wine")


def _mixed_frame():
    """Categories, missing values, and labels and names with Markdown and HTML in them."""
    rng = np.random.default_rng(0)
    n = 240
    frame = pd.DataFrame({
        "age": rng.integers(18, 80, n).astype(float),
        "city | <b>": rng.choice(["paris", "lyon", "*nice*"], n).astype(object),
        "income": rng.normal(50, 15, n),
    })
    yes = (frame["age"] > 45) & (frame["city | <b>"] != "*nice*") | (frame["income"] > 70)
    frame["label"] = np.where(yes, "<i>yes</i>", "no | `x`")
    frame.loc[rng.random(n) < 0.1, "age"] = np.nan
    frame.loc[rng.random(n) < 0.1, "city | <b>"] = np.nan
    return frame


@pytest.mark.parametrize("categories", ["value", "one-hot"])
def test_a_users_model_on_categories_and_missing_values(categories, tmp_path):
    """IMLI's binary columns (categories negated too, with one-hot LIME) show the row's
    own values, a missing one as unknown (as FOLD says); names from the data are escaped."""
    dataset = from_frame(_mixed_frame(), "label", positive="<i>yes</i>", name="mixed")
    box = users_model(dataset, HistGradientBoostingClassifier(max_iter=30, random_state=0))
    result = _run(dataset, {"n_clauses": 1}, box, categories)
    unknown = set()
    for i in range(len(result.labels["bb_test"])):
        reasons = row_reasons(result, i)
        _says_its_class(result, i, reasons)
        for name in LEARNERS:
            # one word for an empty cell in both learners' reasons
            assert "missing" not in reasons[name]["text"] + reasons[name]["summary"]
            if " is unknown" in reasons[name]["summary"]:
                unknown.add(name)
    assert unknown == set(LEARNERS)
    write_run(result, prepare_out_dir(tmp_path / "run"))
    report = _in_every_output(tmp_path / "run")
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "<i>yes</i>" not in html and "city | <b>" not in html
    md = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "\\<i\\>yes\\</i\\>" in md
    # each literal of IMLI's binary columns with the row's value, not the column's bit
    assert not any("(column " in ex["reasons"]["imli"]["text"]
                   for ex in report["agreement"]["examples"])


def test_a_saved_model_given_on_the_command_line(tmp_path):
    """``run --model``: the user's XGBoost model of the breast cancer table."""
    import xgboost as xgb

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X.assign(target=np.array(["malignant", "benign"])[y]).to_csv(tmp_path / "bc.csv",
                                                                 index=False)
    xgb.XGBClassifier(n_estimators=20, max_depth=2).fit(X, 1 - y).save_model(tmp_path / "m.ubj")
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-m", "explain", "run", "--data", str(tmp_path / "bc.csv"),
         "--target", "target", "--positive", "malignant", "--model", str(tmp_path / "m.ubj"),
         "--model-class", "benign", "--model-class", "malignant", "--num-samples", "300",
         "--n-jobs", "1", "--imli-clauses", "1", "--time-limit", "5", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    report = _in_every_output(out)
    assert report["black_box"]["accuracy_test"] > 0.9  # its classes read the right way
    for ex in report["agreement"]["examples"]:
        assert ex["reasons"]["fold"]["text"].startswith(f"Predicted {ex['fold']!r}")
        assert ex["reasons"]["imli"]["text"].startswith(f"{readable(ex['imli'])}: ")


def test_a_report_json_without_reasons_renders_as_before(tmp_path):
    result = _run(load_dataset("breast_cancer"), {"n_clauses": 1})
    write_run(result, prepare_out_dir(tmp_path / "run"))
    report = json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))
    assert render_markdown(report) == (tmp_path / "run" / "report.md").read_text("utf-8")
    for ex in report["agreement"]["examples"]:
        del ex["reasons"]
    md, html = render_markdown(report), render_html(report)
    assert REASONS_CAPTION not in " ".join(md.split()) and "FOLD: why" not in html
    assert "Test rows where they disagree" in md and "Test rows where they disagree" in html


def test_a_class_name_with_a_line_break_leaves_the_reason_as_it_reads():
    # the class name's line break made the whole cell one quoted literal, each quote and
    # backslash of the reason escaped again: 'y\n: rule 1 of class \'y\\n\' fired: ...'
    summary = "rule 1 of class 'y\\n' fired: 'a\\nb' == 'q' ('a\\nb' is 'q')"
    ex = {"row": 3, "imli": "n", "fold": "y\n", "reasons": {
        "imli": {"summary": "it has no rule", "text": ""},
        "fold": {"summary": summary, "text": ""}}}
    header, rows = reasons_table([ex])
    assert rows == [[3, "n: it has no rule", f"'y\\n': {summary}"]]
    # shown as it is in report.md and report.html, not quoted again
    assert visible(rows[0][2]) == rows[0][2]
    assert md_text(rows[0][2]).count("\\'") == 0
