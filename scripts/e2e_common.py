"""Helpers shared by the real-model end-to-end scripts (real_llm_e2e.py, real_llm_capture.py):
HTTP calls to a running Donna, aborting on a failed set-up step, and a nearest-rank percentile."""

import json
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
