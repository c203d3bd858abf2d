# The deploy check, part 2: the service image run the way the rendered qa overlay runs the pod (its
# user, read-only root, memory limit, writable mounts and environment), with the reference parties,
# a Redis and a collector placeholder beside it on a network of its own. Sourced by .ci/deploy-check.

CHAT_BODY='{"propertyId": "1234567890123456789", "orgId": "9876543210987654321",
  "conversation_id": "1000000000000000001", "session_id": "fake_service_session_id",
  "graphql_api_key": "local-demo", "tourScheduleEnabled": true, "history": [],
  "message": "Do you have any 2 bedroom apartments available?"}'
CALLER_KEY=deploy-check-caller-key

# wait_for SECONDS COMMAND...: retries until the command succeeds.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" > /dev/null 2>&1; do [ $SECONDS -lt "$deadline" ] || return 1; sleep 1; done
}
http_ok() { curl -fsS -o /dev/null --max-time 5 "$1"; }
# chat PORT [CURL ARGS...]: one chat through 127.0.0.1:PORT; prints headers and body.
chat() {
  local port=$1
  shift
  curl -sS -i --max-time 30 "http://127.0.0.1:$port/chat_adapter" -H "authorization: Bearer $CALLER_KEY" \
    -H 'content-type: application/json' -d "$CHAT_BODY" "$@"
}
chat_answers() {
  local out
  out=$(chat "$1") || return 1
  head -n 1 <<< "$out" | grep -q ' 200' && tail -n 1 <<< "$out" | jq -e '.response | length > 0' > /dev/null || { echo "$out"; return 1; }
}
health_of() { docker inspect --format '{{.State.Health.Status}}' "$1"; }
is_healthy() { [ "$(health_of "$1")" = healthy ]; }

check_image_as_deployed() {
  local settings run_args=() name value path port container=deploy-check-service
  settings=$(node "$ROOT/scripts/deploy-check/pod-settings.ts" "$WORK/k8s-qa.yaml") || { fail "read the qa overlay's pod settings"; return; }
  # A pod's memory limit allows no swap on top.
  run_args+=(--user "$(jq -r .user <<< "$settings")" --memory "$(jq -r .memoryLimitBytes <<< "$settings")"
    --memory-swap "$(jq -r .memoryLimitBytes <<< "$settings")")
  [ "$(jq -r .readOnlyRootFilesystem <<< "$settings")" = true ] && run_args+=(--read-only)
  # emptyDir volumes: writable by the pod's user (an anonymous volume keeps the image's owner).
  while read -r path; do run_args+=(--mount "type=volume,destination=$path"); done < <(jq -r '.writablePaths[]' <<< "$settings")
  while IFS=$'\t' read -r name value; do run_args+=(--env "$name=$value"); done < <(jq -r '.env | to_entries[] | [.key, .value] | @tsv' <<< "$settings")
  # Each key the pod reads from its Secret, as an operator's Secret would hold it: a signing secret in
  # the Standard Webhooks form; the Redis passwords, optional, left out (the Redis beside it has none).
  while read -r name; do
    case "$name" in
      REDIS_PASSWORD|REDIS_SENTINEL_PASSWORD) ;;
      HANDOFF_SIGNING_SECRET) run_args+=(--env "$name=whsec_$(head -c 32 /dev/urandom | base64 -w0)") ;;
      *) run_args+=(--env "$name=deploy-check-$name") ;;
    esac
  done < <(jq -r '.secretEnv[]' <<< "$settings")
  # Addresses of what the cluster would provide: the parties, Redis and the collector beside it.
  run_args+=(--env ENGINE_URL=http://parties:6101 --env GRAPHQL_URL=http://parties:6102/graphql --env HANDOFF_URL=http://parties:6103
    --env PROPERTY_API_URL=http://parties:6104 --env TRANSLATE_URL=http://parties:6105 --env REDIS_URL=redis://redis:6379
    --env OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4318 --env CALLER_API_KEYS=deploy-check:$CALLER_KEY)

  docker network create deploy-check-run > /dev/null
  docker run -d --name deploy-check-parties --network deploy-check-run --network-alias parties chat-adapter-parties:local > /dev/null
  docker run -d --name deploy-check-redis --network deploy-check-run --network-alias redis "$(image_of redis)" > /dev/null
  docker run -d --name deploy-check-collector --network deploy-check-run --network-alias otel-collector "$(image_of otel-collector)" > /dev/null
  if ! docker run -d --name "$container" --network deploy-check-run --publish "127.0.0.1::$(jq -r .containerPort <<< "$settings")" \
    "${run_args[@]}" chat-adapter:local > "$WORK/run.log" 2>&1; then
    fail "docker run as the pod runs it"; indent < "$WORK/run.log"; return
  fi
  port=$(docker port "$container" "$(jq -r .containerPort <<< "$settings")/tcp" | head -n 1 | sed 's/.*://')

  check "runs as uid 1000, read-only root, 512 MiB, heap ceiling from NODE_OPTIONS" runs_confined "$container" "$settings"
  check "GET /heartbeat answers 200" wait_for 30 http_ok "http://127.0.0.1:$port/heartbeat"
  check "GET /ready answers 200 (parties and Redis reached)" wait_for 30 http_ok "http://127.0.0.1:$port/ready"
  check "a chat is answered" chat_answers "$port"
  check "the image's HEALTHCHECK at the default port (6000) becomes healthy" wait_for 60 is_healthy "$container"
  check "docker stop: exit code 0, shutdown logged" graceful_stop "$container"
  docker rm -f deploy-check-parties deploy-check-redis deploy-check-collector "$container" > /dev/null 2>&1
  docker network rm deploy-check-run > /dev/null 2>&1
}

