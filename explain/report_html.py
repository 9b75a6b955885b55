"""report.html: the run as a person reads it, in one self-contained static file.

Rendered from the report dict alone (report.json's content). Plots are PNG data URIs
(:mod:`explain.report_plots`); styles are inline; there is no script and no reference to
anything outside the file, so it opens offline. Every piece of text that comes from the
data or the run (feature names, categories, rules, notes) goes through
:func:`explain.report_md.visible` (characters that do not show, escaped) and
:func:`html.escape`.
"""

from __future__ import annotations

import json
from html import escape

from adapters.errors import counted
from explain.report_md import (FEATURES_SHOWN, FIDELITY_NOTE, LEARNER_COLUMNS,
                               REASONS_CAPTION, VIEW_KEYS, VIEW_LABELS, VS_RUN_NOTE,
                               baseline_note, cached, class_weights_text,
                               complement_legend, empty_rules_note,
                               example_table, examples_caption, features_caption, fmt,
                               learner_order, learner_rows, missing_selections_note,
                               optimal_cell, paired_note, reasons_table, setting_text,
                               view_rows, views_note, visible, vs_run_cell)
from explain.report_plots import LEARNER_STYLE, features_plot, filtering_plot, tradeoff_plot

__all__ = ["render_html", "SECTIONS"]

#: (id, title) of the report's sections, in order.
SECTIONS = (
    ("summary", "Dataset and black box"),
    ("metrics", "Fidelity, accuracy and size"),
    ("rules", "The learned rules"),
    ("agreement", "IMLI vs FOLD"),
    ("tradeoff", "Fidelity vs rule size"),
    ("features", "Features LIME selected"),
    ("filtering", "The effect of LIME filtering"),
    ("settings", "Run settings"),
)

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;
 margin:0;background:#f6f7f9}
