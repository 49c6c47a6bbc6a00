"""What decides a user's agent's moves, as one digest (:func:`agent_code`): a sweep folder
records it per agent (``params.json``'s ``own_agents``) and refuses to mix the games of
two codes of one agent (:mod:`fastsweep.sweep.folder.grow`).

What is digested: the syntax tree of the agent's own module and of every *user* module
it imports, transitively (the modules its import statements name, wherever they stand,
and their parent packages), with docstrings left out; the tree holds no comments, blank
lines or formatting, so an edit of those alone keeps the digest, and a change of any
statement in a helper module changes it. A user module is one with a Python source file
outside the standard library and installed packages (``site-packages``), and not
fastsweep's: those count by the environment, not by their files. Which object of the
module is the agent (its qualified name) counts too.

An agent defined in the script that runs (``__main__``), or at a prompt, counts by its
own code rather than the whole script (editing the sweep's arguments in the script is not
a change of the agent): the source of its function or class, the functions and classes
of that script its code names (at any depth), the values of the script's constants it
names, and the user modules it names or imports, as above. Code whose source cannot be
read (a lambda, or a prompt without saved sources) counts by its compiled code, which a
new Python version changes too.

Example::

    >>> from fastsweep.user.code_id import agent_code
    >>> import sys; sys.path.insert(0, "examples")
    >>> import basic_python
    >>> digest, parts = agent_code(basic_python.Basic())
    >>> len(digest), sorted(parts)
    (16, ['basic_python.py'])
"""
from __future__ import annotations

import ast
import functools
import hashlib
import importlib.machinery
import inspect
import os
import sys
import sysconfig
import textwrap
import types

SCHEME = "code-1"  # what this module digests; a new scheme changes every digest
# top-level packages that count by their versions, not their files
_LIBRARY = {"fastsweep", "__future__"} | set(getattr(sys, "stdlib_module_names", ()))


class _Unreadable(Exception):
    """Code with neither a source file nor compiled code to digest."""


@functools.lru_cache(maxsize=None)
def _library_dirs() -> tuple:
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.realpath(path))
    return tuple(dirs)


def _is_user_file(path) -> bool:
    """A Python source file of the user's, not of the standard library or an installed
    package."""
    if not path or not path.endswith(".py") or not os.path.isfile(path):
        return False
    real = os.path.realpath(path)
    if {"site-packages", "dist-packages"} & set(real.split(os.sep)):
        return False
    return not any(real.startswith(d + os.sep) for d in _library_dirs())


def _find(name):
    """The source file of module ``name``, found without running any module's code
    (``sys.modules`` first, else the import system's path finder); None if none."""
    if name in sys.modules:
        return getattr(sys.modules[name], "__file__", None)
    search = None
    origin = None
    parts = name.split(".")
    for i in range(len(parts)):
        sub = ".".join(parts[:i + 1])
        mod = sys.modules.get(sub)
        if mod is not None:
            origin, search = getattr(mod, "__file__", None), getattr(mod, "__path__", None)
        else:
            try:
                spec = importlib.machinery.PathFinder.find_spec(sub, search)
            except (ImportError, ValueError):
                return None
            if spec is None:
                return None
            origin, search = spec.origin, spec.submodule_search_locations
        if i < len(parts) - 1 and search is None:
            return None
        search = list(search) if search is not None else None
    return origin


def _strip_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:]
    return tree


def _canon(node, out):
    """The tree as text: node types, fields and constants, without positions; empty
    fields are left out (so a field added by a newer Python, empty in old code, keeps the
    text)."""
    if isinstance(node, ast.AST):
        out.append(type(node).__name__ + "(")
        for field in node._fields:
            value = getattr(node, field, None)
            if value is None or value == [] or field == "type_comment":
                continue
            out.append(field + "=")
            _canon(value, out)
            out.append(",")
        out.append(")")
    elif isinstance(node, list):
        out.append("[")
        for v in node:
            _canon(v, out)
            out.append(",")
        out.append("]")
    else:
        out.append(repr(node))


def _tree_digest(tree) -> str:
    out = []
    _canon(_strip_docstrings(tree), out)
    return hashlib.sha256("".join(out).encode()).hexdigest()[:16]


