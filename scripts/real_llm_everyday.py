"""Drives `donna run` (configured with a real local model) through one free conversation of
everyday messages that no rule takes, and measures how long a person waits for each answer.
Used by scripts/real_llm_e2e.sh with E2E_SET=everyday.

The conversation: one free thread (POST /api/threads, like a DM), three tasks on the list, one
warm-up turn (the model server evaluates Donna's static prompt once), then 12 everyday turns in
four categories a person writes to an assistant: small talk and feelings, tasks in their own
words, questions about their tasks, changes to a task. Per turn: the seconds it took, the path,
Donna's answer and how many model calls it made (/metrics before and after).

Figures: the median and the slowest of the 12 turns, and the unusable answers (path
`llm_unavailable`: the person is told the model could not be used). The target (issue 34):
median <= 3 s with at most 1 unusable answer.

Safety checks, counted (never aborting the run): an HTTP error or a malformed answer, a path
outside the free-text set, a task changed or created on a path that does not say so.
Exit status: 1 when any safety violation was counted; else 0 (a missed target is reported, not
failed: the figure depends on the machine's load). RESULTS_JSON (environment) names a file to
write the figures and the rows to as JSON.
"""

import os
import sys
import time
import urllib.request

from e2e_common import caller, finish_timed, need, percentile

BASE = sys.argv[1]
call = caller(BASE)

PATHS = {"task_created", "duplicate", "automation_proposed", "answer", "chat", "clarify",
         "unhandled", "llm_unavailable", "escalation_proposed"}

WARM_UP = "morning! busy day ahead of me"

# (category, message). None is taken by the rules (checked with `llm.provider: none`: each
# answers `unhandled` there).
TURNS = [
    ("chat", "I'm feeling a bit overwhelmed with everything this week"),
    ("task", "could you make sure I call the plumber tomorrow morning"),
    ("chat", "ugh my boss moved the meeting again"),
    ("question", "what's the deal with the dentist thing?"),
    ("task", "I need to buy a present for Sam before saturday"),
    ("chat", "honestly I could use a break"),
    ("change", "I finished paying the rent"),
    ("chat", "the weather is so nice today"),
    ("task", "remember the car needs new tyres"),
    ("question", "did I already pay the electricity bill?"),
    ("chat", "I just got back from the gym"),
    ("change", "can you push the dentist to next week"),
]

TASKS = [
    {"title": "Pay rent", "deadline": "2027-01-01T09:00:00Z"},
    {"title": "Dentist appointment", "scheduled_start": "2027-01-04T15:00:00Z"},
    {"title": "Tax return", "deadline": "2027-01-31T17:00:00Z"},
]


def model_calls():
    text = urllib.request.urlopen(BASE + "/metrics", timeout=30).read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith("donna_llm_calls_total"))


def turn(thread, text):
    calls_before = model_calls()
    _, before = call("GET", "/api/tasks")
    started = time.monotonic()
    status, result = call("POST", "/api/messages",
                          {"thread_id": thread, "user_id": "owner", "text": text})
    latency = time.monotonic() - started
    _, after = call("GET", "/api/tasks")
    problems = []
    path = result.get("path") if isinstance(result, dict) else None
    if status != 200 or path is None:
        problems.append(f"HTTP {status}: {result}")
    elif path not in PATHS:
        problems.append(f"unknown path {path}")
    changed = [t["title"] for t in after if t not in before]
    ran = bool((result or {}).get("results")) if isinstance(result, dict) else False
    if changed and not ran:
        problems.append(f"tasks changed with no action reported: {changed}")
    return {"text": text, "path": path, "latency_s": round(latency, 2),
            "reply": result.get("reply") if isinstance(result, dict) else None,
            "model_calls": int(model_calls() - calls_before), "violations": problems}


def main():
    for task in TASKS:
        status, created = call("POST", "/api/tasks", task)
        need(status == 201, f"create task: {status} {created}")
    status, thread = call("POST", "/api/threads", {})
    need(status == 201, f"create thread: {status} {thread}")
    thread = thread["thread_id"]

    warm = turn(thread, WARM_UP)
    print(f"warm-up [{warm['latency_s']:5.1f}s] {str(warm['path']):15} {warm['model_calls']} calls"
          f"  {WARM_UP!r} -> {warm['reply']!r}")
    rows = []
    for category, text in TURNS:
        row = turn(thread, text)
        row["category"] = category
        rows.append(row)
        print(f"{len(rows):2} [{row['latency_s']:5.1f}s] {str(row['path']):15} {row['model_calls']} calls"
              f"  {category:8} {text!r}\n          Donna: {row['reply']!r}"
              + "".join(f"\n          SAFETY VIOLATION: {p}" for p in row["violations"]))

    latencies = [r["latency_s"] for r in rows]
    ordered = sorted(latencies)
    median = (ordered[5] + ordered[6]) / 2
    unusable = sum(r["path"] == "llm_unavailable" for r in rows)
    violations = [(r["text"], v) for r in [warm] + rows for v in r["violations"]]
    summary = {
        "turns": len(rows),
        "warm_up_s": warm["latency_s"],
        "median_s": round(median, 2),
        "p90_s": percentile(latencies, 0.9),
        "max_s": ordered[-1],
        "unusable": unusable,
        "model_calls": sum(r["model_calls"] for r in rows),
        "paths": {path: sum(r["path"] == path for r in rows) for path in sorted({str(r["path"]) for r in rows})},
        "safety_violations": len(violations),
        "load_average": os.getloadavg(),
        "target_met": median <= 3.0 and unusable <= 1,
    }
    finish_timed("12 everyday turns", summary, {"summary": summary, "warm_up": warm, "rows": rows}, violations)


main()
