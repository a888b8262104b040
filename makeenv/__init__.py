"""makeenv: build, check, run and play turn-based multi-agent game environments."""

from __future__ import annotations

from typing import Any

from makeenv.registry import list_envs, make

__all__ = ["make", "list_envs", "check_env"]
__version__ = "0.1.0"


def check_env(env: Any, **kwargs: Any) -> tuple[bool, list[str]]:
    """Check that an array env (an env, a registered name, a module path or a folder) obeys the
    contract; returns ``(ok, problems)``."""
    from makeenv.array.check import check_env as _check_env

    return _check_env(make(env) if isinstance(env, str) else env, **kwargs)
