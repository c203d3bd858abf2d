/**
 * How deploy/kubernetes runs the service, read from a rendered overlay (kustomize build output), so
 * that the deploy check runs the image the same way with `docker run`: user, read-only root, memory
 * limit, writable mounts, environment (ConfigMap data and literal values; the Secret's keys listed
 * by name, for the check to fill with demo values).
 *
 *   node scripts/deploy-check/pod-settings.ts rendered.yaml   prints one JSON object
 */
import { readFileSync } from 'node:fs';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { parseAllDocuments } from 'yaml';

export interface PodSettings {
  user: number;
  readOnlyRootFilesystem: boolean;
  memoryLimitBytes: number;
  containerPort: number;
  writablePaths: string[];
  env: Record<string, string>;
  secretEnv: string[];
}

const UNITS: ReadonlyMap<string, number> = new Map([['', 1], ['Ki', 1024], ['Mi', 1024 ** 2], ['Gi', 1024 ** 3], ['K', 1e3], ['M', 1e6], ['G', 1e9]]);

function bytes(quantity: string | number | undefined): number {
  const match = /^(\d+)(Ki|Mi|Gi|K|M|G)?$/.exec(String(quantity ?? ''));
  if (!match) throw new Error(`memory limit "${quantity}" is not a plain quantity`);
  return Number(match[1]) * UNITS.get(match[2] ?? '')!;
}

export function podSettings(objects: readonly unknown[]): PodSettings {
  const deployment = objects.find((o): o is Deployment => (o as Deployment | null)?.kind === 'Deployment');
  const pod = deployment?.spec?.template.spec;
  const container = pod?.containers[0];
  if (!pod || !container) throw new Error('no Deployment with a container');
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const source of container.envFrom ?? []) {
    const name = source.configMapRef?.name;
    const configMap = objects.find((o): o is ConfigMap => (o as ConfigMap | null)?.kind === 'ConfigMap' && (o as ConfigMap).metadata?.name === name);
    if (!configMap) throw new Error(`envFrom names ConfigMap ${name}, which the overlay does not render`);
    Object.assign(env, configMap.data);
  }
  const secretEnv: string[] = [];
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (variable.valueFrom?.secretKeyRef) secretEnv.push(variable.name);
  }
  const user = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
  if (user === undefined) throw new Error('no runAsUser');
  return {
    user,
    readOnlyRootFilesystem: container.securityContext?.readOnlyRootFilesystem === true,
    memoryLimitBytes: bytes(container.resources?.limits?.['memory']),
    containerPort: container.ports?.[0]?.containerPort ?? 0,
    writablePaths: (container.volumeMounts ?? []).filter((mount) => mount.readOnly !== true).map((mount) => mount.mountPath),
    env,
    secretEnv,
  };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/deploy-check/pod-settings.ts rendered.yaml');
    process.exit(2);
  }
  const objects = parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => doc.toJS() as unknown);
  console.log(JSON.stringify(podSettings(objects)));
}
