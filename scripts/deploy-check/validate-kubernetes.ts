/**
 * Validates rendered Kubernetes manifests (kustomize build output, one or more files) against the
 * API's OpenAPI schemas, offline, with kubernetes-models: every object's apiVersion and kind must be
 * a known API type and the object must match its schema (an unknown field, a wrong type or a missing
 * required member is an error: the API server would reject or silently drop it).
 *
 *   node scripts/deploy-check/validate-kubernetes.ts rendered.yaml...
 *
 * Prints one line per object; exits 1 when any object is invalid.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: unknown) => Validatable;

/** kubernetes-models publishes one module per API group and version: `apps/v1`, core `v1`. */
async function modelFor(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  // Core groups without a domain (apps, policy, autoscaling) are folders of their own; others keep the domain.
  const path = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  let module: Record<string, unknown>;
  try {
    module = (await import(path)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const model = Object.hasOwn(module, kind) ? module[kind] : undefined;
  return typeof model === 'function' ? (model as ModelClass) : undefined;
}

/** Every object in the given files, as `{ file, object }`. */
function objectsIn(files: readonly string[]): Array<{ file: string; object: Record<string, unknown> }> {
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, 'utf8')).flatMap((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
      const object: unknown = doc.toJS();
      return object && typeof object === 'object' ? [{ file, object: object as Record<string, unknown> }] : [];
    }),
  );
}

export async function validateManifests(files: readonly string[]): Promise<{ valid: number; errors: string[] }> {
  const errors: string[] = [];
  let valid = 0;
  for (const { file, object } of objectsIn(files)) {
    const apiVersion = String(object['apiVersion'] ?? '');
    const kind = String(object['kind'] ?? '');
    const name = String((object['metadata'] as Record<string, unknown> | undefined)?.['name'] ?? '(no name)');
    const label = `${file}: ${apiVersion} ${kind} ${name}`;
    const Model = await modelFor(apiVersion, kind);
    if (!Model) {
      errors.push(`${label}: no schema for this apiVersion and kind`);
      continue;
    }
    try {
      new Model(object).validate();
      valid += 1;
    } catch (error) {
      errors.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { valid, errors };
}

if (import.meta.main) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: node scripts/deploy-check/validate-kubernetes.ts rendered.yaml...');
    process.exit(2);
  }
  const { valid, errors } = await validateManifests(files);
  for (const error of errors) console.error(`invalid: ${error}`);
  console.log(`${valid} objects valid, ${errors.length} invalid`);
  process.exit(errors.length === 0 && valid > 0 ? 0 : 1);
}
