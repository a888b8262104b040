"""makeenv's functions, when compiled code calls them, compile bare and are only linked.

numba builds two wrappers around every function it compiles so that Python can call it (a CPython
wrapper and a C-callable one); then it optimises the function's module with its callees linked in
and generates machine code for the lot. It does all this even for a helper that only compiled code
calls, as most of a game's functions are. A compiled caller uses none of it: it links the callee's
LLVM IR into its own module, which it optimises as a whole and turns into machine code itself.

So when compiled code calls one of makeenv's functions (of a module named ``makeenv.…``, or of a
referee or loop that ``makeenv.array.cache`` built from a template, ``makeenv_…``):

- a twin dispatcher (same Python function, same options) compiles it without the two wrappers;
- the twin's code is only ever linked into callers: its module is neither optimised as a whole nor
  turned into machine code on its own. numba's disk cache keeps its IR, in files of its own
  (``…-bare.nbi``), apart from the function's.

Catan's first ``makeenv run`` takes 9.0 s instead of 12.5 (``python benchmarks/bench_first_run.py
--compare MAKEENV_BARE_CALLS Catan``). A call from Python still goes to the function itself. When
its twin is already compiled for those argument types (a game's ``stepEnv`` called by a test or the
GUI after a loop ran), the function compiles a one-line trampoline that calls the twin, instead of
translating, typing and lowering its whole body a second time (``MAKEENV_TRAMPOLINES=0`` turns
just this off); otherwise it compiles with its wrappers as always. Once a function has been compiled
for Python, compiled callers use that. User code outside ``makeenv.`` is left alone.
``MAKEENV_BARE_CALLS=0`` keeps numba's way.

:func:`install` replaces seven numba methods (how a dispatcher compiles and hands out a compiled
overload, how the CPU target makes a compiled function callable, how a code library is finalised,
cached and loaded, how an environment pointer is set) and leaves numba alone when any of them is
not numba's own.
"""

from __future__ import annotations

import inspect
import os
from typing import Any

from numba.core import caching, codegen, cpu, dispatcher, sigutils
from numba.core.compiler_lock import global_compiler_lock, require_global_compiler_lock

SWITCH = "MAKEENV_BARE_CALLS"
TRAMPOLINE_SWITCH = "MAKEENV_TRAMPOLINES"  # 0: a Python call compiles the function itself, as numba does
OWN_PREFIXES = ("makeenv.", "makeenv_")  # the package; the modules built from its templates
BARE_OPTIONS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
LINK_ONLY_KIND = "makeenv-link-only"  # how numba's cache marks a link-only library's IR
_TWIN = "_makeenv_bare_twin"  # attribute of a dispatcher: its bare twin, once made
_TRAMPOLINE = "_makeenv_trampoline"  # attribute of a dispatcher: its trampoline to the twin, once made
TRAMPOLINE_MODULE = __name__  # trampolines compile as this module's (numba's cache imports it again)
_LINK_ONLY = "_makeenv_link_only"  # attribute of a code library that is only ever linked

_NUMBA = {
    "compile": dispatcher.Dispatcher.compile,
    "get_overload": dispatcher._DispatcherBase.get_overload,
    "get_executable": cpu.CPUContext.get_executable,
    "finalize": codegen.CPUCodeLibrary.finalize,
    "serialize_using_object_code": codegen.CPUCodeLibrary.serialize_using_object_code,
    "_unserialize": codegen.CPUCodeLibrary.__dict__["_unserialize"],
    "set_env": codegen.JITCPUCodegen.set_env,
}
_OWNERS = {
    "compile": dispatcher.Dispatcher,
    "get_overload": dispatcher._DispatcherBase,
    "get_executable": cpu.CPUContext,
    "finalize": codegen.CPUCodeLibrary,
    "serialize_using_object_code": codegen.CPUCodeLibrary,
    "_unserialize": codegen.CPUCodeLibrary,
    "set_env": codegen.JITCPUCodegen,
}
_enabled = False
_pending_envs: dict[str, Any] = {}  # environments of link-only code, set once a caller is in the JIT


def is_own(function: Any, prefixes: tuple[str, ...] = OWN_PREFIXES) -> bool:
    """Whether ``function`` (a dispatcher) is one of makeenv's own (its module starts with one of
    ``prefixes``)."""
    module = getattr(getattr(function, "py_func", None), "__module__", None) or ""
    return module.startswith(prefixes)


