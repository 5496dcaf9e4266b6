"""The book build starts a chapter's kernel again when it dies at start-up (and only then).

jupyter_client chooses a kernel's ports before the kernel binds them, so a busy machine can
take one in between; the kernel then dies before its first cell ("ZMQError: Address already
in use"). One CI run lost the whole book to that. These tests make the first start fail.
"""

from __future__ import annotations

import nbformat
import pytest
import zmq

from rumino.cli import bookbuild


def _tiny_chapter(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A tiny chapter"), nbformat.v4.new_code_cell("print(6 * 7)")]
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_kernel_that_dies_before_its_first_cell_is_started_again(tmp_path, monkeypatch):
    from nbclient import NotebookClient

    real, starts = NotebookClient.execute, []

    def flaky(self, **kw):
        starts.append(1)
        if len(starts) == 1:
            raise zmq.ZMQError(zmq.EADDRINUSE, "Address already in use")
        return real(self, **kw)

    monkeypatch.setattr(NotebookClient, "execute", flaky)
    nb, run = bookbuild.execute_chapter(_tiny_chapter(tmp_path), cwd=tmp_path, progress=False)
    assert len(starts) == 2 and run.error is None
    assert nb.cells[1].outputs[0]["text"] == "42\n"


def test_a_kernel_that_keeps_dying_is_reported_after_the_last_attempt(tmp_path, monkeypatch):
    from nbclient import NotebookClient

    starts = []

    def dead(self, **kw):
        starts.append(1)
        raise zmq.ZMQError(zmq.EADDRINUSE, "Address already in use")

    monkeypatch.setattr(NotebookClient, "execute", dead)
    with pytest.raises(zmq.ZMQError, match="Address already in use"):
        bookbuild.execute_chapter(_tiny_chapter(tmp_path), cwd=tmp_path, progress=False)
    assert len(starts) == bookbuild.KERNEL_START_ATTEMPTS


def test_a_failing_cell_is_a_chapter_error_and_is_not_run_again(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("open('ran.txt', 'a').write('x')\nraise ValueError('a real error')")]
    path = tmp_path / "bad.ipynb"
    nbformat.write(nb, path)
    _, run = bookbuild.execute_chapter(path, cwd=tmp_path, progress=False)
    assert "a real error" in run.error
    assert (tmp_path / "ran.txt").read_text() == "x"  # the cell ran once


def _chapter(tmp_path, name: str, *sources: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}"), *(nbformat.v4.new_code_cell(s) for s in sources)]
    path = tmp_path / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def _printed(nb) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


@pytest.mark.slow
def test_a_kept_kernel_runs_the_next_chapter_as_a_fresh_one_would(tmp_path):
    """One kernel for three chapters: the second sees none of the first's names and runs in its own folder;
    a chapter that fails leaves its kernel behind, and the next chapter gets a fresh one."""
    (tmp_path / "b").mkdir()
    first = _chapter(tmp_path, "first", "secret = 41", "import os; print(os.getpid())")
    second = _chapter(tmp_path / "b", "second", "print('secret' in dir())", "import os; print(os.getpid(), os.getcwd())")
    failing = _chapter(tmp_path, "failing", "import os; print(os.getpid())", "1 / 0")
    last = _chapter(tmp_path, "last", "import os; print(os.getpid())")
    with bookbuild.ChapterKernel() as kernel:
        nb1, run1 = bookbuild.execute_chapter(first, cwd=tmp_path, progress=False, kernel=kernel)
        nb2, run2 = bookbuild.execute_chapter(second, cwd=tmp_path / "b", progress=False, kernel=kernel)
        assert run1.error is None and run2.error is None
        pid = _printed(nb1).split()[0]
        assert _printed(nb2).split() == ["False", pid, str(tmp_path / "b")]  # the same kernel, forgetful
        assert [c.execution_count for c in nb2.cells if c.cell_type == "code"] == [1, 2]
        _, run3 = bookbuild.execute_chapter(failing, cwd=tmp_path, progress=False, kernel=kernel)
        assert "ZeroDivisionError" in run3.error and kernel.km is None  # never reused after a failure
        nb4, run4 = bookbuild.execute_chapter(last, cwd=tmp_path, progress=False, kernel=kernel)
        assert run4.error is None and _printed(nb4).split()[0] != pid
    assert kernel.km is None
