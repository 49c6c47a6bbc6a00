"""Users' agents into the registry: :func:`resolve_agent` turns what a user hands to
``run`` / ``sweep`` / the CLI (a built-in name, an import path ``"module:attr"`` or
``"path/to/file.py:attr"``, or an agent object) into the registry name the drivers use,
registering the agent in ``agents.USER_AGENTS`` (family "user") on first sight.

An agent object is a class instance with ``act(obs)`` (and optionally ``reset(info)``)
or ``act_batch(obs)``, a plain function ``obs -> move``, a Numba ``@njit`` policy or a
:class:`~fastsweep.user.numba_player.NumbaAgent`. Its name is its ``name`` attribute, else
its class's or function's name. Worker processes of a sweep re-load an agent named by
import path (``agents._LOADERS``); an object that has no import path is played in this
process and in forked workers only.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import sys

from ..agents import AGENTS, USER_AGENTS, AgentInfo, _LOADERS
from .batch_player import BatchPlayer
from .code_id import agent_code, target as code_target
from .numba_player import NumbaAgent
from .python_player import PythonPlayer


def _name_of(agent) -> str:
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name:
        return name
    if inspect.isfunction(agent) or hasattr(agent, "py_func"):
        return getattr(agent, "__name__", None) or agent.py_func.__name__
    return type(agent).__name__


_NAME_BANNED = ",|:=\n\r\t"


def _check_name(name: str) -> None:
    """An agent object's name must survive the places it is written: ``--agents`` and
    ``--fresh`` lists (commas), pair keys (``|``), import paths (``:``), ``--labels``
    pairs (``=``) and one-line tables (line breaks)."""
    bad = sorted({c for c in name if c in _NAME_BANNED})
    if bad or name != name.strip():
        raise ValueError(f"agent: your agent's name {name!r} has "
                         f"{'characters ' + repr(''.join(bad)) if bad else 'outer spaces'}; "
                         "a name is written in lists, tables and import paths: use letters, "
                         "digits, spaces inside and _-.()/ (set a `name` attribute)")


def file_digest(agent) -> str:
    """The digest sweep folders recorded before :mod:`.code_id` (format <= 4): the bytes of
    the agent's module's file (or of its source text). To say, when such a folder is
    refused, whether the file is still the one it digested; and the digest of an agent
    whose code :mod:`.code_id` cannot read."""
    target = code_target(agent)
    try:
        path = inspect.getsourcefile(target)
        with open(path, "rb") as f:
            data = f.read()
    except (TypeError, OSError):
        try:
            data = inspect.getsource(target).encode()
        except (TypeError, OSError):
            return ""
    return hashlib.sha256(data).hexdigest()[:16]


def _player(agent, name):
    if hasattr(agent, "py_func") and hasattr(agent, "overloads"):  # a Numba dispatcher
        agent = NumbaAgent(agent, name=name)
    if isinstance(agent, NumbaAgent):
        return agent.player(name)
    if callable(getattr(agent, "act_batch", None)):
        return BatchPlayer(name, agent.act_batch, getattr(agent, "reset", None))
    if callable(getattr(agent, "act", None)):
        return PythonPlayer(name, agent.act, getattr(agent, "reset", None))
    if callable(agent) and not inspect.isclass(agent):
        return PythonPlayer(name, agent)
    raise TypeError(f"agent: expected a built-in agent's name ({', '.join(AGENTS)}), an "
                    f"import path 'module:attr' or 'file.py:attr', or an agent: an object "
                    f"with act(obs) or act_batch(obs), a function obs -> move, or a Numba "
                    f"policy; got {type(agent).__name__} {agent!r:.60}")


def register(agent, name: str | None = None, source: str = "") -> str:
    """Register ``agent`` (an object) under ``name`` (default: its own name); return it.
    A class is instantiated with no arguments, as a class named by an import path is."""
    if inspect.isclass(agent):
        try:
            agent = agent()
        except Exception as e:
            raise TypeError(f"agent: got the class {agent.__name__}, which needs arguments; "
                            f"pass an instance ({agent.__name__}(...)): {agent.__name__}() "
                            f"raised {type(e).__name__}: {e}") from e
    name = name or _name_of(agent)
    if not source:
        _check_name(name)
    if name in AGENTS:
        raise ValueError(f"agent: your agent's name {name!r} is a built-in agent's; give it "
                         "another (a `name` attribute, or NumbaAgent(..., name=...))")
    old = USER_AGENTS.get(name)
    if old is not None and getattr(old.player, "source_object", None) is agent:
        return name
    player = _player(agent, name)
    player.source_object = agent
    doc = (inspect.getdoc(agent) or "").split("\n")[0] or f"your agent {name}"
    try:
        digest, code = agent_code(agent)
    except Exception:  # (a defect of the digest must not stop the agent from playing)
        digest, code = "", {}
    if not digest:  # no code to read: its file's bytes, if any (else nothing is checked)
        digest = file_digest(agent)
    USER_AGENTS[name] = AgentInfo(0, "user", doc, player=player, source=source,
                                  digest=digest, code=tuple(sorted(code.items())))
    return name


def load(path: str):
    """The agent object at import path ``path``: ``"module.sub:attr"`` or
    ``"path/to/file.py:attr"`` (a class there is instantiated with no arguments)."""
    where, _, attr = path.rpartition(":")
    if not where or not attr:
        raise ValueError(f"agent: {path!r} is not an import path; write 'module:attr' or "
                         "'path/to/file.py:attr'")
    try:
        if where.endswith(".py") or os.sep in where or "/" in where:
            if not os.path.isfile(where):
                raise ValueError(f"agent: {path!r}: no file {where!r}")
            key = _module_name(where)
            module = sys.modules.get(key)
            if module is None:
                spec = importlib.util.spec_from_file_location(key, where)
                module = importlib.util.module_from_spec(spec)
                sys.modules[key] = module  # (before running it: dataclasses and pickle need it)
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[key]
                    raise
        else:
            module = importlib.import_module(where)
    except ValueError:
        raise
    except SystemExit as e:  # the agent's module called sys.exit while being imported
        raise ValueError(f"agent: {path!r}: importing {where!r} called sys.exit"
                         f"({e.code!r}): an agent's module must not exit when imported "
                         "(guard a script's code with `if __name__ == '__main__':`)") from e
    except Exception as e:
        raise ValueError(f"agent: {path!r}: importing {where!r} failed: {type(e).__name__}: "
                         f"{e}") from e
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"agent: {path!r}: {where!r} has no attribute {part!r}")
        obj = getattr(obj, part)
    if module.__name__ != where:
        _refuse_cached_under_another_name(path, where, module, obj)
    if inspect.isclass(obj):
        try:
            obj = obj()
        except Exception as e:
            raise ValueError(f"agent: {path!r}: {attr}() failed: {type(e).__name__}: {e}") from e
    return obj


def _module_name(where: str) -> str:
    """The module name a file agent is imported under: its file's name (``mine.py`` is
    ``mine``), as when the user imports it, unless another module holds that name. Numba's
    on-disk cache (``@njit(cache=True)``) records the module name a kernel was compiled
    in and imports it when it loads the kernel: under any other name the cached kernel
    fails with ModuleNotFoundError. A taken name falls back to a private one."""
    stem = os.path.splitext(os.path.basename(where))[0]
    mod = sys.modules.get(stem)
    if stem.isidentifier() and (mod is None or _same_file(getattr(mod, "__file__", None), where)):
        return stem
    return "fastsweep_user_" + hashlib.sha256(os.path.abspath(where).encode()).hexdigest()[:12]


def _same_file(a, b) -> bool:
    try:
        return a is not None and os.path.samefile(a, b)
    except OSError:
        return False


def _refuse_cached_under_another_name(path: str, where: str, module, obj) -> None:
    """A ``cache=True`` kernel in a file imported under a private name cannot load its
    cache (see :func:`_module_name`): refuse it now, with the fix, not at move 1."""
    stem = os.path.splitext(os.path.basename(where))[0]
    if module.__name__ == stem:
        return
    cache = getattr(getattr(obj, "policy", obj), "_cache", None)
    if cache is not None and type(cache).__name__ != "NullCache":
        raise ValueError(f"agent: {path!r} is compiled with @njit(cache=True) and the module name "
                         f"{stem!r} is taken by another module ({sys.modules[stem]!r:.80}): "
                         "Numba's cache reloads a kernel under the module name it was compiled "
                         "in; rename the file, or drop cache=True")


def import_target(path: str) -> str:
    """Where the code of import path ``path`` lives, found without running any of it: the
    file of ``"file.py:attr"``, or the module of ``"module:attr"`` and its file (its
    parent packages are looked up, not imported).

    >>> import_target("examples/basic_python.py:Basic").endswith("basic_python.py")
    True
    """
    where = path.rpartition(":")[0]
    if where.endswith(".py") or os.sep in where or "/" in where:
        return os.path.abspath(where)
    if where in sys.modules:
        return f"module {where} ({getattr(sys.modules[where], '__file__', None) or 'built in'})"
    search, origin = None, None
    parts = where.split(".")
    for i in range(len(parts)):
        name = ".".join(parts[:i + 1])
        mod = sys.modules.get(name)
        try:
            spec = (None if mod is not None
                    else importlib.machinery.PathFinder.find_spec(name, search))
        except (ImportError, ValueError):
            spec = None
        if mod is None and spec is None:
            return f"module {where} (not found)"
        origin = getattr(mod, "__file__", None) if mod is not None else spec.origin
        search = (list(getattr(mod, "__path__", []) or []) if mod is not None
                  else list(spec.submodule_search_locations or []))
    return f"module {where} ({origin or 'no file'})"


def _load_path(path: str) -> str:
    return register(load(path), name=path, source=path)


_LOADERS[:] = [_load_path]


def resolve_agent(agent) -> str:
    """The registry name of ``agent`` (see the module's doc), registering it if new.

    >>> resolve_agent("basic")
    'basic'
    >>> def careful(obs):
    ...     return (0, 0)
    >>> resolve_agent(careful)
    'careful'
    """
    if isinstance(agent, str):
        if agent in AGENTS or agent in USER_AGENTS:
            return agent
        if ":" in agent:
            return _load_path(agent)
        raise ValueError(f"agent: unknown agent {agent!r}; known agents: {', '.join(AGENTS)}"
                         f"{''.join(', ' + a for a in USER_AGENTS)}; or your own: an import "
                         "path 'module:attr' or 'path/to/file.py:attr', or an agent object")
    return register(agent)
