import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_INFO } from '../../src/http/openapi-document.ts';

/*
 * One version story: package.json's version, the CHANGELOG's sections, what /docs (the OpenAPI
 * document) and docs/api.md say, and the image tag the Kubernetes overlays deploy.
 */
const root = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;
const changelog = read('CHANGELOG.md');
const sections = [...changelog.matchAll(/^## \[([^\]]+)\](.*)$/gm)].map((m) => ({ name: m[1]!, rest: m[2]!.trim() }));

describe('the version story', () => {
  it('/docs carries the version of package.json, major.minor', () => {
    expect(OPENAPI_INFO.version).toBe(version.split('.').slice(0, 2).join('.'));
  });

  it('while /docs marks the version under review, the CHANGELOG has it unreleased and no release at or above it', () => {
    expect(OPENAPI_INFO['x-status']).toBe('under review');
    expect(sections[0]?.name).toBe('Unreleased');
    expect(changelog).toContain(`Version ${version} (\`package.json\`; the interface's ${OPENAPI_INFO.version} on \`/docs\``);
    const released = sections.slice(1).map((s) => s.name);
    const atOrAbove = released.filter((name) => name.localeCompare(version, 'en', { numeric: true }) >= 0);
    expect(atOrAbove).toEqual([]);
  });

  it('docs/api.md says the same', () => {
    expect(read('docs/api.md')).toContain(`The interface is version **${OPENAPI_INFO.version}, under review`);
    expect(read('docs/api.md')).toContain(`${version}, is not released yet`);
  });

  it('the Kubernetes overlays deploy the image of that version', () => {
    for (const overlay of ['qa', 'staging', 'prod']) {
      expect(read(`deploy/kubernetes/overlays/${overlay}/kustomization.yaml`), overlay).toContain(`newTag: "${version}"`);
    }
  });
});