def _imports(tree, package):
    """The absolute names of the modules ``tree``'s import statements name (and, for
    ``from m import x``, ``m.x`` in case x is a submodule), with their parent packages."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = (package or "").split(".")
                if node.level - 1 > len(parts) or not package:
                    continue
                head = ".".join(parts[:len(parts) - (node.level - 1)])
                base = f"{head}.{base}" if base else head
            if not base:
                continue
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
    out = set()
    for n in names:
        parts = n.split(".")
        out.update(".".join(parts[:i + 1]) for i in range(len(parts)))
    return out


def _code_text(code, doc=None):
    """Compiled code as text (no line numbers or file names): for code without source."""
    consts = []
    for i, c in enumerate(code.co_consts):
        if i == 0 and doc is not None and c == doc:
            continue  # the docstring
        consts.append(_code_text(c) if isinstance(c, types.CodeType) else repr(c))
    return repr((code.co_code, code.co_names, code.co_varnames, code.co_freevars, consts))


class _Digest:
    def __init__(self):
        self.parts = {}  # key -> (label, digest)
        self.queue = []  # user modules to digest: (name, file)

    def module(self, name, path, key=None, label=None):
        """Digest the module ``name`` at ``path`` and queue the user modules it imports."""
        key = key or name
        if key in self.parts:
            return
        try:
            with open(path, "rb") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError):
            raise _Unreadable(name) from None
        self.parts[key] = (label or name, _tree_digest(tree))
        package = name if os.path.basename(path) == "__init__.py" else name.rpartition(".")[0]
        for sub in sorted(_imports(tree, package)):
            self.user_module(sub)

    def user_module(self, name):
        """Queue module ``name`` if it is the user's."""
        if not name or name.split(".")[0] in _LIBRARY or name in self.parts:
            return
        path = _find(name)
        if _is_user_file(path):
            self.queue.append((name, path))

    def drain(self):
        while self.queue:
            self.module(*self.queue.pop())

    def script_object(self, obj):
        """An object of ``__main__`` (or a prompt): its own code, and what its code names."""
        key = f"__main__.{getattr(obj, '__qualname__', '?')}"
        if key in self.parts:
            return
        self.parts[key] = None  # (placeholder: recursion)
        funcs = [obj] if not inspect.isclass(obj) else [
            f for v in vars(obj).values()
            for f in ([v.__func__] if isinstance(v, (staticmethod, classmethod)) else
                      [v.fget, v.fset, v.fdel] if isinstance(v, property) else [v])
            if inspect.isfunction(f)]
        tree = None
        if getattr(obj, "__name__", "") != "<lambda>":
            try:
                tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
            except (OSError, TypeError, SyntaxError, IndentationError):
                tree = None
        if tree is not None:
            digest = _tree_digest(tree)
            module = sys.modules.get(getattr(obj, "__module__", None) or "")
            package = getattr(module, "__package__", None) or ""
            for sub in sorted(_imports(tree, package)):
                self.user_module(sub)
        elif funcs:
            digest = hashlib.sha256("".join(
                _code_text(f.__code__, f.__doc__) for f in funcs).encode()).hexdigest()[:16]
        else:
            raise _Unreadable(key)
        self.parts[key] = (f"{getattr(obj, '__qualname__', '?')} (in {_where_main()})", digest)
        if inspect.isclass(obj):
            for base in obj.__bases__:
                self.value(base, base.__name__, obj)
        names = set()
        for f in funcs:
            names |= _names(f.__code__)
        g = (funcs[0].__globals__ if funcs else
             vars(sys.modules.get(obj.__module__, types.ModuleType("?"))))
        for name in sorted(names):
            if name in g:
                self.value(g[name], name, obj)

    def value(self, v, name, owner):
        """A global value that code of ``__main__`` names."""
        v = getattr(v, "py_func", v)  # a Numba dispatcher: its Python function
        if isinstance(v, types.ModuleType):
            self.user_module(v.__name__)
        elif inspect.isfunction(v) or inspect.isclass(v):
            mod = getattr(v, "__module__", None) or ""
            if mod == "__main__" or sys.modules.get(mod) is None:
                self.script_object(v)
            else:
                self.user_module(mod)
        elif isinstance(v, (bool, int, float, complex, str, bytes, type(None), tuple, frozenset)):
            self.parts[f"__main__:{name}"] = (f"{name} (in {_where_main()})",
                                             hashlib.sha256(repr(v).encode()).hexdigest()[:16])
        else:
            self.user_module(getattr(type(v), "__module__", None) or "")

    def total(self, what) -> str:
        h = hashlib.sha256(f"{SCHEME}\0{what}".encode())
        for key in sorted(self.parts):
            h.update(f"\0{key}={self.parts[key][1]}".encode())
        return h.hexdigest()[:16]


def _where_main():
    f = getattr(sys.modules.get("__main__"), "__file__", None)
    return os.path.basename(f) if f else "the prompt"


def _names(code):
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


def target(agent):
    """The function or class whose code plays ``agent`` (an object of ``run``'s kinds)."""
    from .numba_player import NumbaAgent

    obj = agent.policy if isinstance(agent, NumbaAgent) else agent
    obj = getattr(obj, "py_func", obj)
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        obj = type(obj)
    return obj


def agent_code(agent):
    """(digest, parts) of what decides ``agent``'s moves (see the module's text): a digest
    of 16 hex digits, and {what was digested: its own digest}, e.g. ``{"agent.py": ...,
    "helpers": ...}``; ("", {}) when its code cannot be read at all."""
    obj = target(agent)
    d = _Digest()
    name = getattr(obj, "__module__", None) or ""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    try:
        if name != "__main__" and module is not None and path and path.endswith(".py"):
            # the agent's own module, under a key that does not depend on its name (a file
            # loaded by path gets a name of its absolute path) or its place
            d.module(name, path, key="<agent module>", label=os.path.basename(path))
        else:
            d.script_object(obj)
        d.drain()
    except _Unreadable:
        return "", {}
    parts = {label: digest for label, digest in d.parts.values()}
    return d.total(getattr(obj, "__qualname__", "?")), parts
