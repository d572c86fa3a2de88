"""Every face of a step follows its declaration (termeval/steps, termeval/core/declaration.py):
the shell step's configuration section and its header's "default X" equal the declared defaults
(the shell passes every option to the Python step, whose Options check it: a shell default that
drifted would silently change a number); every declared step has its entry point, its line in
`termeval --help`, its API function with the declared options; the option checks are the
Options' only (no shell step repeats one)."""
from __future__ import annotations

import dataclasses
import inspect
import os
import re

import pytest

import termeval
from termeval.command import help_text
from termeval.core.options import flag_of
from termeval.steps import STEPS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHELL = {name: s for name, s in STEPS.items() if s.shell and s.shell.endswith(".sh")}
# shell variables that are not options of the Python step: the launcher; prepare_gold.sh's
# --validate (it runs utils/validate_alignment_dir.sh after), summarize_scores.sh's --output (the
# old name of --out)
SHELL_ONLY = {"cmd", "validate", "output"}


def shell_text(step) -> str:
    with open(os.path.join(ROOT, step.shell), encoding="utf-8") as f:
        return f.read()


def config_section(text: str) -> dict[str, str]:
    """name=value of the script's configuration section (parse_options.sh's options)."""
    body = text.split("# Begin configuration section.", 1)[1].split("# End configuration section.", 1)[0]
    out = {}
    for line in body.splitlines():
        m = re.fullmatch(r"\s*([a-z_][a-z0-9_]*)=(.*?)\s*(#.*)?", line)
        if m:
            out[m.group(1)] = m.group(2).strip('"')
    return out


def shell_name(f: dataclasses.Field) -> str:
    return flag_of(f)[2:].replace("-", "_")


def as_shell(value) -> str:
    """A declared default as the shell's configuration section writes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def same(shell: str, declared) -> bool:
    if shell == as_shell(declared):
        return True
    try:
        return isinstance(declared, (int, float)) and not isinstance(declared, bool) and float(shell) == declared
    except ValueError:
        return False


def declared_options(step) -> dict[str, dataclasses.Field]:
    return {shell_name(f): f for f in step.fields()
            if f.metadata.get("cli", True) and not f.metadata.get("positional") and not f.metadata.get("hidden")}


@pytest.mark.parametrize("name", sorted(SHELL))
def test_shell_defaults_are_the_declared_ones(name):
    step = SHELL[name]
    config = config_section(shell_text(step))
    options = declared_options(step)
    unknown = sorted(set(config) - set(options) - SHELL_ONLY)
    assert unknown == [], f"{step.shell}: options the step does not declare"
    wrong = {k: (v, as_shell(options[k].default)) for k, v in config.items()
             if k in options and not same(v, options[k].default)}
    assert wrong == {}, f"{step.shell}: (shell default, declared default)"


def header_defaults(text: str) -> dict[str, str]:
    """The defaults the header states: `--name <...> # default X`, `--name <...> # (X) what it
    is`, or, under "Options (default):", `--name X   what it is` (X may be "" or a compound
    `--a 1 --b 2` line)."""
    head = text.split("\n\n", 1)[0] if not text.startswith("#!") else text.split("\n. ", 1)[0]
    out = {}
    table = False
    for line in head.splitlines():
        if re.match(r"#\s*Options \(default\):", line):
            table = True
        m = re.match(r"#\s{1,3}(--[a-z][a-z0-9-]*)\b(.*)", line)     # not a continuation line
        if not m:
            continue
        d = re.search(r"#\s*default (\S+)", m.group(2))
        paren = re.search(r"#\s*\((\"[^\"]*\"|'[^']*'|[^ ()]*)\)", m.group(2))
        if d:
            out[m.group(1)] = d.group(1).rstrip(";,:)")
        elif paren:
            out[m.group(1)] = paren.group(1).strip("'")
        elif table:       # the leading `--flag VALUE [--flag VALUE ...]` of the line
            rest = line[1:].strip()
            while (p := re.match(r'(--[a-z][a-z0-9-]*) ("[^"]*"|\S+)( (?=--))?', rest)) is not None:
                if not re.fullmatch(r"[A-Z]+|<.*>", p.group(2)):
                    out[p.group(1)] = p.group(2)
                if not p.group(3):            # two spaces: what the option is, not another option
                    break
                rest = rest[p.end():]
    return {k: v.strip('"') for k, v in out.items()}


@pytest.mark.parametrize("name", sorted(SHELL))
def test_shell_header_defaults_are_the_declared_ones(name):
    step = SHELL[name]
    stated = header_defaults(shell_text(step))
    options = {flag_of(f): f for f in declared_options(step).values()}
    # a declared None is "not given" (the step then uses what the header may state: --lambda's 0.1)
    wrong = {k: (v, as_shell(options[k].default)) for k, v in stated.items()
             if k in options and options[k].default is not None and not same(v, options[k].default)
             and not v.startswith(("$", "<"))}
    assert wrong == {}, f"{step.shell}: (header's default, declared default)"


# the shell's own checks that the Options hold: te_check_choice/te_check_int/te_check_bootstrap
# of an option, and regex checks of an option's value
REPEATED = re.compile(r"te_check_(choice|int|bootstrap|bool)\b|\[\[ \"\$(?!data|dir)[a-z_]+\" =~")


def test_the_report_options_the_shell_leaves_out_are_the_declared_defaults():
    """utils/termeval_lib.sh te_report_options passes --report/--report-files/--textgrids only when
    they differ from their defaults (the recorded command stays as it was): those it compares to
    are ReportOptions' declared ones."""
    from termeval.core.options import ReportOptions
    with open(os.path.join(ROOT, "utils/termeval_lib.sh"), encoding="utf-8") as f:
        lib = f.read()
    body = lib[lib.index("te_report_options() {"):]
    body = body[:body.index("\n}")]
    compared = dict(re.findall(r'\[ "\$(\w+)" = (\S+) \]', body))
    declared = {f.name: f.default for f in dataclasses.fields(ReportOptions) if f.name in compared}
    assert set(compared) == {"report", "report_files", "textgrids"}
    assert compared == {k: as_shell(v) for k, v in declared.items()}


