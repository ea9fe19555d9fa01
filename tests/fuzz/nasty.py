"""The nasty values the fuzz test sends: a curated list, the same at every run.

Each kind of value has broken something somewhere: a NUL (PostgreSQL refuses it in
text), digits that ``str.isdigit`` takes and ``int`` refuses (``²``), numbers past
Python's ``int`` parsing limit or past a 64-bit id, a lone surrogate (not UTF-8 at all),
very long strings, the wrong type (a list for a number, JSON, a float), negative and zero
ids, dates at the edge of the calendar, SQL and HTML meant to escape their context,
control and invisible characters, deep nesting. A value is text; ``encode`` turns it
into the bytes a client would send (UTF-8, a lone surrogate kept as its three bytes,
which the server then has to decode), percent-encoded for a URL or a form body.
"""

from __future__ import annotations

from urllib.parse import quote

NASTY: list[str] = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "²",
    "١٢",  # Arabic-Indic digits: isdigit() and int() take them, a database id does not
    "9" * 5000,  # past int()'s 4,300 digits
    "9223372036854775808",  # 2**63: past a BigAutoField
    "99999999999999999999999999999999",
    "-1",
    "0",
    "1.5",
    "1e309",
    "NaN",
    "true",
    "null",
    "[]",
    '{"a": 1}',
    "[" * 2000 + "]" * 2000,
    "x" * 5000,
    "\ud800",  # a lone surrogate: invalid UTF-8 once encoded
    "\u202eevil\u200b",  # right-to-left override, zero-width space
    "\r\n\t",
    "\ufeff🂡ß",
    "' OR '1'='1' --",
    "<script>alert(1)</script>",
    "%00",  # the text, not the character
    "../../../../etc/passwd",
    "9999-12-31",
    "0000-00-00",
    "2026-02-30",
]

# A shorter list for the variants that multiply (one field changed at a time): the values
# most likely to reach past validation.
SHORT: list[str] = [
    "",
    "\x00",
    "²",
    "9" * 5000,
    "9223372036854775808",
    "-1",
    "x" * 5000,
    "\ud800",
    "9999-12-31",
    "[]",
]


def encode(value: str) -> str:
    """``value`` percent-encoded as UTF-8, lone surrogates included (as a client that
    does not check would send them)."""
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def form_body(fields: list[tuple[str, str]]) -> bytes:
    """An application/x-www-form-urlencoded body of ``fields`` (a name may repeat)."""
    return "&".join(f"{encode(name)}={encode(value)}" for name, value in fields).encode()


def query_string(fields: list[tuple[str, str]]) -> str:
    return form_body(fields).decode()


# Cookie values: the shorter list, and the same as long as a session key (Django looks up
# any session cookie of 8 characters or more).
COOKIES: list[str] = [*SHORT, *(value + "k" * 32 for value in ("\x00", "²", "\ud800", "é"))]
