"""What the fuzz test knows of the site: every URL pattern, read from the resolver, and the
forms and links of the pages it renders.

Nothing here lists the site's URLs or fields by hand: a new URL is fuzzed as soon as it
is routed, a new field as soon as a page renders it (or a link carries it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urljoin, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.regex_helper import normalize


@dataclass(frozen=True)
class Pattern:
    """One routed URL: ``fmt`` % {param: value} is its path without the leading slash."""

    fmt: str
    params: tuple[str, ...]
    name: str  # namespaced (games:table), or the view's dotted path when unnamed
    regex: str  # the whole path's, as the resolver matches it (no leading slash)

    @property
    def is_admin(self) -> bool:
        return self.fmt.startswith("admin/")

    def path(self, values: dict[str, str]) -> str:
        return "/" + self.fmt % values


def pattern_of(path: str, patterns: list[Pattern]) -> Pattern | None:
    """The pattern the resolver would take for ``path`` (the first that matches)."""
    for pattern in patterns:
        if re.match(pattern.regex, path.removeprefix("/")):
            return pattern
    return None


def url_patterns() -> list[Pattern]:
    """Every URL pattern of the root URLconf, in order, with its parameters."""
    found: list[Pattern] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for entry in patterns:
            regex = entry.pattern.regex.pattern.removeprefix("^")
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                walk(entry.url_patterns, prefix + regex, inner)
            elif isinstance(entry, URLPattern):
                fmt, params = normalize(prefix + regex)[0]
                name = f"{namespace}{entry.name}" if entry.name else entry.lookup_str
                found.append(Pattern(fmt, tuple(params), name, prefix + regex))

    walk(get_resolver().url_patterns, "", "")
    return found


# ---------------------------------------------------------------------------------------
# Pages


@dataclass
class Form:
    """A form as a browser would submit it: ``fields`` are the successful controls with
    their values (the first submit button's name and value included)."""

    method: str
    action: str  # an absolute path, with its query string if any
    fields: list[tuple[str, str]] = field(default_factory=list)
    choices: dict[str, list[str]] = field(default_factory=dict)  # select, radio, checkbox
    htmx: bool = False
    _submit_taken: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted({name for name, _value in self.fields}))


@dataclass
class Page:
    forms: list[Form] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # absolute paths with query strings
    # Query parameters that htmx sends from a named control (hx-get on a select):
    # path -> names.
    hx_gets: list[tuple[str, str]] = field(default_factory=list)


class _PageParser(HTMLParser):
    def __init__(self, base: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base = base
        self.page = Page()
        self.form: Form | None = None
        self.select: tuple[str, list[str], list[str], bool] | None = None
        self.textarea: tuple[str, list[str]] | None = None

    def _url(self, href: str | None) -> str | None:
        if not href or href.startswith(("#", "mailto:", "javascript:", "data:")):
            return None
        url = urljoin(self.base, href)
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver"):
            return None
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: (value or "") for key, value in attrs}
        if "hx-get" in a and a.get("name") and (url := self._url(a["hx-get"])):
            self.page.hx_gets.append((url, a["name"]))
        if tag == "a" and (url := self._url(a.get("href"))):
            self.page.links.append(url)
        if tag == "form":
            action = a.get("action") or a.get("hx-post") or a.get("hx-get") or self.base
            method = "post" if "hx-post" in a else (a.get("method") or "get").lower()
            self.form = Form(method, self._url(action) or self.base, htmx="hx-post" in a)
            self.page.forms.append(self.form)
            return
        if self.form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                self.form.choices.setdefault(name, []).append(a.get("value") or "on")
                if "checked" in a:
                    self.form.fields.append((name, a.get("value") or "on"))
            elif kind in ("submit", "image"):
                self._submit(name, a.get("value", ""))
            elif kind not in ("button", "reset", "file"):
                self.form.fields.append((name, a.get("value", "")))
        elif tag == "button" and name and a.get("type", "submit").lower() == "submit":
            self._submit(name, a.get("value", ""))
        elif tag == "select" and name:
            self.select = (name, [], [], "multiple" in a)
        elif tag == "option" and self.select is not None:
            value = a.get("value")
            self.select[1].append(value if value is not None else "")
            if "selected" in a:
                self.select[2].append(self.select[1][-1])
        elif tag == "textarea" and name:
            self.textarea = (name, [])

    def _submit(self, name: str, value: str) -> None:
        if not self.form._submit_taken:
            self.form._submit_taken = True
            self.form.fields.append((name, value))

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select" and self.select is not None and self.form is not None:
            name, options, selected, multiple = self.select
            self.form.choices[name] = options
            chosen = selected if (selected and multiple) else (selected or options)[:1]
            self.form.fields.extend((name, value) for value in chosen)
            self.select = None
        elif tag == "textarea" and self.textarea is not None and self.form is not None:
            name, text = self.textarea
            self.form.fields.append((name, "".join(text).removeprefix("\n")))
            self.textarea = None


def parse_page(html: str, base: str) -> Page:
    parser = _PageParser(base)
    parser.feed(html)
    parser.close()
    return parser.page


def query_names(url: str) -> list[str]:
    return [name for name, _value in parse_qsl(urlsplit(url).query, keep_blank_values=True)]
