"""Drives `donna run` (configured with a real local model) through replies to nudges and free
messages taking turns, as they do in a day, and measures how long a person waits for each
answer. Used by scripts/real_llm_e2e.sh with E2E_SET=interleaved.

The day: six tasks on the list, each nudged in its own thread (POST /api/nudges), and one free
chat (POST /api/threads, like a DM). One warm-up turn of each kind (a nudge reply, a free
message: the model server reads Donna's instructions once), then 12 turns taking turns: a reply
to a nudge the keywords do not take (deferrals in the person's words, questions about the task,
feelings, reports of something half done), then a free message no rule takes (small talk, a
task in their own words, a question about their tasks), and so on. A model server that keeps
one prompt (llama-cpp-python) reuses from one turn to the next only what the two prompts
start with alike.

Per turn: the seconds it took, the path, Donna's answer, the model calls it made (/metrics
before and after) and, when the model server's log is given (LLM_LOG, as real_llm_e2e.sh does),
the prompt tokens the server says it evaluated for the turn (its `prompt eval time` lines):
what it could not reuse. That count does not depend on the machine's load; the seconds do.

Figures: the median and the slowest of the 12 turns, and the unusable answers (path
`llm_unavailable`). The target: median <= 3 s with at most 1 unusable answer.

Safety checks, counted (never aborting the run): an HTTP error or a malformed answer, a path
outside the known set, a reply to a nudge that a rule took (it would not measure the model), a
task changed before a yes, or changed or created on a path that does not say so.
Exit status: 1 when any safety violation was counted; else 0 (a missed target is reported, not
failed: the figure depends on the machine's load). RESULTS_JSON (environment) names a file to
write the figures and the rows to as JSON.
"""

import os
import re
import sys
import time
import urllib.request

from e2e_common import caller, finish_timed, need, percentile

BASE = sys.argv[1]
call = caller(BASE)
LLM_LOG = os.environ.get("LLM_LOG")

PATHS = {"llm", "clarify", "llm_unavailable", "task_created", "duplicate", "automation_proposed",
         "answer", "chat", "unhandled", "escalation_proposed"}

# (task nudged, the reply to its nudge). The keywords take none of these (a rule's answer is
# counted as a violation: it would not measure the model).
WARM_UP_REPLY = ("Water the plants", "hmm not sure yet, let me think about it")
WARM_UP_FREE = "morning! busy day ahead of me"

# (kind, category, task nudged or None, message), in the order sent.
TURNS = [
    ("nudge", "deferral", "Book the car service",
     "the garage didn't pick up, I'll try them again after lunch"),
    ("free", "small talk", None, "my sister just called, she's coming to stay next weekend"),
    ("nudge", "question", "Call the insurance company", "what was the policy number again?"),
    ("free", "task", None, "I should sort out the car insurance before it renews"),
    ("nudge", "feeling", "Send the invoice to Acme", "ugh I completely forgot about this one"),
    ("free", "question", None, "anything important I keep putting off?"),
    ("nudge", "report", "Return the library books",
     "took two of them back this morning, the third one is still under the couch somewhere"),
    ("free", "feeling", None, "feeling pretty good about today actually"),
    ("nudge", "deferral", "Renew the gym membership",
     "can we do this on thursday instead, today is packed"),
    ("free", "task", None, "need to get flowers for mum's birthday on sunday"),
    ("nudge", "question", "Pick up the prescription", "is this the one the doctor called about?"),
    ("free", "question", None, "which of my things has been waiting the longest?"),
]

WATCHED = ("title", "status", "deadline", "scheduled_start", "completed_at", "snoozed_until")


def metric(name):
    text = urllib.request.urlopen(BASE + "/metrics", timeout=30).read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


def log_size():
    return os.path.getsize(LLM_LOG) if LLM_LOG else 0


