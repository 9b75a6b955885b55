"""Turning Python values into Prolog source text, safely.

Every feature name, category value and class label that reaches SWI-Prolog goes
through :func:`quote_atom` (text) or :func:`format_number` (numbers); nothing
from user data is ever spliced into Prolog source by any other route.
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np

__all__ = ["quote_atom", "format_number", "format_numbers", "format_term", "number_text",
           "readable"]

_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
}


def _escape_char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        raise ValueError(
            f"text contains the lone surrogate code point U+{code:04X}, which "
            "SWI-Prolog cannot represent; clean the names and values of your table"
        )
    if ch == " " or ch.isprintable():
        return ch
    if code > 0xFFFF:
        # SWI-Prolog misreads "\\xD8000\\"-style escapes; "\\U" takes 8 hex digits.
        return f"\\U{code:08X}"
    # ISO escape: backslash, x, hex digits, closing backslash.
    return f"\\x{code:x}\\"


_AMBIGUOUS = re.compile(r"(?i)(?:^|\s)(?:and|or|not|is|unless|if|then|else|otherwise)(?:\s|$)"
                        r"|[<>=!,{}]|^\s|\s$|^$|^['\"]|['\"]$")


#: The zero-width joiners inside Persian words and emoji sequences, which print as part
#: of their neighbours.
_JOINERS = re.compile("[\u200c\u200d]")
#: Text Python reads as a number (what a reader of a rule would take for one).
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)", re.IGNORECASE)


def readable(text: object, name: bool = False) -> str:
    r"""A name or value from the data as rule text shows it: as is, or quoted.

    Text that could be misread as part of a rule (an operator, a word such as ``and`` /
    ``or`` / ``not`` / ``unless`` or the ``is`` that joins a feature to its value in an
    explanation, a bracket without its pair, which would close or open a
    group of exceptions (``w)`` ends ``unless (`` early; ``width (cm)`` is as is), the
    ``,``, ``{`` or ``}`` of a set of categories, spaces
    or quote marks at its ends, nothing at all) or
    that holds characters that do not print (line breaks, control characters, invisible
    format characters such as the right-to-left override U+202E, which reorders what
    follows it on screen; not the joiners of Persian words and emoji, U+200C and U+200D)
    is shown as a Python string literal, quoted and escaped. So is a column ``name`` that
    reads as a number (``'1' <= 0.5``, not ``1 <= 0.5``).

    Examples
    --------
    >>> readable("no checking"), readable("b AND x > 5"), readable("x\u202eb")
    ('no checking', "'b AND x > 5'", "'x\\u202eb'")
    >>> readable("width (cm)"), readable("w)")
    ('width (cm)', "'w)'")
    >>> readable("1"), readable("1", name=True), readable("1e5", name=True)
    ('1', "'1'", "'1e5'")
    """
    text = str(text)
    if (_JOINERS.sub("", text).isprintable() and not _AMBIGUOUS.search(text)
            and _paired(text) and not (name and _NUMBER.fullmatch(text))):
        return text
    return repr(text)


def _paired(text: str) -> bool:
    """Whether each ``)`` of ``text`` closes a ``(`` before it and each ``(`` is closed."""
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def quote_atom(text: str) -> str:
    """Write ``text`` as a single-quoted Prolog atom.

    The result always reads back, in SWI-Prolog, as the atom whose name is
    exactly ``text`` — whatever characters ``text`` holds (quotes, backslashes,
    newlines, ``%``, ``)``, uppercase or ``_`` starts, digits, non-ASCII).

    Parameters
    ----------
    text : str
        Any text (no lone surrogate code points).

    Returns
    -------
    str
        The quoted atom, for example ``'a\\'b'`` for ``a'b``.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.
    ValueError
        If ``text`` holds a lone surrogate code point.

    Examples
    --------
    >>> quote_atom("fly")
    "'fly'"
    >>> quote_atom("a'b")
    "'a\\\\'b'"
    """
    if not isinstance(text, str):
        raise TypeError(f"quote_atom expects str, got {type(text).__name__}")
    if text.isascii() and text.isalnum():
        return f"'{text}'"
    return "'" + "".join(_escape_char(ch) for ch in text) + "'"


def number_text(value: float) -> str:
    """A number as rules, explanations and Prolog facts show it, exactly: a whole number
    below 1e16 as an integer (``30``, not ``30.0``), any other in the fewest digits that
    read back as it (:func:`repr`).

    >>> number_text(30.0), number_text(7073.5), number_text(0.30000001), number_text(1e16)
    ('30', '7073.5', '0.30000001', '1e+16')
    """
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)


def format_number(value: numbers.Real) -> str:
    """Write a finite number as a Prolog number literal, at full precision.

    Integers, and whole floats below 1e16, are written as integers (``0``, as an
    explanation's words show the value, not ``0.0``: Prolog compares ``0 =< 1.5`` as
    ``0.0 =< 1.5``); other floats with :func:`repr`, the shortest text that reads back as
    the same double (:func:`number_text`).

    Parameters
    ----------
    value : int or float
        A finite real number (numpy scalars allowed).

    Returns
    -------
    str
        Prolog text that reads back as ``value`` exactly.

    Raises
    ------
    ValueError
        If ``value`` is NaN or infinite.
    TypeError
        If ``value`` is not a real number (booleans are refused).

    Examples
    --------
    >>> format_number(0.1)
    '0.1'
    >>> format_number(-3)
    '-3'
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"format_number expects a real number, got {value!r}")
    if isinstance(value, numbers.Integral):
        return str(int(value))
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"cannot write the non-finite number {value!r} to Prolog")
    return _with_mantissa_dot(number_text(value))


def _with_mantissa_dot(text: str) -> str:
    # Python may write '1e-05' or '1e+16'; SWI-Prolog reads both, but the form
    # with a mantissa dot is standard Prolog, so write '1.0e-05'.
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def format_numbers(values: np.ndarray) -> list:
    """:func:`format_number` of every float of an array, in one pass.

    Parameters
    ----------
    values : array-like of float
        Finite numbers (converted to float64).

    Returns
    -------
    list of str
        The same texts as ``[format_number(float(v)) for v in values]``.

    Raises
    ------
    ValueError
        If a value is NaN or infinite.

    Examples
    --------
    >>> format_numbers([0.1, 1e-05, -2.0])
    ['0.1', '1.0e-05', '-2']
    """
    values = np.asarray(values, dtype=np.float64)
    if not np.isfinite(values).all():
        bad = values[~np.isfinite(values)][0]
        raise ValueError(f"cannot write the non-finite number {bad!r} to Prolog")
    return [text if "e" not in text else _with_mantissa_dot(text)
            for text in map(number_text, values.tolist())]


def format_term(value: object) -> str:
    """Write a class label (or category) as a Prolog constant.

    Integers and finite floats become numbers, a float with its point (``1.0``, not
    ``1`` as :func:`format_number` writes it: a label is unified, not compared, and
    ``label(Id, 1.0)`` must hold for the class ``1.0``); everything else (``str``,
    ``bool``, other objects) becomes the quoted atom of ``str(value)``.

    Parameters
    ----------
    value : object

    Returns
    -------
    str
    """
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if isinstance(value, numbers.Integral):
            return format_number(value)
        if math.isfinite(float(value)):
            return _with_mantissa_dot(repr(float(value)))
    return quote_atom(str(value))