class _BareCache(caching.FunctionCache):
    """numba's disk cache of a function, in files of its own: a twin's code has no wrappers and
    must never be loaded by the function itself."""

    def __init__(self, py_func: Any) -> None:
        super().__init__(py_func)
        self._cache_file = caching.IndexDataCacheFile(
            cache_path=self._cache_path,
            filename_base=f"{self._impl.filename_base}-bare",
            source_stamp=self._impl.locator.get_source_stamp(),
        )


def _dispatcher_like(function: Any, py_func: Any, options: dict[str, Any], local_types: dict[str, Any]) -> Any:
    """A dispatcher of ``function``'s kind and compiler pipeline, compiling ``py_func``."""
    return type(function)(
        py_func, locals=local_types, targetoptions=options, pipeline_class=function._compiler.pipeline_class
    )


def bare_twin(function: Any) -> Any:
    """The dispatcher that compiles ``function`` for compiled callers, without Python's wrappers
    (made once; cached on disk when ``function`` is)."""
    twin = function.__dict__.get(_TWIN)
    if twin is None:
        twin = _dispatcher_like(function, function.py_func, {**function.targetoptions, **BARE_OPTIONS}, function.locals)
        if isinstance(function._cache, caching.FunctionCache):
            twin._cache = _BareCache(function.py_func)
        function.__dict__[_TWIN] = twin
    return twin


def compiles_for_callers(function: Any) -> Any:
    """The dispatcher that compiles ``function`` when compiled code calls it: its bare twin for
    makeenv's own functions not yet compiled for Python (once installed), else ``function``."""
    if (
        _enabled
        and isinstance(function, dispatcher.Dispatcher)
        and getattr(function, "_can_compile", False)
        and not function.overloads
        and not any(function.targetoptions.get(option) for option in BARE_OPTIONS)
        and is_own(function)
    ):
        return bare_twin(function)
    return function


def compiled_signatures(function: Any) -> list[Any]:
    """The signatures ``function`` is compiled for, by itself or by its bare twin."""
    twin = function.__dict__.get(_TWIN)
    return list(function.signatures) + (list(twin.signatures) if twin is not None else [])


def _plain_parameters(py_func: Any) -> list[str] | None:
    """The parameter names of a function taking only plain positional ones (else None)."""
    try:
        parameters = list(inspect.signature(py_func).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is not p.POSITIONAL_OR_KEYWORD or p.default is not p.empty for p in parameters):
        return None
    return [p.name for p in parameters]


def trampoline(function: Any) -> Any | None:
    """A dispatcher whose function calls ``function``'s bare twin with the same arguments (made
    once; None for a function with defaults, ``*args`` or keyword-only parameters)."""
    made = function.__dict__.get(_TRAMPOLINE)
    if made is None:
        names = _plain_parameters(function.py_func)
        if names is None:
            return None
        arguments = ", ".join(names)
        namespace: dict[str, Any] = {}
        exec(f"def call_twin({arguments}):\n    return TWIN({arguments})\n", {"TWIN": bare_twin(function)}, namespace)
        py_func = namespace["call_twin"]
        py_func.__module__ = TRAMPOLINE_MODULE
        py_func.__qualname__ = py_func.__name__ = function.py_func.__name__
        options = {k: v for k, v in function.targetoptions.items() if k != "cache"}
        made = _dispatcher_like(function, py_func, options, {})
        function.__dict__[_TRAMPOLINE] = made
    return made


class _ThroughTrampoline:
    """Stands in for a dispatcher's compiler during one ``compile``: hands back the trampoline's
    compiled code for those types, so numba adds (and caches) it as the function's own."""

    def __init__(self, compiler: Any, trampoline: Any) -> None:
        self._compiler = compiler
        self._trampoline = trampoline

    def __getattr__(self, name: str) -> Any:
        return getattr(self._compiler, name)

    def compile(self, args: tuple[Any, ...], return_type: Any) -> Any:
        try:
            self._trampoline.compile(args)
            compiled = self._trampoline.overloads[args]
            # numba times each compile into its result's metadata; the function's compile times its own
            return compiled._replace(metadata={k: v for k, v in (compiled.metadata or {}).items() if k != "timers"})
        except Exception:  # a numba whose internals differ: the function compiles itself, as numba does
            return self._compiler.compile(args, return_type)


def _compile(self: Any, sig: Any) -> Any:
    twin = self.__dict__.get(_TWIN)
    if twin is not None and _enabled and os.environ.get(TRAMPOLINE_SWITCH, "1") != "0":
        args = tuple(sigutils.normalize_signature(sig)[0])
        if args in twin.overloads and args not in self.overloads:
            through = trampoline(self)
            if through is not None:
                with global_compiler_lock:
                    compiler = self._compiler
                    self._compiler = _ThroughTrampoline(compiler, through)
                    try:
                        return _NUMBA["compile"](self, sig)
                    finally:
                        self._compiler = compiler
    return _NUMBA["compile"](self, sig)


