// The image's HEALTHCHECK: healthy when GET /heartbeat on this container's PORT answers 200 within
// two seconds. node:http rather than fetch(): the fetch standard lists 6000 (the service's default
// port) among its "bad ports", and Node's fetch() refuses to connect to it.
import { request } from 'node:http';

const port = Number(process.env.PORT || 6000);
const req = request({ host: '127.0.0.1', port, path: '/heartbeat', timeout: 2000 }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', () => process.exit(1));
req.end();
