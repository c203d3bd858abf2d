# The deploy check, part 3: deploy/compose as it is (images built above, stand-ins for the
# third-party ones): `up --wait`, every health check healthy, three replicas ready, an
# Idempotency-Key replayed by another replica, Prometheus scraping all three. Sourced by .ci/deploy-check.

COMPOSE_CALLER_KEY=compose-demo-caller-key

replica_port() { compose port --index "$1" chat-adapter 6000 | sed 's/.*://'; }
# The stack as it is, but every published port on a free loopback port of Docker's choosing: the
# check must not depend on 8080-8082, 6102 or 9090 being free (a local stack may hold 6101-6105).
write_host_ports_override() {
  compose config --format json | jq -r '"services:", (.services | to_entries[] | select(.value.ports)
    | "  \(.key):", "    ports: !override", (.value.ports[] | "      - \"127.0.0.1::\(.target)\""))' > "$WORK/host-ports.yaml"
}
all_healthy() {
  compose ps --all --format json | jq -s -e 'flatten | (map(select(.Service == "chat-adapter" and .Health == "healthy")) | length) == 3
    and all(.[]; .State == "running" and (.Health == "" or .Health == "healthy"))' > /dev/null \
    || { compose ps --all; return 1; }
}
replicas_ready() {
  local index
  for index in 1 2 3; do http_ok "http://127.0.0.1:$(replica_port $index)/ready" || { echo "replica $index not ready"; return 1; }; done
}
# The same Idempotency-Key and body on two replicas: the second answers with the first's kept answer.
replayed_across_replicas() {
  local key first second
  key="deploy-check-$(date +%s%N)"
  first=$(CALLER_KEY=$COMPOSE_CALLER_KEY chat "$(replica_port 1)" -H "idempotency-key: $key") || return 1
  second=$(CALLER_KEY=$COMPOSE_CALLER_KEY chat "$(replica_port 2)" -H "idempotency-key: $key") || return 1
  head -n 1 <<< "$first" | grep -q ' 200' || { echo "$first"; return 1; }
  grep -qi '^idempotent-replayed: true' <<< "$second" || { echo "no replay header from replica 2:"; echo "$second"; return 1; }
  [ "$(tail -n 1 <<< "$first")" = "$(tail -n 1 <<< "$second")" ] || { echo "bodies differ"; return 1; }
}
scraping_three() {
  curl -fsS --max-time 5 "http://127.0.0.1:$(compose port prometheus 9090 | sed 's/.*://')/api/v1/targets" \
    | jq -e '[.data.activeTargets[] | select(.labels.job == "chat-adapter" and .health == "up")] | length == 3' > /dev/null
}

check_compose_stack() {
  write_host_ports_override
  if compose up --detach --no-build --wait --wait-timeout 150 > "$WORK/compose-up.log" 2>&1; then
    pass "docker compose up --wait"
  else
    fail "docker compose up --wait"; indent < "$WORK/compose-up.log"; compose ps --all | indent
    compose logs --no-color --tail 15 | indent
  fi
  check "every health check healthy, three chat-adapter replicas" all_healthy
  check "three replicas ready" replicas_ready
  check "an Idempotency-Key replayed across replicas" replayed_across_replicas
  check "Prometheus scrapes all three replicas" wait_for 60 scraping_three
  compose down --volumes --timeout 20 > /dev/null 2>&1
}