@pytest.mark.parametrize("name", sorted(SHELL))
def test_no_shell_step_repeats_an_option_check(name):
    body = shell_text(SHELL[name]).split("# End configuration section.", 1)[-1]
    assert [ln.strip() for ln in body.splitlines() if REPEATED.search(ln)] == []


@pytest.mark.parametrize("name", sorted(STEPS))
def test_every_step_has_its_entry_point_command_and_api(name):
    step = STEPS[name]
    assert os.path.isfile(os.path.join(ROOT, "termeval", "bin", f"{name}.py"))
    assert f"  {step.command}  " in help_text() or f"  {step.command} " in help_text()
    if step.shell:
        assert os.path.isfile(os.path.join(ROOT, step.shell))
    if step.api:
        fn = getattr(termeval, name)
        params = inspect.signature(fn).parameters
        want = [f.name for f in step.fields() if f.metadata.get("cli", True) and not f.metadata.get("positional")
                and not f.metadata.get("hidden") and f.metadata.get("api", True)]
        assert [n for n in want if n not in params] == [], "declared options missing from the API"
        assert fn.__doc__.startswith(step.summary)


# ----------------------------------------------------------------------------- the docs' lists
# (issue 40 item 20: lists of steps that drifted; each is tested against the declaration)

def doc(name: str) -> str:
    with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
        return f.read()


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    nxt = re.search(r"^#{1,3} ", text[start + len(heading):], re.M)
    return text[start:start + len(heading) + (nxt.start() if nxt else len(text))]


def test_docs_api_lists_every_command_and_function():
    text = doc("api.md")
    commands = section(text, "## The `termeval` command")
    assert [s.command for s in STEPS.values() if f"`{s.command}`" not in commands] == []
    intro = text.split("\n\n", 2)[1]
    assert [n for n, s in STEPS.items() if s.api and f"`{n}`" not in intro] == []


def test_docs_recipe_layout_lists_every_script():
    layout = section(doc("recipe.md"), "## 1. Recipe layout")
    scripts = [f for d in ("steps", "utils") for f in os.listdir(os.path.join(ROOT, d))
               if os.access(os.path.join(ROOT, d, f), os.X_OK) or f.endswith(".sh")]
    assert [f for f in sorted(scripts) if f"`{f}`" not in layout] == []


def test_guide_zrc_example_runs_as_written():
    """§7.2's commands: the template first (--init), then the class file, then scoring."""
    text = section(doc("guide.md"), "### 7.2")
    lines = [ln.strip() for ln in text.splitlines() if "score_zrc_submission.sh" in ln and ln.startswith("    ")
             and "<submission-dir>" not in ln]                       # the example, not the synopsis
    assert lines and "--init" in lines[0] and all("--init" not in ln for ln in lines[1:])


def test_guide_says_counts_and_their_means_as_the_score_files_print_them():
    zr = section(doc("guide.md"), "### 7.4")
    assert "print as integers." not in zr and "259.500000 [ mean over" in zr


def test_percent_is_declared_as_the_name_rule_had_it_but_for_the_ranking_means():
    """--percent scales what each measure declares (results/declared.py): the metrics the former
    name rule scaled (fscore, precision, recall, coverage, NED, their _std), but the ranking means
    it meant to leave with map (mean_r_precision: STD's was left, QUESST's quesst_ prefix slipped
    through the rule)."""
    from termeval.results.declared import MEASURES

    def name_rule(metric: str) -> bool:
        return not metric.startswith("mean_") and re.search(
            r"(fscore|precision|recall|coverage|(^|_)ned)(_std)?$", metric) is not None
    differ = {name for name, m in MEASURES.items() if m.percent != name_rule(name)}
    assert differ == {"quesst_mean_r_precision"}
