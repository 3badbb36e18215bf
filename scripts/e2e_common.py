"""Helpers shared by the real-model end-to-end scripts (real_llm_e2e.py, real_llm_capture.py,
real_llm_everyday.py, real_llm_interleaved.py): HTTP calls to a running Donna, aborting on a
failed set-up step, a nearest-rank percentile, and the end of a timed run."""

import json
import os
import sys
import urllib.error
import urllib.request


def caller(base):
    """A `call(method, path, body=None) -> (status, json)` for the Donna at `base`."""

    def call(method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                return error.code, json.loads(error.read() or b"null")
            except ValueError:
                return error.code, None

    return call


def need(condition, message):
    """Set-up steps (creating a task, a thread, a nudge) must work: abort otherwise."""
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


def percentile(values, fraction):
    """Nearest-rank percentile of `values` (any order); None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def finish_timed(headline, summary, payload, violations):
    """Ends a timed run (12 turns: median <= 3 s with at most 1 unusable answer): prints the
    headline, whether the target was met and the figures, writes `payload` to RESULTS_JSON when
    that is set, and exits 1 when any safety violation ((text, violation) pairs) was counted."""
    print()
    print(f"{headline}: median {summary['median_s']} s, p90 {summary['p90_s']} s, "
          f"max {summary['max_s']} s; unusable {summary['unusable']}; "
          f"{summary['model_calls']} model calls; load average {os.getloadavg()[0]:.2f}")
    print(f"target (median <= 3 s, at most 1 unusable): {'met' if summary['target_met'] else 'MISSED'}")
    print(json.dumps(summary, indent=2))
    results_path = os.environ.get("RESULTS_JSON")
    if results_path:
        with open(results_path, "w") as out:
            json.dump(payload, out, indent=2)
    if violations:
        print(f"FAILED: {len(violations)} safety violation(s)")
        for text, violation in violations:
            print(f"- {text!r}: {violation}")
        sys.exit(1)
