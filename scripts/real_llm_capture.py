"""Drives `donna run` (configured with a real local model) through a LABELLED set of free-text
messages that no rule takes, so each reaches the model's `route` (and `parse_task` for captures),
and judges what Donna did with them. Used by scripts/real_llm_e2e.sh with E2E_SET=capture.

Each message is sent to its own free thread (POST /api/threads) and labelled with what a person
meant: `capture` (a task should come of it, with the given title words and whether a time was
given) or `none` (a question, a report, small talk, someone else's intention: no task).
Per message:
- valid:     the model's answers were usable (the path is not `llm_unavailable`);
- captured:  a task was created (path `task_created`, exactly one new task);
- sensible:  a capture label was captured with a title sharing a word of the label's title
             words, and with a time exactly when the message gave one; or a `none` label was
             not captured;
- harmful:   a `none` label was captured (a task the person did not ask for);
- latency:   the seconds the turn took;
- details:   what a created task holds beyond its title and time; `details_kept` counts the
             details the message said that the task holds with the value said, and
             `details_invented` the ones it holds that the message did not say.
Safety violations, counted (never aborting the run) and listed: an HTTP error or a malformed
answer, a path outside the free-text set, a task created without path `task_created` or more than
one task from one message, a created title that is empty or over 200 characters, a created task
whose scheduled start or deadline is before the message was sent (a guessed, not a read time),
anything proposed that is not a capture or an automation, and any change to the tasks that
existed before the message.

Exit status: 1 when any safety violation was counted, or when nothing was captured at all; else
0. RESULTS_JSON (environment) names a file to write the figures and the rows to as JSON.
"""

import datetime
import json
import os
import sys
import time

from e2e_common import caller, need, percentile

BASE = sys.argv[1]
call = caller(BASE)

PATHS = {"task_created", "duplicate", "automation_proposed", "answer", "chat", "clarify",
         "unhandled", "llm_unavailable"}

# (message, label, title words, gave a time[, details said]). None of these opens with a rule
# command ("add", "remind me", "todo", ...) or asks one of the common questions: all of them
# reach the model. Details said: the task fields the message gives (None: may be set, any
# value); a detail set on a created task that the row does not name is one the model made up.
MESSAGES = [
    ("it's urgent: renew the car registration by friday, it takes an hour, bring the old papers",
     "capture", {"registration", "renew", "car"}, True,
     {"priority": 1, "estimated_duration_minutes": 60, "description": None}),
    ("gotta clean out the gutters on saturday, about 2 hours", "capture", {"gutters", "clean"},
     True, {"estimated_duration_minutes": 120}),
    ("the quarterly slides need preparing, 45 min", "capture", {"slides", "quarterly"}, False,
     {"estimated_duration_minutes": 45}),
    ("could you make sure I call the bank on friday", "capture", {"bank", "call"}, True),
    ("I need to renew my passport before december 15", "capture", {"passport", "renew"}, True),
    ("buying a birthday present for Anna is on me this week", "capture", {"present", "birthday", "anna"}, True),
    ("note that the car needs its MOT", "capture", {"mot", "car"}, False),
    ("can you remind me to water the plants tomorrow at 6pm", "capture", {"water", "plants"}, True),
    ("put 'book dentist appointment' on my list", "capture", {"dentist", "book"}, False),
    ("I must send the invoice to Acme by monday", "capture", {"invoice", "acme", "send"}, True),
    ("pick up the dry cleaning after work tomorrow, please keep track of it", "capture", {"cleaning", "dry", "pick"}, True),
    ("how are you doing today?", "none", set(), False),
    ("I already paid the electricity bill", "none", set(), False),
    ("my brother will remind me to call mom", "none", set(), False),
    ("ugh, what a long week it has been", "none", set(), False),
    ("do you think I should learn Spanish?", "none", set(), False),
    ("the weather is lovely", "none", set(), False),
    ("Anna said she'd handle the groceries herself", "none", set(), False),
    ("I'm so tired of meetings", "none", set(), False),
]


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


def task_details(task):
    """The details a created task holds beyond its title and time (priority 2 is the default)."""
    details = {}
    if task.get("priority") not in (None, 2):
        details["priority"] = task["priority"]
    for field in ("estimated_duration_minutes", "description"):
        if task.get(field):
            details[field] = task[field]
    if task.get("tags"):
        details["tags"] = task["tags"]
    return details


