"""run/cli.py parser_for builds a step's argparse parser from its Options dataclass: a `many`
positional (True: nargs "+", "*": none or more, then the default) gives a tuple whose check runs on the
whole tuple, `aliases` are more flags of one option, a `hidden` option parses but is neither
in --help nor in the Python API's signature."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from termeval.core.options import OptionError, StepOptions, option, path_value
from termeval.run.cli import options_of, parser_for


def _two_at_most(value, text=None):
    if len(value) > 2:
        raise OptionError(f"at most 2 paths, got {len(value)}")
    for x in value:
        path_value(x)


@dataclass(frozen=True, kw_only=True)
class Optional(StepOptions):
    out: str = option("R.md", "the file written", aliases=("--output", "-o"))
    legacy: str | None = option(None, "an old option", hidden=True)
    roots: tuple = option((), "the roots", positional=True, many="*", check=_two_at_most)


@dataclass(frozen=True, kw_only=True)
class Required(StepOptions):
    first: str = option(doc="one", positional=True)
    rest: tuple = option(doc="one or more", positional=True, many=True)


def parse(cls, argv):
    p = parser_for(cls, "doc", prog="t")
    return options_of(p, p.parse_args(argv))


def test_many_positional_is_a_tuple():
    assert parse(Optional, ["a", "b"]).roots == ("a", "b")
    assert parse(Optional, []).roots == ()                   # nargs "*": the default
    assert parse(Optional, ["--", "-x"]).roots == ("-x",)
    r = parse(Required, ["a", "b", "c"])
    assert (r.first, r.rest) == ("a", ("b", "c"))


def test_many_positional_required_and_checked(capsys):
    with pytest.raises(SystemExit) as e:
        parse(Required, ["a"])                               # nargs "+": at least one
    assert e.value.code == 2 and "rest" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        parse(Optional, ["a", "b", "c"])                     # the field's check, on the whole tuple
    assert e.value.code == 2
    assert "t: error: argument roots: at most 2 paths, got 3" in capsys.readouterr().err


def test_aliases_and_hidden(capsys):
    for flag in ("--out", "--output", "-o"):
        assert parse(Optional, [flag, "x.md"]).out == "x.md"
    assert parse(Optional, ["--legacy", "old"]).legacy == "old"
    with pytest.raises(SystemExit):
        parse(Optional, ["--help"])
    text = capsys.readouterr().out
    assert "--out OUT, --output OUT, -o OUT" in text and "--legacy" not in text and "roots" in text


def test_hidden_is_not_in_the_api_signature():
    import inspect

    from termeval.api import declared, typed_values
    from termeval.core.declaration import Step

    @declared(Step("f", Optional, "A test step.", task="x:y"), fixed=("roots",))
    def f(roots, **options):
        return options
    assert list(inspect.signature(f).parameters) == ["roots", "out"]
    with pytest.raises(Exception, match="unknown option 'legacy'"):
        typed_values(Optional, {"legacy": "x"}, "f")


def test_many_needs_positional():
    with pytest.raises(ValueError):
        option((), "x", many=True)
    with pytest.raises(ValueError):
        option((), "x", positional=True, many="x")
    with pytest.raises(ValueError):
        option(None, "x", many="?")                 # an optional positional: positional only
    option(None, "x", positional=True, many="?")     # zrc's submission dir, absent with --init
