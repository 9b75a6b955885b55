"""Texts that differ only in their Unicode form: class labels and column names.

``"café"`` can be written with ``"é"`` as one character (the composed form, NFC) or as
``"e"`` and a combining accent: the two print alike. Categories are compared in the
composed form (:func:`imli.predicates.composed`); so are class labels (two spellings are
one class) and column names (two spellings are refused at ``fit``, and a table at predict
may name a column in either).
"""

from __future__ import annotations

import unicodedata
import warnings
from collections import Counter

import numpy as np
import pandas as pd

from .predicates import composed

__all__ = ["merged_labels", "check_names", "alike_names", "named_alike"]


def merged_labels(y: np.ndarray) -> np.ndarray:
    r"""``y`` with text labels that are the same in the composed form made that form, so
    that they are one class, with a warning; a label that shares its form with no other
    stays as written.

    >>> with warnings.catch_warnings(record=True):
    ...     merged_labels(np.array(["cafe\u0301", "caf\u00e9", "tea"], dtype=object)).tolist()
    ['café', 'café', 'tea']
    """
    if y.dtype.kind not in "OU":  # no text
        return y
    texts = [t for t in pd.unique(y) if isinstance(t, str)]
    if all(t.isascii() or unicodedata.is_normalized("NFC", t) for t in texts):
        return y
    spellings: dict[str, list[str]] = {}
    for text in texts:
        spellings.setdefault(composed(text), []).append(text)
    groups = [group for group in spellings.values() if len(group) > 1]
    if not groups:
        return y
    canonical = {text: composed(text) for group in groups for text in group}
    shown = "; ".join(" = ".join(ascii(str(t)) for t in group) for group in groups)
    warnings.warn(f"y: labels {shown} (escaped, as they print alike) are the same text in "
                  "different Unicode characters (an accented letter as one character or as "
                  "a letter and an accent); each is one class, in the composed form (NFC)",
                  UserWarning, stacklevel=7)
    labels = np.array([canonical.get(v, v) if isinstance(v, str) else v for v in y.tolist()],
                      dtype=object)
    return labels.astype(y.dtype) if y.dtype.kind == "U" else labels


def check_names(columns) -> None:
    """Refuse a table whose column names (as text) repeat, or are the same text in
    different Unicode characters: they print alike, so no rule could tell them apart."""
    names = [str(c) for c in columns]
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"duplicate column names {dupes}; make them unique")
    count = Counter(composed(n) for n in names)
    same = [n for n in names if count[composed(n)] > 1]
    if same:
        raise ValueError(
            f"column names {', '.join(ascii(n) for n in same[:5])} (escaped, as they print "
            "alike) are the same text written with different Unicode characters (an "
            "accented letter as one character or as a letter and an accent); rename them")


def alike_names(columns, fitted) -> bool:
    """Whether ``columns`` are the ``fitted`` names, in order, some written in another
    Unicode form (a table at predict may name a column in either)."""
    columns = list(columns)
    return (len(columns) == len(fitted) and columns != list(fitted)
            and all(isinstance(c, str) and isinstance(f, str) and composed(c) == composed(f)
                    for c, f in zip(columns, fitted)))


def named_alike(name, names):
    """The one of ``names`` that ``name`` (a parameter naming a feature) writes in another
    Unicode form; ``name`` itself when it is one of them, or matches none.

    >>> named_alike("cafe\u0301", ["caf\u00e9", "tea"]) == "caf\u00e9"
    True
    """
    if not isinstance(name, str) or name in names:
        return name
    return next((n for n in names if isinstance(n, str) and composed(n) == composed(name)),
                name)