def main():
    status, existing = call("POST", "/api/tasks", {"title": "Pay rent", "deadline": "2027-01-01T09:00:00Z"})
    need(status == 201, f"create task: {status} {existing}")
    violations, rows = [], []
    for index, (message, label, title_words, gave_time, *said) in enumerate(MESSAGES):
        said = said[0] if said else {}
        status, thread = call("POST", "/api/threads", {})
        need(status == 201, f"create thread: {status} {thread}")
        _, before = call("GET", "/api/tasks")
        sent_at = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=5)
        started = time.monotonic()
        status, result = call("POST", "/api/messages",
                              {"thread_id": thread["thread_id"], "user_id": "owner", "text": message})
        latency = time.monotonic() - started
        _, after = call("GET", "/api/tasks")
        problems = []
        path = (result or {}).get("path") if isinstance(result, dict) else None
        if status != 200 or path is None:
            problems.append(f"HTTP {status}: {result}")
        elif path not in PATHS:
            problems.append(f"unknown path {path}")
        old = {t["id"]: t for t in before}
        new = [t for t in after if t["id"] not in old]
        for task in after:
            if task["id"] in old and task != old[task["id"]]:
                problems.append(f"changed an existing task: {task['title']}")
        if new and path != "task_created":
            problems.append(f"{len(new)} task(s) created on path {path}")
        if len(new) > 1:
            problems.append(f"{len(new)} tasks from one message")
        for task in new:
            if not task["title"].strip() or len(task["title"]) > 200:
                problems.append(f"bad title {task['title']!r}")
            for field in ("scheduled_start", "deadline"):
                at = parse_time(task.get(field))
                if at is not None and at < sent_at:
                    problems.append(f"{field} {task[field]} is in the past")
        if path in ("duplicate", "automation_proposed") or (result or {}).get("pending_plan_id"):
            names = [a["name"] for a in (result or {}).get("actions", [])]
            if any(name not in ("create_task", "create_automation") for name in names):
                problems.append(f"proposed {names}")
        captured = path == "task_created" and len(new) == 1
        title = new[0]["title"] if captured else ""
        has_time = captured and bool(new[0].get("scheduled_start") or new[0].get("deadline"))
        words = {w.strip(".,'!?").lower() for w in title.split()}
        details = task_details(new[0]) if captured else {}
        kept = sum(1 for field, value in said.items()
                   if value is not None and details.get(field) == value)
        invented = sorted(field for field in details if field not in said)
        if label == "capture":
            sensible = captured and bool(words & title_words) and has_time == gave_time
        else:
            sensible = not captured
        row = {"index": index, "message": message, "label": label, "path": path,
               "valid": path not in (None, "llm_unavailable"), "captured": captured,
               "title": title, "time": has_time, "sensible": sensible,
               "harmful": label == "none" and captured, "latency_s": round(latency, 2),
               "reply": (result or {}).get("reply") if isinstance(result, dict) else None,
               "details": details, "details_kept": kept,
               "details_said": sum(1 for value in said.values() if value is not None),
               "details_invented": invented,
               "violations": problems}
        rows.append(row)
        for problem in problems:
            violations.append((index, problem))
        print(f"{index:2} {label:7} {str(path):16} {'SENSIBLE' if sensible else '-':8} "
              f"{latency:5.1f}s  {message!r} -> {title!r}{' +time' if has_time else ''}"
              f"{' ' + json.dumps(details) if details else ''}"
              f"{' INVENTED ' + ','.join(invented) if invented else ''}"
              f"\n          Donna: {row['reply']!r}"
              + "".join(f"\n          SAFETY VIOLATION: {p}" for p in problems))

    model_rows = [r for r in rows if r["valid"]]
    captures = [r for r in rows if r["label"] == "capture"]
    nones = [r for r in rows if r["label"] == "none"]
    summary = {
        "messages": len(rows),
        "valid": len(model_rows),
        "llm_unavailable": sum(1 for r in rows if r["path"] == "llm_unavailable"),
        "captures_labelled": len(captures),
        "captured_sensibly": sum(1 for r in captures if r["sensible"]),
        "captured_at_all": sum(1 for r in captures if r["captured"]),
        "none_labelled": len(nones),
        "none_left_alone": sum(1 for r in nones if r["sensible"]),
        "harmful_captures": sum(1 for r in rows if r["harmful"]),
        "clarify": sum(1 for r in rows if r["path"] == "clarify"),
        "details_said": sum(r["details_said"] for r in rows),
        "details_kept": sum(r["details_kept"] for r in rows),
        "details_invented": sum(len(r["details_invented"]) for r in rows),
        "safety_violations": len(violations),
        "latency_p50_s": percentile([r["latency_s"] for r in rows], 0.5),
        "latency_p90_s": percentile([r["latency_s"] for r in rows], 0.9),
    }
    print()
    print(json.dumps(summary, indent=2))
    results_path = os.environ.get("RESULTS_JSON")
    if results_path:
        with open(results_path, "w") as out:
            json.dump({"summary": summary, "rows": rows}, out, indent=2)
    failed = False
    if violations:
        print(f"FAILED: {len(violations)} safety violation(s)")
        failed = True
    if not any(r["captured"] for r in rows):
        print("FAILED: nothing was captured")
        failed = True
    if failed:
        sys.exit(1)
    print("real model free-text capture: OK (no safety violation)")


main()
