/**
 * What can be checked of deploy/ without Docker or a cluster: every file parses, every variable the
 * manifests set is one the service reads (a typo would be silently ignored), every variable required
 * outside `local` is set, ports and probe paths are the service's, the shutdown budget fits.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readRedisTarget } from '../../src/config/redis-target.ts';

const root = join(import.meta.dirname, '../..');
const deployDir = join(root, 'deploy');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

type Doc = Record<string, any>;
function yamlDocs(path: string): Doc[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${relative(root, path)}: ${doc.errors[0]?.message}`);
    return doc.toJS() as Doc;
  });
}

/** Every environment variable name the service's configuration module reads. */
function variablesTheServiceReads(): Set<string> {
  const configDir = join(root, 'src/config');
  const names = new Set<string>();
  for (const file of filesUnder(configDir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/'([A-Z][A-Z0-9_]{3,})'/g)) names.add(match[1]!);
  }
  return names;
}

const k8s = (path: string) => yamlDocs(join(deployDir, 'kubernetes', path));
const deployment = k8s('base/deployment.yaml')[0]!;
const container = deployment['spec']['template']['spec']['containers'][0];
const compose = yamlDocs(join(deployDir, 'compose/compose.yaml'))[0]!;

/** Variables each way of running sets: the compose service, and each overlay on top of the base. */
function setByCompose(): Record<string, string> {
  return compose['services']['chat-adapter']['environment'];
}
function setByOverlay(env: string): Record<string, string> {
  const base = k8s('base/configmap.yaml')[0]!['data'] as Record<string, string>;
  const overlay = k8s(`overlays/${env}/config.yaml`)[0]!['data'] as Record<string, string>;
  const fromSecret = Object.fromEntries((container['env'] as Array<{ name: string }>).map((e) => [e.name, '(secret)']));
  return { ...base, ...overlay, ...fromSecret };
}

