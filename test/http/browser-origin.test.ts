/** The address the start-up log gives for the browser port: one a browser on this machine can open. */
import { describe, expect, it } from 'vitest';
import { browserOrigin } from '../../src/http/browser-port.ts';

describe('browserOrigin', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1:6080'],
    ['0.0.0.0', 'http://127.0.0.1:6080'],
    ['::', 'http://[::1]:6080'],
    ['::1', 'http://[::1]:6080'],
    ['192.168.1.20', 'http://192.168.1.20:6080'],
    ['fe80::1', 'http://[fe80::1]:6080'],
    ['localhost', 'http://localhost:6080'],
  ])('bound to %s: %s', (host, origin) => {
    expect(browserOrigin(host, 6080)).toBe(origin);
  });
});