runs_confined() {
  local container=$1 settings=$2 heap_limit options
  [ "$(docker exec "$container" awk '/^Uid:/ {print $2}' /proc/1/status)" = "$(jq -r .user <<< "$settings")" ] || { echo "PID 1 is not uid $(jq -r .user <<< "$settings")"; return 1; }
  docker exec "$container" sh -c 'touch /app/written 2>/dev/null' && { echo "the root filesystem is writable"; return 1; }
  docker exec "$container" sh -c 'touch /app/data/written /tmp/written' || { echo "a writable mount is not writable"; return 1; }
  [ "$(docker inspect --format '{{.HostConfig.Memory}}' "$container")" = "$(jq -r .memoryLimitBytes <<< "$settings")" ] || { echo "memory limit not applied"; return 1; }
  options=$(docker exec "$container" sh -c 'tr "\0" "\n" < /proc/1/environ | grep ^NODE_OPTIONS=')
  [ "$options" = "NODE_OPTIONS=$(jq -r .env.NODE_OPTIONS <<< "$settings")" ] || { echo "PID 1 has $options"; return 1; }
  # The ceiling V8 derives from it, in a process started like PID 1's environment.
  heap_limit=$(docker exec "$container" node -p 'Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20)')
  [ "$heap_limit" -lt $(($(jq -r .memoryLimitBytes <<< "$settings") / 2 ** 20)) ] || { echo "V8 heap limit $heap_limit MiB is not inside the memory limit"; return 1; }
  echo "heap limit $heap_limit MiB"
}

graceful_stop() {
  local container=$1 code
  docker stop --time 30 "$container" > /dev/null || return 1
  code=$(docker inspect --format '{{.State.ExitCode}} {{.State.OOMKilled}}' "$container")
  docker logs "$container" > "$WORK/service.log" 2>&1
  [ "$code" = "0 false" ] || { echo "exit code / OOM killed: $code"; tail -n 20 "$WORK/service.log"; return 1; }
  grep -q '"msg":"shutting down: chats in flight are answered first"' "$WORK/service.log" && grep -q '"msg":"service stopped"' "$WORK/service.log" \
    || { echo "no shutdown in the log:"; tail -n 20 "$WORK/service.log"; return 1; }
}
