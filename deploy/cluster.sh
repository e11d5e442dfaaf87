#!/usr/bin/env bash
# Start a distributed deployment on this machine: N API nodes (ports BASE_PORT, BASE_PORT+1, …)
# and M workers (metrics on METRICS_BASE_PORT, METRICS_BASE_PORT+1, …), against local Redis and
# PostgreSQL and an S3 endpoint (s3rver on S3_PORT, objects in DATA_DIR/s3rver, unless S3_ENDPOINT
# is set). On a fresh database the first API node prints an API key and a dashboard link. Ctrl-C
# (or SIGTERM) stops everything gracefully.
#
#   deploy/cluster.sh 2 2            # 2 API nodes, 2 workers
#   BASE_PORT=9100 METRICS_BASE_PORT=9200 S3_PORT=9300 deploy/cluster.sh 3 4
set -euo pipefail
cd "$(dirname "$0")/.."

api_nodes=${1:-2}
workers=${2:-2}
base_port=${BASE_PORT:-8081}
metrics_base_port=${METRICS_BASE_PORT:-9091}
s3_port=${S3_PORT:-9000}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
export S3_BUCKET=${S3_BUCKET:-sha224d}
export S3_ACCESS_KEY_ID=${S3_ACCESS_KEY_ID:-S3RVER}
export S3_SECRET_ACCESS_KEY=${S3_SECRET_ACCESS_KEY:-S3RVER}
export BOOTSTRAP_ADMIN=${BOOTSTRAP_ADMIN:-true}
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true

pids=()
stop() {
  trap - INT TERM EXIT
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait || true
}
trap stop INT TERM EXIT

if [ -z "${S3_ENDPOINT:-}" ]; then
  s3_dir=${DATA_DIR:-data}/s3rver
  mkdir -p "$s3_dir"
  node node_modules/s3rver/bin/s3rver.js --directory "$s3_dir" --address 127.0.0.1 --port "$s3_port" --configure-bucket "$S3_BUCKET" --silent &
  pids+=($!)
  export S3_ENDPOINT=http://127.0.0.1:$s3_port
  sleep 1
fi

# CLUSTER_BUILD=false skips the build (dist/ already built, e.g. by the test suite).
[ "${CLUSTER_BUILD:-true}" = false ] || node deploy/build.mjs
for i in $(seq 0 $((api_nodes - 1))); do
  PORT=$((base_port + i)) node --max-semi-space-size=32 dist/api.js &
  pids+=($!)
done
# Each worker's /metrics listener needs a port of its own on this host (docs/operating.md).
for i in $(seq 0 $((workers - 1))); do
  METRICS_PORT=$((metrics_base_port + i)) node --max-semi-space-size=32 dist/worker.js &
  pids+=($!)
done
echo "API nodes on ports $base_port..$((base_port + api_nodes - 1)); $workers workers (metrics on $metrics_base_port..$((metrics_base_port + workers - 1))); S3 at $S3_ENDPOINT. On a fresh database the first API node prints an API key; otherwise: npm run admin -- accounts create --name me --plan pro"
wait
