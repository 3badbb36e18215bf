"""Drives `donna run` (configured with a real local model) through a fixed list of replies and
checks what must hold whatever the model says. Used by scripts/real_llm_e2e.sh."""

import json
import sys
import time
import urllib.error
import urllib.request

BASE = sys.argv[1]

# Actions the shipped registry knows, with the parameters a model may set.
REGISTRY = {
    "mark_done": set(),
    "reschedule": {"when"},
    "create_task": {"title", "domain", "priority", "due_by"},
    "rename_task": {"new_title"},
    "snooze": {"duration_hours"},
    "cancel_task": set(),
}
PATHS = {"fast", "llm", "plan_confirmed", "plan_rejected", "plan_expired", "clarify",
         "llm_unavailable", "unhandled", "skipped", "undone"}

# Replies the keyword layer cannot take (too long, multi-intent, or no keyword): they reach the model.
REPLIES = [
    "I paid it this morning, and rename it to Pay rent for December",
    "Can you rename this to Call the landlord about the heating",
    "I finished it yesterday evening actually, all sorted",
    "hmm I'm not sure I can do this today, maybe friday afternoon works better",
    "it's done but I also need to email the receipt to Anna",
    "please move it to next week, I'm travelling",
    "what was this about again?",
    "I already did that, thanks for the reminder!",
    "change the title to Renew passport before March",
    "snooze it for a few hours please, I'm in meetings",
    "I'm not going to do this one, drop it completely",
    "ugh, give me until tomorrow morning",
    "thanks, I'll get to it after lunch",
    "add a task to buy milk on the way home",
    "done, and can you remind me about the gas bill too",
    "the shop was closed, I'll try again on saturday",
    "rename it to Pay rent (December) and push it to monday",
    "I have no idea what you're talking about",
    "yes I did it, finally",
    "can you make it a work task instead",
    "it's half done, need another hour tomorrow",
    "please just cancel this task, it's no longer needed",
    "I'll do it when I'm back from the gym around 7pm",
    "I need to rename this: Book dentist appointment",
    "it got postponed by the bank, try next month",
    "I forgot completely, sorry, doing it now",
    "could you remind me again in 2 hours",
    "the landlord said I can pay next friday instead",
    "mark it done please, and thanks",
    "I'm sick today, let's move everything to tomorrow",
    "call it Quarterly taxes and move it to december 1st",
    "what's the deadline on this?",
    "honestly I keep forgetting about this one",
    "my landlord wants it by bank transfer now, what should I do",
    "I've asked my partner to handle it this month",
    "remind me what the amount was?",
    "it's partially paid, the rest comes next week",
    "the bank app was down all morning",
    "can we split this into two tasks, one for each flat",
    "not sure, I'll check with Anna first",
    "make it high priority please",
    "this one can wait until my salary comes in",
]


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def check(condition, message):
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


def main():
    llm_turns = plans = unavailable = clarify = confirmed = 0
    latencies = []
    for index, reply in enumerate(REPLIES):
        status, task = call("POST", "/api/tasks", {"title": f"Pay rent {index}", "deadline": "2026-01-01T09:00:00Z"})
        check(status == 201, f"create task: {status} {task}")
        status, nudge = call("POST", "/api/nudges", {"task_id": task["id"]})
        check(status == 201, f"nudge: {status} {nudge}")
        thread = nudge["thread_id"]
        before = call("GET", f"/api/tasks/{task['id']}")[1]
        started = time.monotonic()
        status, result = call("POST", "/api/messages", {"thread_id": thread, "user_id": "me", "text": reply})
        elapsed = time.monotonic() - started
        check(status == 200, f"message: {status} {result}")
        for key in ("thread_id", "message_id", "path", "reply", "actions", "pending_plan_id", "results"):
            check(key in result, f"missing {key}: {result}")
        check(result["path"] in PATHS, f"unknown path: {result}")
        path = result["path"]
        print(f"[{elapsed:5.1f}s] {path:15} {reply!r} -> {str(result['reply'])[:100]!r}")
        if path == "fast":
            continue
        llm_turns += 1
        latencies.append(elapsed)
        after = call("GET", f"/api/tasks/{task['id']}")[1]
        for field in ("status", "title", "scheduled_start", "snoozed_until"):
            check(after[field] == before[field], f"{field} changed before any confirmation: {after}")
        if path == "llm_unavailable":
            unavailable += 1
        if path == "clarify":
            clarify += 1
        if result["pending_plan_id"]:
            plans += 1
            for action in result["actions"]:
                check(action["name"] in REGISTRY, f"unregistered action in a plan: {action}")
                extra = set(action["params"]) - REGISTRY[action["name"]] - {"task_id"}
                check(not extra, f"unknown parameters {extra} in {action}")
                if "task_id" in action["params"]:
                    check(action["params"]["task_id"] == task["id"], f"plan aims at another task: {action}")
            if confirmed < 3:
                status, yes = call("POST", "/api/messages", {"thread_id": thread, "user_id": "me", "text": "yes"})
                check(status == 200 and yes["path"] == "plan_confirmed", f"confirm: {yes}")
                check(len(yes["results"]) == len(result["actions"]), f"one result per action: {yes}")
                confirmed += 1
                print(f"          confirmed: {[r['message'] for r in yes['results']]}")
    _, metrics_text = 0, urllib.request.urlopen(BASE + "/metrics", timeout=30).read().decode()
    invalid = sum(float(line.split()[-1]) for line in metrics_text.splitlines()
                  if line.startswith('donna_llm_failures_total{kind="invalid_output"}'))
    calls = sum(float(line.split()[-1]) for line in metrics_text.splitlines()
                if line.startswith("donna_llm_calls_total"))
    latencies.sort()
    summary = {
        "replies": len(REPLIES),
        "model_turns": llm_turns,
        "valid_output_rate": round(1 - invalid / calls, 3) if calls else None,
        "llm_unavailable": unavailable,
        "clarify": clarify,
        "plans": plans,
        "plan_rate": round(plans / llm_turns, 3) if llm_turns else None,
        "plans_confirmed_and_executed": confirmed,
        "latency_p50_s": round(latencies[len(latencies) // 2], 2) if latencies else None,
        "latency_max_s": round(latencies[-1], 2) if latencies else None,
    }
    print(json.dumps(summary, indent=2))
    check(llm_turns >= 30, f"fewer than 30 replies reached the model ({llm_turns})")
    check(confirmed >= 1, "no plan was proposed, confirmed and executed")
    print("real model end-to-end: OK")


main()
