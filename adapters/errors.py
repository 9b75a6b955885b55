"""The one exception type for bad input."""


class InputError(ValueError):
    """A problem with the user's data, model or arguments.

    The message is one line and tells the user what to do; the command line prints it as
    ``error: <message>`` and exits with code 2.

    Examples
    --------
    >>> raise InputError("target column 'y' not found; columns are: a, b")
    Traceback (most recent call last):
    ...
    adapters.errors.InputError: target column 'y' not found; columns are: a, b
    """


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 (``1 row``, ``2 values``).

    Examples
    --------
    >>> counted(1, "row"), counted(3, "value")
    ('1 row', '3 values')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def listing(values, limit=20):
    """Join values for an error message, quoted and cut after ``limit`` items.

    Parameters
    ----------
    values : iterable
        The values to list.
    limit : int, default=20
        How many to show before ``... (N more)``.

    Returns
    -------
    str
        For example ``'a', 'b', 'c' ... (7 more)``.

    Examples
    --------
    >>> listing(["a", "b", "c"], limit=2)
    "'a', 'b' ... (1 more)"
    """
    values = [str(v) for v in values]
    shown = ", ".join(quoted(v) for v in values[:limit])
    if len(values) > limit:
        shown += f" ... ({len(values) - limit} more)"
    return shown


def quoted(value, width=60):
    """``repr`` of ``str(value)``, cut to ``width`` characters: one line, escapes visible.

    Examples
    --------
    >>> quoted("a\\nb")
    "'a\\\\nb'"
    """
    text = repr(str(value))
    return text if len(text) <= width else text[: width - 4] + "...'"
