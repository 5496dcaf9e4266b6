"""The public API is typed: ``rumino/py.typed`` tells type checkers to trust our annotations (issue 25).

What "public" means here:

* the modules: ``rumino`` and every module under it (walked with :mod:`pkgutil`), except the
  command line (``rumino.cli``, ``rumino.__main__``), which is run, not imported;
* in each module, the names in its ``__all__`` (a module without ``__all__`` exports nothing here);
* a function among them (through ``functools.wraps`` layers: an ``lru_cache`` or a ``contextmanager``
  is checked on the function it wraps);
* a class among them: its public methods (a name without a leading underscore, and ``__init__``),
  static and class methods and property getters included, also those it inherits from rumino's
  own base classes (a private base's method is public through the class that is exported);
* each callable once, whichever module re-exports it.

Left out: what rumino does not define (a re-exported numpy or stdlib name); numba dispatchers
(compiled kernels, decorated with :func:`rumino.jit.jit` or ``numba.njit``: numba would read
annotations as its own types, so kernels stay bare); methods a dataclass generates (``__init__``,
``__eq__``, …: the fields carry the types).

Typed means: every parameter is annotated except the first ``self``/``cls`` and ``*args`` /
``**kwargs``, and so is the return (``__init__`` aside).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType
from typing import Callable, Iterator

import numba
import pytest
from numba.core.dispatcher import Dispatcher

import rumino

# public callables allowed to stay untyped: the list is empty and must stay so (a new public callable
# is typed, not added here; the mechanism stays so that the walk and the stale-name check keep working)
NOT_YET_TYPED: frozenset[str] = frozenset()


def _modules() -> Iterator[ModuleType]:
    yield rumino
    for info in pkgutil.walk_packages(rumino.__path__, "rumino."):
        if info.name.startswith("rumino.cli") or info.name.split(".")[-1] == "__main__":
            continue
        yield importlib.import_module(info.name)


def _ours(obj: object) -> bool:
    return (getattr(obj, "__module__", None) or "").split(".")[0] == "rumino"


def _generated(fn: Callable) -> bool:
    """A function a dataclass wrote (compiled from a string, so its file is ``<string>``)."""
    return fn.__code__.co_filename.startswith("<")


def _methods(cls: type) -> Iterator[Callable]:
    """The public methods and property getters of ``cls``, its rumino bases' included, as ``cls`` sees them."""
    names = dict.fromkeys(k for base in reversed(cls.__mro__) if _ours(base) for k in vars(base))
    for name in names:
        if name.startswith("_") and name != "__init__":
            continue
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        elif isinstance(raw, property):
            raw = raw.fget
        if inspect.isfunction(raw) and _ours(raw) and not _generated(raw):
            yield raw


def public_callables() -> dict[str, Callable]:
    """Every public function and method (see the module docstring), by its qualified name."""
    found: dict[str, Callable] = {}
    seen: set[int] = set()
    for mod in _modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if isinstance(obj, Dispatcher) or not _ours(obj):
                continue
            if inspect.isclass(obj):
                fns = list(_methods(obj))
            else:
                fn = inspect.unwrap(obj) if callable(obj) else None
                fns = [fn] if inspect.isfunction(fn) else []
            for fn in fns:
                if id(fn) not in seen:
                    seen.add(id(fn))
                    found[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return found


def missing_annotations(fn: Callable) -> list[str]:
    """The parameters of ``fn`` without an annotation, and ``"return"`` if its return has none."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    out = [p.name for p in params
           if p.annotation is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if sig.return_annotation is sig.empty and fn.__name__ != "__init__":
        out.append("return")
    return out


@pytest.fixture(scope="module")
def untyped() -> dict[str, list[str]]:
    if numba.config.DISABLE_JIT:  # pragma: no cover - kernels are then plain functions, not dispatchers
        pytest.skip("NUMBA_DISABLE_JIT=1: the compiled kernels cannot be told from the Python functions")
    return {name: miss for name, fn in public_callables().items() if (miss := missing_annotations(fn))}


def test_the_walk_finds_the_api():
    """The walk sees what it should (a broken walk would find nothing to complain about)."""
    names = public_callables()
    assert len(names) > 500
    assert "rumino.engine.base.TurnGame.new" in names  # a class method
    assert "rumino.engine.base.TurnGame.to_act" in names  # a property
    assert "rumino.compare.figures.executor_for" in names  # through contextmanager's wrapper
    assert "rumino.variants.wiener.game._KnockFamily.after_deal" in names  # inherited from a private base
    assert not any(n.endswith(".__eq__") for n in names)  # dataclass-generated
    assert "rumino.hand.poker.value_of_mask" not in names  # a numba dispatcher


def test_every_public_callable_is_annotated(untyped):
    new = {name: miss for name, miss in untyped.items() if name not in NOT_YET_TYPED}
    assert not new, "public callables missing annotations (parameters, or 'return'):\n" + "\n".join(
        f"  {name}: {', '.join(miss)}" for name, miss in sorted(new.items()))


def test_the_allow_list_only_names_what_is_still_untyped(untyped):
    stale = sorted(NOT_YET_TYPED - set(untyped))
    assert not stale, ("typed now (or gone), so take them off NOT_YET_TYPED:\n"
                       + "\n".join(f"  {name}" for name in stale))
