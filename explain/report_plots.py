"""The report's plots, drawn with matplotlib's Agg canvas into base64 PNG data URIs.

Every plot is drawn from the report dict alone (no fitted objects), on a fresh
:class:`~matplotlib.figure.Figure` (no pyplot, no global figure state). Text from user data
(feature names) is drawn literally: mathtext is off, so a ``$`` in a name stays a ``$``.
"""

from __future__ import annotations

import base64
import io
import warnings

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from explain.report_md import fmt, visible

__all__ = ["tradeoff_plot", "features_plot", "filtering_plot", "LEARNER_STYLE"]

#: Colour, marker and display name of each learner, shared by every plot.
LEARNER_STYLE = {
    "imli": ("#1f77b4", "o", "IMLI (MaxSAT)"),
    "fold": ("#d95f02", "s", "FOLD (ILP)"),
}
#: Short names of the training views (``RunConfig.train_view``) for plot labels.
VIEW_SHORT = {"lime": "LIME rows", "lime+raw": "LIME + full", "raw": "full rows"}
_RC = {"text.parse_math": False, "font.size": 9, "axes.spines.top": False,
       "axes.spines.right": False}


def _data_uri(fig: Figure) -> str:
    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # a feature name in a script the font lacks (emoji, CJK) draws as a box; the
        # report's tables give the name in full
        warnings.filterwarnings("ignore", message="Glyph .* missing from font",
                                category=UserWarning)
        fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight",
                    metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def tradeoff_plot(sweep: dict, run_learners: dict | None = None) -> str:
    """Fidelity (raw test rows) against rule size for every sweep point, fronts marked.

    Parameters
    ----------
    sweep : dict
        ``report["sweep"]`` (see :func:`explain.compare.sweep`).
    run_learners : dict, optional
        ``report["learners"]``: the run's own settings, drawn as stars.

    Returns
    -------
    str
        A ``data:image/png;base64,...`` URI.
    """
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(7.0, 4.2))
        ax = fig.add_subplot()
        for name in _ordered(sweep["learners"]):
            points = sweep["learners"][name]
            colour, marker, label = LEARNER_STYLE.get(name, ("#555555", "^", name))
            xs = [p["rule_size"] for p in points]
            ys = [p["fidelity_test"] for p in points]
            ax.scatter(xs, ys, color=colour, marker=marker, alpha=0.35, s=28,
                       label=f"{label}: settings")
            front = sorted((p["rule_size"], p["fidelity_test"]) for p in points if p["pareto"])
            if front:
                fx, fy = zip(*front)
                ax.step(fx, fy, where="post", color=colour, linewidth=1.6)
                ax.scatter(fx, fy, color=colour, marker=marker, s=46, edgecolor="black",
                           linewidth=0.6, label=f"{label}: Pareto front of the sweep", zorder=3)
            if run_learners and name in run_learners:
                entry = run_learners[name]
                ax.scatter([entry["rule_size"]], [entry["fidelity_test"]], marker="*",
                           s=170, color=colour, edgecolor="black", linewidth=0.6, zorder=4,
                           label=f"{label}: this run")
        ax.set_xlabel("rule size (literals)")
        ax.set_ylabel("fidelity to the black box (raw test rows)")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=8,
                  frameon=False)
        return _data_uri(fig)


def features_plot(frequency: list[dict], learners: list[str], top: int = 15) -> str:
    """Horizontal bars: how often LIME selected each of its ``top`` most selected features.

    These are the features of the reports' table; one never selected is not drawn.

    Each bar is coloured by which rule sets test the feature (IMLI, FOLD, both, neither).

    Parameters
    ----------
    frequency : list of dict
        ``report["lime"]["feature_frequency"]``, most selected first.
    learners : list of str
        The learners of the run.
    top : int, default=15
        Most bars.

    Returns
    -------
    str
        A ``data:image/png;base64,...`` URI.
    """
    rows = [row for row in frequency if row["selected"]][:top][::-1]
    colours = {"both": "#7570b3", "imli": LEARNER_STYLE["imli"][0],
               "fold": LEARNER_STYLE["fold"][0], "neither": "#bbbbbb"}
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(7.0, 0.5 + 0.28 * max(len(rows), 1)))
        ax = fig.add_subplot()
        kinds = []
        for row in rows:
            used = [name for name in ("imli", "fold") if name in learners and row.get(name)]
            kinds.append("both" if len(used) == 2 else used[0] if used else "neither")
        ax.barh(range(len(rows)), [row["rate"] for row in rows],
                color=[colours[k] for k in kinds])
        ax.set_yticks(range(len(rows)), [_short(row["feature"]) for row in rows])
        ax.set_xlabel("fraction of training rows whose top LIME features include it")
        ax.set_xlim(0, 1)
        for kind in ("imli", "fold", "both", "neither"):
            if kind in kinds:
                text = {"imli": "in IMLI's rules only", "fold": "in FOLD's rules only",
                        "both": "in both rule sets", "neither": "in neither"}[kind]
                ax.barh([0], [0], color=colours[kind], label=text)
        if kinds:  # no bar, no legend (matplotlib warns of an empty one)
            ax.legend(loc="upper center",
                      bbox_to_anchor=(0.5, -0.5 / max(len(rows), 2) - 0.12),
                      ncol=4, fontsize=8, frameon=False)
        ax.grid(axis="x", alpha=0.3)
        return _data_uri(fig)


def filtering_plot(filtering: dict) -> str:
    """Grouped bars: each learner's test fidelity for each training view.

    Parameters
    ----------
    filtering : dict
        ``report["filtering"]`` (see :func:`explain.compare.view_comparison`).

    Returns
    -------
    str
        A ``data:image/png;base64,...`` URI.
    """
    names = _ordered(filtering["learners"])
    views = filtering["views"]
    shades = np.linspace(1.0, 0.35, len(views)) if len(views) > 1 else [1.0]
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(5.4, 2.8))
        ax = fig.add_subplot()
        width = 0.8 / len(views)
        for j, (view, shade) in enumerate(zip(views, shades)):
            offset = (j - (len(views) - 1) / 2) * width
            values = [filtering["learners"][n][view].get("fidelity_test") or 0.0 for n in names]
            colours = [LEARNER_STYLE.get(n, ("#555555",))[0] for n in names]
            bars = ax.bar([i + offset for i in range(len(names))], values, width,
                          color=colours, alpha=float(shade), edgecolor="black", linewidth=0.4)
            for bar, value in zip(bars, values):
                x = bar.get_x() + bar.get_width() / 2
                ax.text(x, value + 0.01, fmt(value), ha="center", va="bottom", fontsize=7)
                ax.text(x, 0.03, VIEW_SHORT.get(view, view), ha="center", va="bottom",
                        fontsize=7, rotation=90, color="white" if shade > 0.6 else "black")
        ax.set_xticks(range(len(names)), [LEARNER_STYLE.get(n, (0, 0, n))[2] for n in names])
        ax.set_ylim(0, 1.1)
        ax.set_ylabel("fidelity (raw test rows)")
        return _data_uri(fig)


def _ordered(learners: dict) -> list[str]:
    """Learner names with IMLI and FOLD first, whatever the dict's (JSON-sorted) order."""
    return sorted(learners, key=lambda n: (list(LEARNER_STYLE).index(n)
                                          if n in LEARNER_STYLE else len(LEARNER_STYLE), n))


def _short(name: str, width: int = 38) -> str:
    """``name`` as the reports' text shows it (a control or direction mark escaped,
    :func:`explain.report_md.visible`), cut to ``width`` characters."""
    name = visible(name)
    return name if len(name) <= width else name[: width - 1] + "…"
