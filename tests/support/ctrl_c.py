"""Start a command as a terminal would, so that Ctrl-C (SIGINT) reaches it whatever this process's
own state: a child inherits an ignored or blocked SIGINT, and another test or library in the same
pytest worker may have left it so."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def start_as_from_a_terminal(command: list[str], **kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(command, **kwargs)`` with SIGINT's default action and unblocked."""
    return subprocess.Popen(command, preexec_fn=_default_ctrl_c, **kwargs)  # noqa: PLW1509