def is_link_only(library: Any) -> bool:
    """Whether a numba code library is only ever linked into callers (a bare twin's)."""
    return bool(getattr(library, _LINK_ONLY, False))


def _defines(library: Any, name: str) -> bool:
    try:
        return not library._final_module.get_function(name).is_declaration
    except NameError:
        return False


def _get_overload(self: Any, sig: Any) -> Any:
    twin = self.__dict__.get(_TWIN)
    if twin is not None:
        args = tuple(sigutils.normalize_signature(sig)[0])
        if args not in self.overloads and args in twin.overloads:
            return _NUMBA["get_overload"](twin, sig)
    return _NUMBA["get_overload"](self, sig)


def _get_executable(self: Any, library: Any, fndesc: Any, env: Any) -> Any:
    bare = (
        not library._finalized
        and fndesc.modname.startswith(OWN_PREFIXES)
        and not _defines(library, fndesc.llvm_cpython_wrapper_name)
        and not _defines(library, fndesc.llvm_cfunc_wrapper_name)
    )
    if bare:  # marked before numba finalises it to look up the wrapper's address (null, as numba
        setattr(library, _LINK_ONLY, True)  # gives any function without one); callers link its IR
    return _NUMBA["get_executable"](self, library, fndesc, env)


def _finalize(self: Any) -> None:
    if not is_link_only(self):
        _NUMBA["finalize"](self)
        if _pending_envs:
            _set_pending_envs(self._codegen)
        return
    require_global_compiler_lock()
    self._raise_if_finalized()
    seen = set()
    for library in self._linking_libraries:
        if library not in seen:
            seen.add(library)
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
    self._final_module.verify()
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    self._finalized = True


def _serialize_using_object_code(self: Any) -> Any:
    if not is_link_only(self):
        return _NUMBA["serialize_using_object_code"](self)
    self._ensure_finalized()
    return (self.name, LINK_ONLY_KIND, self._get_module_for_linking().as_bitcode())


def _unserialize(cls: Any, codegen_: Any, state: Any) -> Any:
    name, kind, data = state
    if kind != LINK_ONLY_KIND:
        return _NUMBA["_unserialize"].__func__(cls, codegen_, state)
    from llvmlite import binding

    library = codegen_.create_library(name)
    library._final_module = binding.parse_bitcode(data)
    setattr(library, _LINK_ONLY, True)
    library._finalize_dynamic_globals()
    library._finalized = True
    return library


def _set_env(self: Any, env_name: str, env: Any) -> None:
    if self._engine.get_global_value_address(env_name):
        _NUMBA["set_env"](self, env_name, env)
    else:  # only in link-only code so far: set once a caller that holds it is in the JIT
        _pending_envs[env_name] = env


def _set_pending_envs(codegen_: Any) -> None:
    for env_name, env in list(_pending_envs.items()):
        if codegen_._engine.get_global_value_address(env_name):
            _NUMBA["set_env"](codegen_, env_name, env)
            del _pending_envs[env_name]


_REPLACEMENTS = {
    "compile": _compile,
    "get_overload": _get_overload,
    "get_executable": _get_executable,
    "finalize": _finalize,
    "serialize_using_object_code": _serialize_using_object_code,
    "_unserialize": classmethod(_unserialize),
    "set_env": _set_env,
}


def _current(name: str) -> Any:
    value = _OWNERS[name].__dict__.get(name)
    return value.__func__ if isinstance(value, classmethod) else value


def install() -> bool:
    """Compile makeenv's functions bare for compiled callers (once); returns whether it is in
    place. Nothing changes when ``MAKEENV_BARE_CALLS=0`` or when numba's internals differ."""
    global _enabled
    if os.environ.get(SWITCH, "1") == "0":
        return False
    ours = {name: getattr(fn, "__func__", fn) for name, fn in _REPLACEMENTS.items()}
    numbas = {name: getattr(fn, "__func__", fn) for name, fn in _NUMBA.items()}
    current = {name: _current(name) for name in _NUMBA}
    if current != ours:
        if current != numbas:
            return False
        for name, replacement in _REPLACEMENTS.items():
            setattr(_OWNERS[name], name, replacement)
    _enabled = True
    return True


def uninstall() -> None:
    """Give numba its own way back (code already compiled bare stays usable by its callers)."""
    global _enabled
    _enabled = False
    for name, original in _NUMBA.items():
        if _current(name) is getattr(_REPLACEMENTS[name], "__func__", _REPLACEMENTS[name]):
            setattr(_OWNERS[name], name, original)