describe('deploy/ manifests', () => {
  it('every YAML and JSON file parses', () => {
    const files = filesUnder(deployDir);
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      if (/\.ya?ml$/.test(file)) expect(yamlDocs(file).length, relative(root, file)).toBeGreaterThan(0);
      else if (file.endsWith('.json')) expect(() => JSON.parse(readFileSync(file, 'utf8')), relative(root, file)).not.toThrow();
    }
  });

  it('sets only variables the service reads, and every one it requires outside local', () => {
    // NODE_OPTIONS is read by Node itself (the heap ceiling), not by the service's configuration.
    const known = new Set([...variablesTheServiceReads(), 'NODE_OPTIONS']);
    const required = ['ENVIRONMENT', 'GRAPHQL_AUTHORIZATION', 'GRAPHQL_API_KEY'];
    const runs: Array<[string, Record<string, string>]> = [
      ['compose', setByCompose()],
      ...['qa', 'staging', 'prod'].map((env): [string, Record<string, string>] => [`kubernetes ${env}`, setByOverlay(env)]),
    ];
    for (const [run, vars] of runs) {
      expect(Object.keys(vars).filter((name) => !known.has(name)), `${run}: variables the service does not read`).toEqual([]);
      for (const name of required) expect(vars, `${run} sets ${name}`).toHaveProperty(name);
      expect(vars['ENVIRONMENT'], run).not.toBe('local');
    }
    for (const env of ['qa', 'staging', 'prod']) expect(setByOverlay(env)['ENVIRONMENT']).toBe(env);
  });

  it('wires Redis and the OpenTelemetry collector in every run', () => {
    for (const vars of [setByCompose(), setByOverlay('qa'), setByOverlay('staging'), setByOverlay('prod')]) {
      expect(vars['REDIS_URL']).toMatch(/^redis:\/\//);
      expect(vars['OTEL_EXPORTER_OTLP_ENDPOINT']).toMatch(/^http:\/\/.+:4318$/);
    }
    const redisCommand = (compose['services']['redis']['command'] as string[]).join(' ');
    expect(redisCommand).toContain('--appendonly yes');
    expect(redisCommand).toContain('--maxmemory-policy noeviction');
    expect(compose['services']['chat-adapter']['deploy']['replicas']).toBe(3);
  });

  it('probes the service on its port: liveness /heartbeat, readiness /ready', () => {
    const port = Number(k8s('base/configmap.yaml')[0]!['data']['PORT']);
    expect(container['ports'][0]['containerPort']).toBe(port);
    expect(container['livenessProbe']['httpGet']['path']).toBe('/heartbeat');
    expect(container['readinessProbe']['httpGet']['path']).toBe('/ready');
    const service = k8s('base/service.yaml')[0]!;
    expect(service['spec']['ports'][0]['port']).toBe(port);
    expect(Number(setByCompose()['PORT'])).toBe(port);
  });

  it('runs the pod with no capability, the runtime default seccomp profile and no privilege escalation', () => {
    const pod = deployment['spec']['template']['spec']['securityContext'];
    expect(pod['runAsNonRoot']).toBe(true);
    expect(pod['seccompProfile']).toEqual({ type: 'RuntimeDefault' });
    const own = container['securityContext'];
    expect(own['capabilities']['drop']).toEqual(['ALL']);
    expect(own['capabilities']['add']).toBeUndefined();
    expect(own['seccompProfile']).toEqual({ type: 'RuntimeDefault' });
    expect(own['allowPrivilegeEscalation']).toBe(false);
  });

  it('has Prometheus scrape METRICS_PORT (the service port answers /metrics only to the admin key)', () => {
    const port = k8s('base/configmap.yaml')[0]!['data']['METRICS_PORT'];
    expect(Number(port)).toBeGreaterThan(0);
    expect(deployment['spec']['template']['metadata']['annotations']['prometheus.io/port']).toBe(port);
    expect((container['ports'] as Array<{ name: string; containerPort: number }>).find((p) => p.name === 'metrics')?.containerPort).toBe(Number(port));
    expect(setByCompose()['METRICS_PORT']).toBe(port);
    const prometheus = yamlDocs(join(deployDir, 'compose/prometheus.yml'))[0]!;
    const job = (prometheus['scrape_configs'] as Doc[]).find((j) => j['job_name'] === 'chat-adapter')!;
    expect(String(job['dns_sd_configs'][0]['port'])).toBe(port);
  });

  it('gives prod its handoff signing secret (prod does not start without one unless HANDOFF_UNSIGNED=true)', () => {
    expect(setByOverlay('prod')).toHaveProperty('HANDOFF_SIGNING_SECRET');
    expect(setByOverlay('prod')['HANDOFF_UNSIGNED']).toBeUndefined();
  });

  it("keeps V8's heap ceiling inside the pod's memory limit", () => {
    const limitMiB = Number(/^(\d+)Mi$/.exec(container['resources']['limits']['memory'])![1]);
    const nodeOptions = (container['env'] as Array<{ name: string; value?: string }>).find((e) => e.name === 'NODE_OPTIONS')?.value ?? '';
    const ceilingMiB = Number(/--max-old-space-size=(\d+)/.exec(nodeOptions)?.[1]);
    // The image's own ceiling (1536 MiB) is for hosts without a limit; a pod of 512Mi needs a lower one.
    expect(ceilingMiB).toBeGreaterThan(0);
    expect(ceilingMiB).toBeLessThan(limitMiB * 0.8);
  });

  it('the image runs the service with the same Node flags as `npm start`', () => {
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const image = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const startFlags = start.split(' ').filter((word) => word.startsWith('--'));
    // The image gives the heap ceiling in NODE_OPTIONS (a deployment may lower it), the rest on its CMD.
    const ceiling = startFlags.find((flag) => flag.startsWith('--max-old-space-size='));
    expect(ceiling).toBeDefined();
    expect(image).toContain(`ENV NODE_OPTIONS=${ceiling}`);
    const cmd = JSON.parse(/^CMD (\[.*"dist\/src\/server\.js"\])$/m.exec(image)![1]!) as string[];
    expect(cmd.filter((word) => word.startsWith('--'))).toEqual(startFlags.filter((flag) => flag !== ceiling));
  });

  it('gives a pod longer to stop than the preStop pause plus SHUTDOWN_GRACE_MS', () => {
    const graceMs = Number(k8s('base/configmap.yaml')[0]!['data']['SHUTDOWN_GRACE_MS']);
    const preStopSeconds = Number(container['lifecycle']['preStop']['exec']['command'][1]);
    expect(deployment['spec']['template']['spec']['terminationGracePeriodSeconds'] * 1000).toBeGreaterThan(graceMs + preStopSeconds * 1000);
  });

  it('has a disruption budget, a CPU autoscaler and each overlay points at the base', () => {
    expect(k8s('base/pdb.yaml')[0]!['kind']).toBe('PodDisruptionBudget');
    const hpa = k8s('base/hpa.yaml')[0]!;
    expect(hpa['spec']['metrics'][0]['resource']['name']).toBe('cpu');
    const base = k8s('base/kustomization.yaml')[0]!['resources'] as string[];
    for (const file of base) expect(() => k8s(`base/${file}`)).not.toThrow();
    for (const env of ['qa', 'staging', 'prod']) expect(k8s(`overlays/${env}/kustomization.yaml`)[0]!['resources']).toEqual(['../../base']);
  });
});

