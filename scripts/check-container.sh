#!/usr/bin/env bash
# The container files, as CI checks them (issue 14; docs/deployment.md). Where a Docker daemon answers: the image is
# built; run alone it serves on SQLite in its volume and backs itself up; compose.yaml starts it with PostgreSQL and
# Redis; Kassa is probed and called with the sandbox Owner key it printed; everything is removed again.
# Where none answers: a visible SKIPPED line. The offline checks (the Dockerfile and compose.yaml parsed and held
# against the repository and Kassa's configuration) run in npm test: test/repository/container-files.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! docker info >/dev/null 2>&1; then
  echo "SKIPPED: no Docker daemon (docker info does not answer): the image was not built and compose.yaml not started."
  echo "  The Dockerfile and compose.yaml were checked offline by npm test (test/repository/container-files.test.ts)."
  if docker compose version >/dev/null 2>&1; then
    docker compose -f compose.yaml config -q
    echo "compose.yaml: docker compose config -q passed"
  else
    echo "SKIPPED: docker compose config -q (no compose plugin)"
  fi
  exit 0
fi

IMAGE=kassa:local
PROJECT="kassa-check-$$"
ALONE="$PROJECT-sqlite"
# A free port on the host for compose's published port, and a password of this run's own for its PostgreSQL.
KASSA_HOST_PORT="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')"
POSTGRES_PASSWORD="$(node -e 'console.log(require("node:crypto").randomBytes(16).toString("hex"))')"
export KASSA_HOST_PORT POSTGRES_PASSWORD
compose=(docker compose -f compose.yaml -p "$PROJECT")

cleanup() {
  docker rm -f -v "$ALONE" >/dev/null 2>&1 || true
  "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
}
trap cleanup EXIT

fail() {
  echo "check-container: $*" >&2
  "${compose[@]}" logs --no-color --tail 100 >&2 || true
  docker logs --tail 100 "$ALONE" >&2 2>/dev/null || true
  exit 1
}

# GET a URL (with Basic credentials ACCESS_KEY:SECRET if given); prints the status, then the body.
get() {
  node -e '
    const [url, credentials] = process.argv.slice(1)
    const headers = credentials ? { authorization: "Basic " + Buffer.from(credentials).toString("base64") } : {}
    fetch(url, { headers }).then(async (response) => console.log(response.status + "\n" + (await response.text())), (error) => console.log("000\n" + error.message))
  ' "$@"
}

# Waits up to 180 s for GET URL to answer 200.
wait_ready() {
  for _ in $(seq 1 180); do
    [ "$(get "$1" | head -1)" = 200 ] && return 0
    sleep 1
  done
  fail "$1 did not answer 200 within 180 s"
}

echo "check-container: building $IMAGE"
docker build -t "$IMAGE" .
[ "$(docker run --rm --entrypoint id "$IMAGE" -u)" != 0 ] || fail "the image runs as root"

echo "check-container: the image alone, on SQLite in its volume"
docker run -d --name "$ALONE" -p 127.0.0.1::8080 "$IMAGE" >/dev/null
wait_ready "http://$(docker port "$ALONE" 8080/tcp | head -1)/readyz"
docker exec "$ALONE" node bin/kassa.js backup /var/lib/kassa/backup.sqlite | grep -q '^Backed up to /var/lib/kassa/backup.sqlite' ||
  fail "kassa backup did not write /var/lib/kassa/backup.sqlite"

echo "check-container: compose.yaml with PostgreSQL and Redis on 127.0.0.1:$KASSA_HOST_PORT"
"${compose[@]}" up -d --wait --wait-timeout 300 || fail "compose did not become healthy"
BASE="http://127.0.0.1:$KASSA_HOST_PORT"
wait_ready "$BASE/readyz"
logs="$("${compose[@]}" logs --no-color kassa)"
access_key="$(sed -n 's/.*accessKey: *\([A-Z0-9]*\).*/\1/p' <<<"$logs" | head -1)"
secret="$(sed -n 's/.*secret: *\([A-Za-z0-9_-]*\).*/\1/p' <<<"$logs" | head -1)"
{ [ -n "$access_key" ] && [ -n "$secret" ]; } || fail "kassa printed no sandbox Owner key"
[ "$(get "$BASE/financial-data/v2/accounts" | head -1)" = 401 ] || fail "an unauthenticated request was not refused with 401"
accounts="$(get "$BASE/financial-data/v2/accounts" "$access_key:$secret")"
[ "$(head -1 <<<"$accounts")" = 200 ] || fail "GET /financial-data/v2/accounts with the sandbox key: $accounts"
grep -q '"items":\[{' <<<"$accounts" || fail "the sandbox organization lists no account: $accounts"
echo "check-container: passed (image built, SQLite alone and compose with PostgreSQL and Redis served an authenticated request)"