main{max-width:1320px;margin:0 auto;padding:18px 28px 40px}
h1{font-size:24px;margin:8px 0 2px}h2{font-size:18px;margin:0 0 10px;
 border-bottom:2px solid #e3e6ea;padding-bottom:4px}h3{font-size:15px;margin:4px 0 8px}
section{background:#fff;border:1px solid #e3e6ea;border-radius:8px;padding:14px 18px;
 margin:16px 0}
.sub{color:#5f6368;margin:0 0 8px}.note{color:#5f6368;font-size:13px}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border-bottom:1px solid #e8eaed;padding:4px 9px;text-align:left;vertical-align:top;
 overflow-wrap:anywhere}
th{background:#f1f3f4;font-weight:600}td.num,th.num{text-align:right;
 font-variant-numeric:tabular-nums;overflow-wrap:normal}
.kv th{background:none;color:#5f6368;font-weight:500;white-space:nowrap}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:18px}
.cols>div{min-width:0}
table.rules{width:100%;table-layout:fixed}table.rules th:nth-child(1){width:44%}
table.rules th:nth-child(2){width:22%}table.rules th:nth-child(3){width:7%}
table.rules th:nth-child(4){width:11%}table.rules th:nth-child(5){width:16%}
code,pre,.rule{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;
 font-size:12.5px}
.rule{display:block;white-space:pre-wrap;word-break:break-word}
.d1{padding-left:22px}.d2{padding-left:40px}.d3{padding-left:58px}.d4{padding-left:76px}
.kind{color:#5f6368;font-size:12px}.nowrap{white-space:nowrap}
.bar{display:inline-block;height:8px;background:#34a853;border-radius:2px;
 vertical-align:middle;margin-right:6px}
.bar.low{background:#ea4335}.bar.mid{background:#fbbc04}
pre{background:#f8f9fa;border:1px solid #e8eaed;border-radius:6px;padding:8px 10px;
 overflow-x:auto;white-space:pre-wrap}
img{max-width:100%;height:auto}
.imli{border-top:4px solid #1f77b4}.fold{border-top:4px solid #d95f02}
.card{border:1px solid #e3e6ea;border-radius:6px;padding:8px 12px}
details summary{cursor:pointer;color:#1a73e8;margin:4px 0}
"""


class _Markup:
    """A table cell that is already safe HTML (built here from escaped parts)."""

    def __init__(self, markup: str) -> None:
        self.markup = markup


def _e(value, lines: bool = False) -> str:
    return escape(visible(value, lines), quote=True)


def _table(header, rows, numeric=(), css="") -> str:
    """An HTML table; ``header`` and the cells are escaped here unless already markup."""
    head = "".join(
        f'<th class="num">{_e(h)}</th>' if i in numeric else f"<th>{_e(h)}</th>"
        for i, h in enumerate(header)
    )
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = cell.markup if isinstance(cell, _Markup) else _e(cell)
            cells.append(f'<td class="num">{text}</td>' if i in numeric else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    cls = f' class="{css}"' if css else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _kv(pairs) -> str:
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in pairs)
    return f'<table class="kv"><tbody>{rows}</tbody></table>'


def _learner_title(name: str) -> str:
    return LEARNER_STYLE.get(name, (None, None, name))[2]


def _summary(report: dict) -> str:
    ds, bb, split, lime = report["dataset"], report["black_box"], report["split"], report["lime"]
    positives = round(ds["positive_rate"] * ds["rows"])
    numeric, categorical = len(ds["numeric"]), len(ds["categorical"])
    dataset = _kv([
        ("dataset", ds["name"]),
        ("rows", f"{ds['rows']} ({split['train_rows']} train, {split['test_rows']} test)"),
        ("features", f"{ds['features']} ({numeric} numeric, {categorical} categorical)"),
        ("target", ds["target"]),
        ("class balance", f"{visible(ds['class_names'][1])}: {positives} "
                          f"({fmt(ds['positive_rate'])}), {visible(ds['class_names'][0])}: "
                          f"{ds['rows'] - positives} ({fmt(1 - ds['positive_rate'])})"),
    ])
    lime_text = (
        f"{lime['rows_explained']} rows in {fmt(lime['seconds'])} s{cached(lime)}, "
        f"top-{lime['top_k']} "
        f"features, {lime['num_samples']} samples, {lime['discretizer']} bins"
        if lime.get("rows_explained") else "not run"
    )
    view = lime.get("train_view")
    box = _kv([
        ("black box", bb["kind"]),
        ("accuracy (test)", fmt(bb["accuracy_test"])),
        ("accuracy (train)", fmt(bb.get("accuracy_train"))),
        *([("class weights (balanced)", weights)] if (weights := class_weights_text(bb))
          else []),
        (f"predicts {visible(ds['class_names'][1])} (test)",
         fmt(bb.get("positive_rate_test"))),
        ("LIME", lime_text),
        ("learners trained on", VIEW_LABELS.get(view, view) if view else "–"),
    ])
    notes = "".join(f"<li>{_e(n)}</li>" for n in ds.get("notes", []))
    notes = f'<ul class="note">{notes}</ul>' if notes else ""
    return f'<div class="cols"><div>{dataset}</div><div>{box}</div></div>{notes}'


def _metrics(report: dict) -> str:
    header = ["learner"] + [title for _, title in LEARNER_COLUMNS]
    rows = [[_learner_title(r[0])] + r[1:] for r in learner_rows(report)]
    table = _table(header, rows, numeric=set(range(1, len(header))))
    baseline = baseline_note(report)
    return (table + f'<p class="note">{_e(FIDELITY_NOTE)}</p>'
            + (f'<p class="note">{_e(baseline)}</p>' if baseline else ""))


_DECIDES = {"rule": "holds →", "clause": "fails →", "term": "holds →",
            "list rule": "first to fire →", "set rule": "fires →", "fold rule": "fires →",
            "exception": "holds →", "default": "→"}


def _precision_cell(value) -> _Markup:
    if value is None:
        return _Markup("–")
    level = "low" if value < 0.6 else "mid" if value < 0.85 else ""
    width = max(2, round(value * 36))
    return _Markup(f'<span class="nowrap"><span class="bar {level}" style="width:{width}px">'
                   f"</span>{fmt(value)}</span>")


def _rule_card(name: str, entry: dict) -> str:
    rows = []
    for stat in entry.get("rule_stats", []):
        depth = min(int(stat["depth"]), 4)
        text = _Markup(f'<span class="rule d{depth}">{_e(stat["text"])}</span>')
        decides = _Markup(f'<span class="kind">{_e(_DECIDES.get(stat["kind"], "→"))}</span> '
                          f"{_e(stat['predicts'])}")
        rows.append([text, decides, stat["covered"], fmt(stat["coverage"]),
                     _precision_cell(stat["precision"]), fmt(stat.get("precision_ci"))])
    table = _table(["rule", "decides", "rows", "coverage", "precision vs BB", "95% interval"],
                   rows, numeric={2, 3}, css="rules") if rows else ""
    size = f"{counted(entry['n_rules'], 'rule')}, {counted(entry['rule_size'], 'literal')}"
    legend = "".join(f'<p class="note">{_e(text.replace("`", ""))}</p>'
                     for text in (complement_legend(name, entry["rules"]),
                                  empty_rules_note(name, entry)) if text)
    return (
        f'<div class="card {_e(name)}"><h3>{_e(_learner_title(name))}</h3>'
        f'<p class="sub">{_e(size)}; fidelity {fmt(entry["fidelity_test"])} on raw test rows'
        f"</p>{table}{legend}<details><summary>as plain text</summary>"
        f"<pre>{_e(entry['rules'], lines=True)}</pre></details></div>"
    )


def _rules(report: dict) -> str:
    cards = "".join(f"<div>{_rule_card(n, report['learners'][n])}</div>"
                    for n in learner_order(report))
    return (
        f'<div class="cols">{cards}</div><p class="note">Per rule, on the test rows: '
        "<b>rows</b> it decides (a CNF clause decides the rows on which it fails; an exception "
        "the rows it takes away from its rule's class; a row that several rules decide counts "
        "for each), their share, and the fraction of them the black box gives the same class "
        "(<b>precision vs BB</b>), with its 95% interval (wide where a rule decides few "
        "rows).</p>"
    )


def _agreement(report: dict) -> str:
    if "agreement" not in report:
        return '<p class="note">Only one surrogate was learned.</p>'
    ag = report["agreement"]
    text = (
        f"<p>The two surrogates give the same class on <b>{fmt(ag['imli_vs_fold_test'])}</b> "
        f"of the test rows ({counted(ag['disagreements_test'], 'disagreement')}); both match "
        f"the black box on <b>{fmt(ag['both_faithful_test'])}</b>.</p>"
    )
    if note := paired_note(ag):
        text += f"<p>{_e(note)}</p>"
    examples = ag.get("examples", [])
    if not examples:
        return text
    header, rows, n_features = example_table(examples, ag.get("example_features"))
    caption = _e(examples_caption(ag, n_features))
    text += f'<p class="sub">{caption}</p>' + _table(header, rows,
                                                      numeric=set(range(5, len(header))))
    header, rows = reasons_table(examples)
    if rows:
        text += f'<p class="sub">{_e(REASONS_CAPTION)}</p>' + _table(header, rows)
    return text


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tradeoff(report: dict) -> str:
    if "sweep" not in report:
        return ('<p class="note">No sweep in this run: <code>python -m explain compare</code> '
                "refits both learners over their settings and draws the trade-off here.</p>")
    sweep = report["sweep"]
    image = tradeoff_plot(sweep, report["learners"])
    front = [
        [_learner_title(name), setting_text(p), fmt(p["fidelity_test"]), p["rule_size"]]
        for name in learner_order(sweep)
        for p in sorted(sweep["learners"][name], key=lambda p: p["rule_size"]) if p["pareto"]
    ]
    front_table = _table(["learner", "setting", "fidelity", "literals"], front,
                         numeric={2, 3})
    parts = [f'<div class="cols"><div><img alt="fidelity against rule size" src="{image}">'
             f'</div><div><p class="sub">The Pareto fronts:</p>{front_table}</div></div>']
    for name in learner_order(sweep):
        points = sweep["learners"][name]
        rows = [
            [setting_text(p), fmt(p["fidelity_test"]),
             fmt(p.get("fidelity_test_lime")), fmt(p["accuracy_test"]), p["n_rules"],
             p["rule_size"], fmt(p["fit_seconds"]), optimal_cell(p), vs_run_cell(p),
             "★" if p["pareto"] else ""]
            for p in points
        ]
        header = ["setting", "fidelity (raw)", "fidelity (LIME)", "accuracy", "rules",
                  "literals", "fit s", "optimal", "vs this run", "Pareto"]
        title = f"{_learner_title(name)}: {counted(len(points), 'setting')}"
        parts.append(f"<details><summary>{_e(title)}"
                     f"</summary>{_table(header, rows, numeric=set(range(1, 7)))}</details>")
    return "".join(parts) + (
        '<p class="note">Each point is one learner fitted on the run\'s training rows with '
        "one setting (IMLI: data_fidelity λ and clauses k; FOLD: mdl_weight). "
        "A point is on the Pareto front when no other swept setting of that learner is "
        "smaller and at least as faithful, or as small and more faithful (settings that tie "
        "are all on it): ★ in the table. In the plot, stars mark this run's own settings, "
        "which the front does not count: with a grid that leaves them out, they may beat "
        f"it. {_e(_sentence(VS_RUN_NOTE))}</p>"
    )


def _features(report: dict) -> str:
    frequency = report["lime"].get("feature_frequency")
    if not frequency:
        return '<p class="note">LIME did not run (learners trained on full rows).</p>'
    learners = learner_order(report)
    image = features_plot(frequency, learners)
    selected = [row for row in frequency if row["selected"]]
    top = selected[:FEATURES_SHOWN]
    header = ["feature", "selected by LIME", "rows", "toward positive"] + [
        f"literals in {_learner_title(n)}" for n in learners
    ]
    rows = [[row["feature"], fmt(row["rate"]), row["selected"], fmt(row["toward_positive"])]
            + [row.get(n, 0) for n in learners] for row in top]
    return (
        f'<img alt="features LIME selected most often" src="{image}">'
        + _table(header, rows, numeric=set(range(1, len(header))))
        + f'<p class="note">{_e(features_caption(len(selected)))}. '
        "<b>selected by LIME</b>: fraction of training rows whose top "
        "LIME features include it; <b>toward positive</b>: fraction of those selections "
        f"whose weight pushes toward {_e(report['dataset']['class_names'][1])}.</p>"
        + (f'<p class="note">{_e(note)}</p>'
           if (note := missing_selections_note(frequency)) else "")
    )


def _filtering(report: dict) -> str:
    if "filtering" not in report:
        return ('<p class="note">Not measured in this run: <code>python -m explain compare'
                "</code> (or <code>run --compare-views</code>) also fits both learners on "
                "the LIME-filtered rows alone and on the full rows without LIME.</p>")
    filtering = report["filtering"]
    rows = [[_learner_title(r[0]), r[1]] + [fmt(v) for v in r[2:]] for r in view_rows(filtering)]
    header = ["learner", "trained on"] + [t for _, t in VIEW_KEYS]
    table = _table(header, rows, numeric=set(range(2, len(header))))
    image = filtering_plot(filtering)
    note = views_note(filtering)
    if note:
        table = f'<p class="note">{_e(note)}</p>{table}'
    return (
        f'{table}<img alt="fidelity for each training view" src="{image}">'
        '<p class="note">The same learners with the same settings, black box and split, '
        "trained on each view of the training rows: each row keeping only its top LIME "
        "features (the LIME-FOLD transformed dataset), those rows together with the same "
        f"rows in full, or the full rows without LIME. {_e(_sentence(VS_RUN_NOTE))}</p>"
    )


def _settings(report: dict) -> str:
    params = json.dumps(report.get("parameters", {}), indent=2, sort_keys=True)
    files = ", ".join(sorted(report.get("files", {}).values()))
    return (f'<p class="sub">Files: {_e(files or "–")}</p><details><summary>parameters'
            f"</summary><pre>{_e(params, lines=True)}</pre></details>")


_RENDER = {"summary": _summary, "metrics": _metrics, "rules": _rules,
           "agreement": _agreement, "tradeoff": _tradeoff, "features": _features,
           "filtering": _filtering, "settings": _settings}


def render_html(report: dict) -> str:
    """Render the whole report as one self-contained HTML document.

    Parameters
    ----------
    report : dict
        The run's report (as written to report.json), ideally extended by
        :func:`explain.report_details.add_details` and, for the trade-off and filtering
        sections, by :func:`explain.compare.run_compare`.

    Returns
    -------
    str
        The text of report.html: its plots inline, no external file or network access.
    """
    ds = report["dataset"]
    title = f"Surrogate rules for {visible(ds['name'])}"  # the name quoted alone
    nav = " · ".join(f'<a href="#{sid}">{_e(t)}</a>' for sid, t in SECTIONS)
    sections = "".join(
        f'<section id="{sid}"><h2>{_e(heading)}</h2>{_RENDER[sid](report)}</section>'
        for sid, heading in SECTIONS
    )
    # "a black box (xgboost)": no article to agree with the kind, which a user may name
    kind = report["black_box"]["kind"]
    kind = "" if kind == "black box" else f" ({_e(kind)})"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>"
        f"<h1>{_e(title)}</h1>"
        f'<p class="sub">Global rule surrogates of a black box{kind} predicting '
        f"<b>{_e(ds['target'])}</b> (positive class "
        f"<b>{_e(ds['positive_class'])}</b>): IMLI (MaxSAT rules) and FOLD (default rules "
        f"with exceptions).</p><p class=\"note\">{nav}</p>"
        f"{sections}</main></body></html>\n"
    )
