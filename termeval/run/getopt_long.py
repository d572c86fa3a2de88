"""Perl's Getopt::Long, as a NIST tool configures it (`auto_abbrev no_ignore_case`, no bundling,
permute): the command-line face of `utils/KWSEval` (termeval/bin/kwseval.py).

Rules (Getopt::Long 2.5x FindOption, re-derived):
- an option starts with `-` or `--` (the same for long names: `-csv` = `--csv`); `--` ends the
  options; `-` alone and every other word is an argument, wherever it stands (permute);
- `name=value` gives the value in the same word;
- a name is looked up exactly, else as a unique prefix of the names (case counts: `-o` is
  `osummary-report`, `-O` `Osummary-conditional-report`); a prefix of several names of one
  option (`sysfile|stdfile`) is that option; of several options it is an error
  `Option i is ambiguous (include-blocks-w-notargs, iso-lines)` (names in sorted order);
- `=s` takes the next word whatever it is (`-f -`), `=f` a number (else `Value "x" invalid for
  option p (number expected)`), `:s` the next word unless it looks like an option; a missing
  value is `Option f requires an argument`; a flag given a value `Option o does not take an
  argument`; an unknown name `Unknown option: zz`. Every such line is printed as Perl's `warn`
  does (stderr) and parsing goes on; the caller then fails once (`GetOptions` returned false).
- `@` options collect every value in order; the others keep the last.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

# Getopt::Long's PAT_FLOAT (an integer is a number too)
_FLOAT = re.compile(r"[-+]?(?=[0-9.])[0-9_]*(\.[0-9_]+)?([eE][-+]?[0-9_]+)?\Z")
MAX_ARGS = 100_000


class Number(float):
    """A number option's value; `text` is the argument as given (Perl keeps and prints it so)."""
    text: str = ""


def _number(arg: str) -> Number:
    n = Number(float(arg.replace("_", "")))
    n.text = arg
    return n


@dataclass(frozen=True)
class Spec:
    """One Getopt::Long option: its names (`sysfile|stdfile`), type ('' flag, 's' string, 'f'
    number, ':s' optional string) and whether it collects values (`@`)."""
    names: tuple[str, ...]
    type: str = ""
    many: bool = False

    @property
    def key(self) -> str:
        return self.names[0]


def spec(text: str) -> Spec:
    """`'sysfile|stdfile=s'`, `'query=s@'`, `'iso-lines:s'`, `'det-curve'` -> Spec."""
    m = re.fullmatch(r"([A-Za-z0-9_|-]+)(?:([=:])([sf])(@?))?", text)
    if m is None:
        raise ValueError(f"bad option spec {text!r}")
    kind = "" if m.group(2) is None else (m.group(3) if m.group(2) == "=" else ":" + m.group(3))
    return Spec(tuple(m.group(1).split("|")), kind, bool(m.group(4)))


@dataclass
class Parsed:
    values: dict            # key -> value (last one) or list of values (`@`); flags: count
    args: list[str]         # the words that are not options, in order
    errors: list[str]       # Getopt::Long's warning lines


def _lookup(specs: Sequence[Spec], name: str) -> tuple[Spec | None, str | None]:
    """(the option, None) or (None, the error line)."""
    table = {n: s for s in specs for n in s.names}
    if name in table:
        return table[name], None
    hits = sorted(n for n in table if n.startswith(name))
    options = {table[n].key for n in hits}
    if len(options) == 1:
        return table[hits[0]], None
    if not hits:
        return None, f"Unknown option: {name}"
    return None, f"Option {name} is ambiguous ({', '.join(hits)})"


def _value(sp: Spec, name: str, inline: str | None, rest: list[str]) -> tuple[bool, object, str | None]:
    """(ok, value, error) of option `sp` given as `name`; takes its word from `rest`."""
    if sp.type == "":
        if inline is not None:
            return False, None, f"Option {name} does not take an argument"
        return True, 1, None
    if sp.type == ":s":
        if inline is not None:
            return True, inline, None
        if rest and rest[0] != "--" and not (rest[0].startswith("-") and len(rest[0]) > 1):
            return True, rest.pop(0), None
        return True, "", None
    if inline is None:
        if not rest:
            return False, None, f"Option {name} requires an argument"
        arg = rest.pop(0)
    else:
        arg = inline
    if sp.type == "f" and not _FLOAT.match(arg):
        if inline is None:
            rest.insert(0, arg)          # pushed back, as Getopt::Long does
        return False, None, f'Value "{arg}" invalid for option {name} (number expected)'
    return True, (_number(arg) if sp.type == "f" else arg), None


def getoptions(specs: Sequence[Spec], argv: Sequence[str]) -> Parsed:
    """Parse `argv` as Getopt::Long(auto_abbrev, no_ignore_case) does with these options."""
    if len(argv) > MAX_ARGS:
        return Parsed({}, [], [f"more than {MAX_ARGS} arguments"])
    rest = list(argv)
    out = Parsed({s.key: ([] if s.many else None) for s in specs}, [], [])
    while rest:
        word = rest.pop(0)
        if word == "--":
            out.args += rest
            break
        if not word.startswith("-") or word == "-":
            out.args.append(word)
            continue
        body = word[2:] if word.startswith("--") else word[1:]
        name, eq, inline = body.partition("=")
        sp, err = _lookup(specs, name)
        if sp is not None:
            ok, val, err = _value(sp, name, inline if eq else None, rest)
            if ok:
                if sp.many:
                    out.values[sp.key].append(val)
                elif sp.type == "":
                    out.values[sp.key] = 1
                else:
                    out.values[sp.key] = val
        if err:
            out.errors.append(err)
    return out
