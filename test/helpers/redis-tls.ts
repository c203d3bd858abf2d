/**
 * TLS for the test topologies: one self-signed certificate for 127.0.0.1 (made by the openssl
 * command, which Debian ships), used by every node as its certificate and as the authority it trusts,
 * and by clients as their `ca`. Free of vitest, like the topology helpers.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestTlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  /** The same certificate: the one authority the nodes and clients trust. */
  readonly caFile: string;
  /** Its PEM text, for ioredis's `tls: { ca }`. */
  readonly ca: string;
}

/** Writes a key and a self-signed certificate for IP 127.0.0.1 (valid two days) into `dir`. */
export async function makeTestTlsFiles(dir: string): Promise<TestTlsFiles> {
  const certFile = join(dir, 'tls-cert.pem');
  const keyFile = join(dir, 'tls-key.pem');
  const args = [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', keyFile, '-out', certFile, '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  ];
  try {
    await run('openssl', args, { timeout: 30_000 });
  } catch (err) {
    const e = err as { code?: unknown; message: string };
    const why = e.code === 'ENOENT' ? 'openssl is not installed' : e.message.split('\n')[0];
    throw new Error(`The TLS topology tests make their certificate with openssl (${why}); install it with "apt-get install openssl"`);
  }
  return { certFile, keyFile, caFile: certFile, ca: readFileSync(certFile, 'utf8') };
}

/** A server's TLS options: TLS only (`--port 0`) on `port`, replication and (for a cluster) its bus too. */
export function tlsServerArgs(files: TestTlsFiles, port: number, cluster: boolean): string[] {
  return [
    '--port', '0', '--tls-port', String(port),
    '--tls-cert-file', files.certFile, '--tls-key-file', files.keyFile, '--tls-ca-cert-file', files.caFile,
    // Clients (and the service) bring no certificate of their own, as with a managed Redis.
    '--tls-auth-clients', 'no',
    '--tls-replication', 'yes',
    ...(cluster ? ['--tls-cluster', 'yes'] : []),
  ];
}
