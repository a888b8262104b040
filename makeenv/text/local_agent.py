"""``LocalAgent``: a text agent on a small local model (llama.cpp, the ``llm`` extra), offline, no key.

The model is loaded and shared by ``makeenv.text.llama_runtime``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from makeenv.text.bridge import listed_options
from makeenv.text.llama_runtime import DEFAULT_N_CTX, load_model

__all__ = ["LocalAgent"]

_AGENT_SYSTEM_PROMPT = (
    "You are a careful, practical survival expert. Answer with a concrete, "
    "step-by-step strategy in one or two short paragraphs."
)


class LocalAgent:
    """A text agent ``agent(observation) -> str`` on a local GGUF model.

    When the observation lists its valid answers (an array game in words: ``[k] description``
    lines), the agent answers with one of them, chosen by ``choose`` (nothing sampled), however it
    is called; otherwise it samples a reply.

    Reproducible: call ``k`` of an agent uses sampling seed ``seed + k``, and a reply is a function
    of the prompt tokens, the settings and that seed alone (``LocalModel.generate``): the same agent
    (same seed) replaying the same observations writes the same texts, in this process or another,
    whatever the shared model evaluated before. Across machines or llama.cpp builds the CPU kernels,
    and so the texts, may differ.
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        max_tokens: int = 200,
        temperature: float = 0.7,
        top_p: float = 0.95,
        seed: int = 0,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        system_prompt: str = _AGENT_SYSTEM_PROMPT,
    ):
        if not isinstance(max_tokens, int) or not 1 <= max_tokens <= n_ctx // 2:
            raise ValueError(
                f"LocalAgent: max_tokens must be an int between 1 and n_ctx/2={n_ctx // 2}, got {max_tokens!r}"
            )
        if not isinstance(temperature, (int, float)) or temperature < 0:
            raise ValueError(f"LocalAgent: temperature must be a number >= 0, got {temperature!r}")
        self.model = load_model(model_path, n_ctx=n_ctx, n_threads=n_threads)
        self.max_tokens = max_tokens
        self.temperature = float(temperature)
        self.top_p = float(top_p)
        self.seed = int(seed)
        self.system_prompt = system_prompt
        self.calls = 0

    def __repr__(self) -> str:
        return f"LocalAgent(model={self.model.name!r}, seed={self.seed}, max_tokens={self.max_tokens})"

    def __call__(self, observation: str) -> str:
        """The agent's answer: one of the answers ``observation`` lists (an array game in words, see
        ``makeenv.text.bridge.listed_options``), chosen by ``choose``; otherwise a sampled reply."""
        options = listed_options(observation)
        if options:
            return options[self.choose(observation, [option["label"] for option in options])]["answer"]
        model = self.model
        prompt_tokens = model.chat_tokens(self.system_prompt, self._fit(observation, self.max_tokens))
        text = ""
        for _attempt in range(3):  # a rare empty sample is retried with the next seed
            seed = self.seed + self.calls
            self.calls += 1
            with model.lock:
                reply = model.generate(
                    prompt_tokens, self.max_tokens, temperature=self.temperature, top_p=self.top_p, seed=seed
                )
            text = model.detokenize(reply).strip()
            if text:
                break
        return text

    def _fit(self, observation: str, room: int) -> str:
        """``observation``, keeping only its newest part if the prompt and ``room`` tokens would not fit."""
        if not isinstance(observation, str):
            raise TypeError(f"LocalAgent: observation must be a str, got {type(observation).__name__}")
        model = self.model
        budget = model.n_ctx - room - 64 - len(model.tokenize(self.system_prompt))
        tokens = model.tokenize(observation)
        if len(tokens) > budget:
            observation = "[...]\n" + model.detokenize(tokens[-budget:])
        return observation

    def option_scores(self, observation: str, options: Sequence[str], *, per_token: bool = False) -> list[float]:
        """How likely the model finds each option as its answer to ``observation``: one score each.

        Each option's text is scored as the start of the model's reply to the chat prompt (the
        agent's system prompt and the observation): the log-probability of its tokens, read from the
        logits; nothing is sampled. Length: by default the sum (the probability of the whole text,
        which favours short options when lengths differ); ``per_token=True`` gives the mean per
        token. On 8 obvious questions SmolLM2-135M was right 6 times with the sum, 5 with the mean,
        4 with either normalised by the option's probability without the question. Options are
        scored one at a time and never listed in the prompt, so their order cannot change a score
        (listing them made it pick by position). A score depends on the observation and that
        option alone.
        """
        options = _check_options(options)
        model = self.model
        option_tokens = [model.tokenize(option) for option in options]
        prompt = model.chat_tokens(self.system_prompt, self._fit(observation, max(map(len, option_tokens))))
        scores = []
        with model.lock:
            for tokens in option_tokens:
                rows = model.logits(prompt + tokens, first=len(prompt) - 1)[: len(tokens)]
                log_probs = _log_softmax_at(rows, tokens)
                scores.append(float(log_probs.mean() if per_token else log_probs.sum()))
        return scores

    def choose(self, observation: str, options: Sequence[str], *, per_token: bool = False) -> int:
        """Index of the option the model finds most likely as its answer (see ``option_scores``).

        For a game: ``agent.choose(observation, [description of each valid action])``; call
        ``option_scores`` with the same arguments to report how sure the model was.

        Deterministic; equal scores go to the lowest index. Raises ``ValueError`` on an empty
        ``options`` and ``TypeError`` when an option is not a string.
        """
        scores = self.option_scores(observation, options, per_token=per_token)
        return max(range(len(scores)), key=lambda index: (scores[index], -index))


def _check_options(options: Sequence[str]) -> list[str]:
    if isinstance(options, str) or not isinstance(options, Sequence):
        raise TypeError(f"LocalAgent.choose: options must be a sequence of strings, got {type(options).__name__}")
    options = list(options)
    if not options:
        raise ValueError("LocalAgent.choose: options is empty; expected at least one option to choose from")
    for index, option in enumerate(options):
        if not isinstance(option, str):
            raise TypeError(f"LocalAgent.choose: option {index} must be a str, got {type(option).__name__}")
        if not option.strip():
            raise ValueError(f"LocalAgent.choose: option {index} is empty; every option needs some text")
    return options


def _log_softmax_at(rows: Any, tokens: Sequence[int]) -> Any:
    """log P(tokens[i]) under the logits in ``rows[i]``."""
    import numpy as np

    rows = rows.astype(np.float64)
    top = rows.max(axis=1)
    log_norm = top + np.log(np.exp(rows - top[:, None]).sum(axis=1))
    return rows[np.arange(len(tokens)), list(tokens)] - log_norm