def evaluated_since(offset):
    """Prompt tokens the model server evaluated since `offset` of its log (None without it)."""
    if not LLM_LOG:
        return None
    # The server prints its timings just before it answers; give a slow disk a moment.
    time.sleep(0.2)
    with open(LLM_LOG, errors="replace") as log:
        log.seek(offset)
        text = log.read()
    return sum(int(m.group(1)) for m in
               re.finditer(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens", text))


def snapshot():
    _, tasks = call("GET", "/api/tasks")
    return {t["id"]: {k: t.get(k) for k in WATCHED} for t in tasks}


def turn(thread, text, kind):
    calls_before = metric("donna_llm_calls_total")
    offset = log_size()
    before = snapshot()
    started = time.monotonic()
    status, result = call("POST", "/api/messages",
                          {"thread_id": thread, "user_id": "owner", "text": text})
    latency = time.monotonic() - started
    after = snapshot()
    problems = []
    path = result.get("path") if isinstance(result, dict) else None
    if status != 200 or path is None:
        problems.append(f"HTTP {status}: {result}")
    elif path == "fast":
        problems.append("taken by the keywords: not a model turn")
    elif path not in PATHS:
        problems.append(f"unknown path {path}")
    ran = bool((result or {}).get("results")) if isinstance(result, dict) else False
    changed = [tid for tid in after if tid in before and after[tid] != before[tid]]
    created = [tid for tid in after if tid not in before]
    if kind == "nudge" and changed:
        problems.append(f"a task changed before any yes: {changed}")
    if (changed or created) and not ran:
        problems.append(f"tasks changed or created with no action reported: {changed + created}")
    return {"kind": kind, "text": text, "path": path, "latency_s": round(latency, 2),
            "reply": result.get("reply") if isinstance(result, dict) else None,
            "model_calls": int(metric("donna_llm_calls_total") - calls_before),
            "evaluated_tokens": evaluated_since(offset), "violations": problems}


def nudge_thread(title):
    status, task = call("POST", "/api/tasks", {"title": title, "deadline": "2026-01-05T09:00:00Z"})
    need(status == 201, f"create task: {status} {task}")
    status, nudge = call("POST", "/api/nudges", {"task_id": task["id"]})
    need(status in (200, 201), f"nudge: {status} {nudge}")
    return nudge["thread_id"]


def show(label, row):
    evaluated = row["evaluated_tokens"]
    print(f"{label:>7} [{row['latency_s']:5.1f}s] {row['kind']:5} {str(row['path']):15} "
          f"{row['model_calls']} calls, {'?' if evaluated is None else evaluated:>5} tokens evaluated"
          f"  {row['text']!r}\n          Donna: {row['reply']!r}"
          + "".join(f"\n          SAFETY VIOLATION: {p}" for p in row["violations"]))


def main():
    for title in ("Pay rent", "Dentist appointment", "Tax return"):
        status, created = call("POST", "/api/tasks", {"title": title})
        need(status == 201, f"create task: {status} {created}")
    status, free = call("POST", "/api/threads", {})
    need(status == 201, f"create thread: {status} {free}")
    free = free["thread_id"]
    threads = {title: nudge_thread(title) for _, _, title, _ in TURNS if title}
    warm_thread = nudge_thread(WARM_UP_REPLY[0])

    warm = [turn(warm_thread, WARM_UP_REPLY[1], "nudge"), turn(free, WARM_UP_FREE, "free")]
    for row in warm:
        show("warm-up", row)
    rows = []
    for kind, category, title, text in TURNS:
        row = turn(threads[title] if title else free, text, kind)
        row["category"] = category
        rows.append(row)
        show(str(len(rows)), row)

    latencies = sorted(r["latency_s"] for r in rows)
    median = (latencies[5] + latencies[6]) / 2
    unusable = sum(r["path"] == "llm_unavailable" for r in rows)
    violations = [(r["text"], v) for r in warm + rows for v in r["violations"]]

    def of(kind):
        chosen = [r for r in rows if r["kind"] == kind]
        evaluated = [r["evaluated_tokens"] for r in chosen if r["evaluated_tokens"] is not None]
        return {"median_s": percentile([r["latency_s"] for r in chosen], 0.5),
                "max_s": max(r["latency_s"] for r in chosen),
                "model_calls": sum(r["model_calls"] for r in chosen),
                "evaluated_tokens_median": percentile(evaluated, 0.5),
                "evaluated_tokens_max": max(evaluated) if evaluated else None}

    summary = {
        "turns": len(rows),
        "warm_up_s": [r["latency_s"] for r in warm],
        "warm_up_evaluated_tokens": [r["evaluated_tokens"] for r in warm],
        "median_s": round(median, 2),
        "p90_s": percentile(latencies, 0.9),
        "max_s": latencies[-1],
        "unusable": unusable,
        "model_calls": sum(r["model_calls"] for r in rows),
        "nudge_replies": of("nudge"),
        "free_messages": of("free"),
        "paths": {p: sum(r["path"] == p for r in rows) for p in sorted({str(r["path"]) for r in rows})},
        "safety_violations": len(violations),
        "load_average": os.getloadavg(),
        "target_met": median <= 3.0 and unusable <= 1,
    }
    finish_timed("12 turns, nudge replies and free messages taking turns", summary, {"summary": summary, "warm_up": warm, "rows": rows}, violations)


main()
