"""What the steps share: checks on the SDK's decoded objects, fetching URLs, test files."""

import dataclasses
import struct
import types
import typing
import urllib.request
import zlib
from datetime import datetime, timedelta, timezone

from getstream.exceptions import StreamApiException

# Times are checked loosely: a decode to the wrong epoch unit lands decades away, a slow
# machine does not.
NEAR = timedelta(days=1)

# Every step, in the order the step modules are imported and define them.
STEPS = []


def step(function):
    """Registers a step: a function of the run that raises when something is wrong."""
    STEPS.append(function)
    return function


def near_now(value, what):
    """`value` is an aware datetime within a day of now."""
    assert isinstance(value, datetime), f"{what} is {type(value).__name__} {value!r}, not a datetime"
    assert value.tzinfo is not None, f"{what} {value} has no time zone"
    assert abs(datetime.now(timezone.utc) - value) < NEAR, f"{what} {value} is not close to now"


def expect_equal(actual, expected, what):
    assert actual == expected, f"{what} is {actual!r}, expected {expected!r}"


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def fetch(url):
    """The bytes a URL serves (redirects followed, as a browser would)."""
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def fetch_status(url):
    """The HTTP status a GET of the URL ends with."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def expect_api_error(call, status, code):
    """`call()` raises the SDK's StreamApiException with Stream's status and code."""
    try:
        call()
    except StreamApiException as error:
        assert (error.status_code, error.code) == (status, code), (
            f"got status {error.status_code} code {error.code} ({error.message}), "
            f"expected status {status} code {code}"
        )
        return error
    raise AssertionError(f"no error, expected status {status} code {code}")


def check_decoded(obj):
    """Every field the SDK's model requires is there and has the type it declares."""
    problems = list(_problems(obj, type(obj).__name__))
    assert not problems, "decoded reply does not match the SDK's model: " + "; ".join(problems[:12])


def _problems(value, path):
    if dataclasses.is_dataclass(value):
        hints = typing.get_type_hints(type(value))
        for field in dataclasses.fields(value):
            required = field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
            child = getattr(value, field.name)
            if child is None:
                if required:
                    yield f"{path}.{field.name} is missing"
                continue
            yield from _type_problems(child, hints[field.name], f"{path}.{field.name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _problems(item, f"{path}[{index}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _problems(item, f"{path}[{key!r}]")


def _type_problems(value, hint, path):
    """Primitive types checked; dataclasses, lists and dicts walked into."""
    options = typing.get_args(hint) if _is_union(hint) else (hint,)
    options = tuple(option for option in options if option is not type(None))
    if len(options) != 1:
        return
    hint = options[0]
    origin = typing.get_origin(hint)
    if origin is list:
        if not isinstance(value, list):
            yield f"{path} is {type(value).__name__}, not a list"
            return
        (item_hint,) = typing.get_args(hint) or (typing.Any,)
        for index, item in enumerate(value):
            yield from _type_problems(item, item_hint, f"{path}[{index}]")
    elif origin is dict:
        if not isinstance(value, dict):
            yield f"{path} is {type(value).__name__}, not an object"
            return
        _, item_hint = typing.get_args(hint) or (str, typing.Any)
        for key, item in value.items():
            yield from _type_problems(item, item_hint, f"{path}[{key!r}]")
    elif dataclasses.is_dataclass(hint):
        if not dataclasses.is_dataclass(value):
            yield f"{path} is {type(value).__name__}, not {hint.__name__}"
            return
        yield from _problems(value, path)
    elif hint in (str, int, float, bool, datetime):
        # JSON numbers may decode as int where float is declared; bool is an int to Python.
        ok = isinstance(value, hint) or (hint is float and isinstance(value, int))
        if hint is int and isinstance(value, bool):
            ok = False
        if not ok:
            yield f"{path} is {type(value).__name__} {value!r:.60}, not {hint.__name__}"


def _is_union(hint):
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def png(width, height):
    """A real PNG (RGB, a gradient), so the server can read its size."""
    rows = b"".join(
        b"\x00" + b"".join(bytes((x * 40 % 256, y * 60 % 256, 128)) for x in range(width)) for y in range(height)
    )

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def check_activity(activity, what):
    """What every activity in a reply carries."""
    assert activity.id, f"{what} has no id"
    near_now(activity.created_at, f"{what}.created_at")
    near_now(activity.updated_at, f"{what}.updated_at")
    assert activity.user is not None, f"{what} has no user"


def page_through(fetch_page, limit_pages=10):
    """The ids of every page `fetch_page(next)` returns, following `next` until there is none."""
    ids, cursor = [], None
    for _ in range(limit_pages):
        data = fetch_page(cursor)
        check_decoded(data)
        ids.append([activity.id for activity in data.activities])
        cursor = data.next
        if not cursor:
            return ids
    raise AssertionError(f"still a next cursor after {limit_pages} pages: {ids}")
