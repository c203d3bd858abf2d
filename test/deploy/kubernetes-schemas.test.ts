/**
 * The Kubernetes base manifests against the API's schemas (kubernetes-models, offline), with the
 * deploy check's own validator: the same code that checks every rendered overlay in
 * `.ci/deploy-check`, here without kustomize or Docker. Also what the check reads of the pod.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { podSettings } from '../../scripts/deploy-check/pod-settings.ts';
import { validateManifests } from '../../scripts/deploy-check/validate-kubernetes.ts';

const root = resolve(import.meta.dirname, '../..');
const base = join(root, 'deploy/kubernetes/base');
const baseFiles = ['deployment.yaml', 'service.yaml', 'configmap.yaml', 'pdb.yaml', 'hpa.yaml', 'secret.example.yaml'].map((file) => join(base, file));

function tempManifest(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'k8s-schema-')), 'manifest.yaml');
  writeFileSync(file, text);
  return file;
}

describe('Kubernetes manifests against the API schemas', () => {
  it('accepts every base object', async () => {
    const { valid, errors } = await validateManifests(baseFiles);
    expect(errors).toEqual([]);
    expect(valid).toBe(baseFiles.length);
  });

  it('names the object and the member of a wrong type', async () => {
    const hpa = readFileSync(join(base, 'hpa.yaml'), 'utf8').replace('maxReplicas: 12', 'maxReplicas: twelve');
    const { errors } = await validateManifests([tempManifest(hpa)]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/HorizontalPodAutoscaler chat-adapter: .*maxReplicas must be integer/);
  });

  it('reports a missing required member', async () => {
    const deployment = readFileSync(join(base, 'deployment.yaml'), 'utf8').replace(/^ {2}selector:\n(?: {4}.*\n)+/m, '');
    const { errors } = await validateManifests([tempManifest(deployment)]);
    expect(errors.join('\n')).toMatch(/Deployment chat-adapter: .*selector/);
  });

  it('rejects an apiVersion or kind the API does not have', async () => {
    const { valid, errors } = await validateManifests([tempManifest('apiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: x}\n---\napiVersion: autoscaling/v9\nkind: HorizontalPodAutoscaler\nmetadata: {name: y}\n')]);
    expect(valid).toBe(0);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toMatch(/no schema for this apiVersion and kind/);
  });
});

describe('how the deploy check runs the pod', () => {
  it('reads user, read-only root, memory limit, writable mounts and environment from the manifests', () => {
    const objects = ['deployment.yaml', 'configmap.yaml'].flatMap((file) => parseAllDocuments(readFileSync(join(base, file), 'utf8')).map((doc) => doc.toJS() as unknown));
    const settings = podSettings(objects);
    expect(settings).toMatchObject({ user: 1000, readOnlyRootFilesystem: true, memoryLimitBytes: 512 * 2 ** 20, containerPort: 6000 });
    expect(settings.writablePaths.sort()).toEqual(['/app/data', '/tmp']);
    expect(settings.env['PORT']).toBe('6000');
    expect(settings.env['NODE_OPTIONS']).toMatch(/^--max-old-space-size=\d+$/);
    expect(settings.secretEnv).toContain('GRAPHQL_API_KEY');
  });
});