describe('deploy/ on Sentinel or Cluster, by configuration alone (docs/operations.md#redis-topologies)', () => {
  // NODE_OPTIONS is read by Node itself (the heap ceiling), not by the service's configuration.
  const known = new Set([...variablesTheServiceReads(), 'NODE_OPTIONS']);
  const topologies = [
    { name: 'sentinel', list: 'REDIS_SENTINELS' },
    { name: 'cluster', list: 'REDIS_CLUSTER_NODES' },
  ] as const;

  it('each compose override turns the stack to its topology, with services for every address it names', () => {
    for (const { name, list } of topologies) {
      const override = yamlDocs(join(deployDir, `compose/redis-${name}.yaml`))[0]!;
      const vars = { ...setByCompose(), ...(override['services']['chat-adapter']['environment'] as Record<string, string>) };
      expect(Object.keys(vars).filter((variable) => !known.has(variable)), name).toEqual([]);
      const target = readRedisTarget(vars);
      expect(target?.kind, name).toBe(name);
      const hosts = vars[list]!.split(',').map((entry) => entry.split(':')[0]!);
      for (const host of hosts) expect(override['services'], `${name}: ${host}`).toHaveProperty(host);
      // Persistence and noeviction on every Redis server of the override, as on the single one.
      const servers = Object.entries(override['services'] as Record<string, Doc>).filter(([service]) => /^redis-(node|primary|replica)/.test(service));
      expect(servers.length, name).toBeGreaterThanOrEqual(2);
      for (const [service, spec] of servers) {
        const command = (spec['command'] as string[]).join(' ');
        expect(command, service).toContain('--appendonly yes');
        expect(command, service).toContain('--maxmemory-policy noeviction');
      }
    }
  });

  it('each Kubernetes component, added to any overlay, gives one topology the service accepts', () => {
    for (const { name } of topologies) {
      const component = k8s(`components/redis-${name}/kustomization.yaml`)[0]!;
      expect(component['kind']).toBe('Component');
      const patches = component['patches'] as Array<{ path: string }>;
      const patched = patches.map((patch) => k8s(`components/redis-${name}/${patch.path}`)[0]!);
      const config = patched.find((doc) => doc['kind'] === 'ConfigMap' && doc['metadata']['name'] === 'chat-adapter-config');
      expect(config, name).toBeDefined();
      for (const env of ['qa', 'staging', 'prod']) {
        // The Secret's Redis passwords are optional: absent here.
        const { REDIS_PASSWORD: _p, REDIS_SENTINEL_PASSWORD: _s, ...vars } = { ...setByOverlay(env), ...(config!['data'] as Record<string, string>) };
        expect(Object.keys(vars).filter((variable) => !known.has(variable)), `${name} on ${env}`).toEqual([]);
        expect(readRedisTarget(vars)?.kind, `${name} on ${env}`).toBe(name);
      }
    }
  });

  it('the pod reads the Redis passwords from the Secret, each optional', () => {
    const fromSecret = (container['env'] as Array<{ name: string; valueFrom?: { secretKeyRef?: { optional?: boolean } } }>).filter((e) => e.name.startsWith('REDIS_'));
    expect(fromSecret.map((e) => [e.name, e.valueFrom?.secretKeyRef?.optional])).toEqual([['REDIS_PASSWORD', true], ['REDIS_SENTINEL_PASSWORD', true]]);
  });
});
