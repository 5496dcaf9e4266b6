"""The project's files agree with each other: environment.yml lists what pyproject.toml does."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _name(req: str) -> str:
    return re.split(r"[<>=!\[ ;]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_names() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    proj = data["project"]
    names = {_name(r) for r in proj["dependencies"]}
    for extra, reqs in proj["optional-dependencies"].items():
        names |= {_name(r) for r in reqs if not r.startswith("rumino")}
    return names


def _environment_names() -> set[str]:
    names = set()
    for line in (ROOT / "environment.yml").read_text().splitlines():
        m = re.match(r"^\s*-\s+(?!-e)([A-Za-z0-9_.\-]+)", line)
        if m and m.group(1) not in ("python", "pip", "conda-forge"):
            names.add(_name(m.group(1)))
    return names


def test_environment_yml_lists_the_same_packages_as_pyproject():
    py, env = _pyproject_names(), _environment_names()
    # conda splits dask[distributed] into dask + distributed
    env.discard("distributed")
    assert py == env, f"only in pyproject: {sorted(py - env)}; only in environment.yml: {sorted(env - py)}"


def _extras_named(req: str) -> set[str]:
    """The extras a self-reference names: ``rumino[book,test]`` → {"book", "test"}."""
    m = re.fullmatch(r"rumino\[([\w,\s-]+)\]", req.strip())
    return {e.strip() for e in m.group(1).split(",")} if m else set()


def test_dask_is_an_optional_extra_that_all_and_test_include():
    proj = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = proj["optional-dependencies"]
    assert [_name(r) for r in extras["dask"]] == ["dask"] and "[distributed]" in extras["dask"][0]
    assert "dask" not in {_name(r) for r in proj["dependencies"]}, "a single machine needs no Dask"
    assert {"book", "test", "oracles", "dask"} <= set().union(*map(_extras_named, extras["all"]))
    assert "dask" in set().union(*map(_extras_named, extras["test"])), "the Dask tests need the extra"
    assert "dask" in _extras_named("rumino[book, dask]") and not _extras_named("dask[distributed]")


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m pytest" in readme and "python -m pytest" in ci
    assert "../shared" not in ci and "shared/" not in ci


def test_readme_quickstart_keeps_its_commands_and_git_ignores_its_venv():
    quick = (ROOT / "README.md").read_text().split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    for command in ('pip install -e ".[book]" && rumino book build', "bash .ci/run",
                    "python3 -m venv .venv && . .venv/bin/activate", "conda env create -f environment.yml",
                    'pip install -e ".[dask]"'):
        assert command in quick, command
    assert ".venv/" in (ROOT / ".gitignore").read_text().splitlines()


def test_nothing_reads_the_shared_folder():
    for path in ROOT.rglob("*.py"):
        if "_build" in path.parts or ".venv" in path.parts or path.name == "test_packaging.py":  # README's venv
            continue
        assert "../shared" not in path.read_text(errors="ignore"), path


def test_readme_python_example_runs_and_says_what_its_comment_says():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    scope: dict = {}
    exec(compile(block, "README.md", "exec"), scope)
    assert scope["min_deadwood"](scope["parse_hand"]("JK JK 5h 9c 9d 9s 2c"), scope["house"].meld_rules) == 2
    assert scope["game"].game_over


def test_readme_cli_example_is_what_the_cli_prints(capsys):
    from rumino.cli import main

    readme = (ROOT / "README.md").read_text()
    shown = re.search(r'\$ rumino deadwood "7h 8h 9h 10h 5c 5d 5s" --variant rumino\n(.*?)```', readme, re.S).group(1)
    assert main(["deadwood", "7h 8h 9h 10h 5c 5d 5s", "--variant", "rumino"]) == 0
    assert capsys.readouterr().out == shown


def test_the_install_puts_only_the_projects_own_names_into_site_packages():
    """No generic top-level package (such as a plain ``widgets``) that another project could shadow."""
    import importlib.metadata
    import importlib.util

    tops = set(importlib.metadata.distribution("rumino").read_text("top_level.txt").split())
    assert tops == {"rumino", "rumino_widgets"}
    assert importlib.util.find_spec("rumino_widgets").origin.endswith("widgets/rumino_widgets/__init__.py")


def test_pyproject_names_its_license_authors_keywords_and_documentation():
    """An SPDX license expression (PEP 639; the table form stops building in 2027) and no license classifier
    beside it, the authors as the LICENSE names them, keywords, and where the documentation is."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    proj = data["project"]
    assert proj["license"] == "MIT" and proj["license-files"] == ["LICENSE"]
    assert not [c for c in proj["classifiers"] if c.startswith("License ::")]
    assert any(r.startswith("setuptools>=") and int(r.split(">=")[1]) >= 77 for r in data["build-system"]["requires"])
    assert proj["authors"] and proj["authors"][0]["name"].lower() in (ROOT / "LICENSE").read_text().lower()
    assert "rummy" in proj["keywords"] and "Documentation" in proj["urls"]


def _readme_section(title: str) -> str:
    return (ROOT / "README.md").read_text().split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_the_readme_layout_lists_every_folder():
    layout = _readme_section("Layout")
    folders = [p for p in (ROOT / "rumino").iterdir() if p.is_dir() and (p / "__init__.py").is_file()]
    assert len(folders) >= 12
    for folder in folders:
        assert f"`rumino/{folder.name}/`" in layout, folder.name
    for top in ("rumino", "widgets", "book", "tests", "bench", "docs", ".ci"):
        assert f"`{top}/`" in layout, top
    for module in (ROOT / "rumino").glob("*.py"):  # the top level's own modules
        assert f"`{module.name}`" in layout or module.name == "__init__.py", module.name


def test_the_readme_lists_every_command_and_keeps_no_timings():
    from rumino.cli import COMMANDS

    commands = _readme_section("The commands")
    for name in COMMANDS:
        assert f"`rumino {name}" in commands, name
    readme = (ROOT / "README.md").read_text()
    # how the project was built and how long things took belong in CHANGELOG.md and bench/README.md
    timing = re.compile(r"\bsession \d+|\d[\d,.]* +(ms|s|min|minutes|seconds|CPU-s)\b")  # '5s' is a card
    assert not timing.search(readme), readme[timing.search(readme).start() - 40:][:80]
