import { expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const service = useStubbedService();
it('smoke', async () => {
  const res = await service.chat(chatRequest(), { accept: 'text/event-stream' });
  console.log(res.statusCode, res.headers, res.body);
  const bad = await service.chat(chatRequest({ message: '   ' }), { accept: 'text/event-stream' });
  console.log(bad.statusCode, bad.body);
  expect(res.statusCode).toBe(200);
});
