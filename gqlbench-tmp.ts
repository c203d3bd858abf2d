import { GraphQLClient } from 'graphql-request';
const doc = `
  mutation CreateServiceMessage($input: CreateServiceMessageInput!) {
    createServiceMessage(input: $input) { id conversationId role content createdAt }
  }`;
const answer = JSON.stringify({ data: { createServiceMessage: { id: 'm-1', conversationId: 'c-1', role: 'USER', content: 'When is the leasing office open on Saturday?', createdAt: '2026-11-22T10:00:00.000Z' } } });
class Res { status = 200; ok = true; headers = { get: (n: string) => n.toLowerCase() === 'content-type' ? 'application/json; charset=utf-8' : null }; async text() { return answer; } }
const input = { conversationId: 'conv-123456', role: 'USER', content: 'When is the leasing office open on Saturday? I would like to visit.', clientMessageKey: 'abc:USER' };
let sink = 0;
const fakeFetch = (async (url: URL, init: RequestInit) => { sink += (init.body as string).length; return new Res(); }) as unknown as typeof fetch;
const shared = new GraphQLClient('http://127.0.0.1:4000/graphql', { excludeOperationName: true, fetch: fakeFetch });
async function viaGql() {
  const client = new GraphQLClient('http://127.0.0.1:4000/graphql', { excludeOperationName: true, fetch: fakeFetch });
  const r = await client.rawRequest<unknown>({ query: doc, variables: { input } });
  return r.data;
}
async function viaShared() {
  const r = await shared.rawRequest<unknown>({ query: doc, variables: { input } });
  return r.data;
}
async function direct() {
  const body = JSON.stringify({ query: doc, variables: { input } });
  const res = await fakeFetch('x' as any, { body } as any) as unknown as Res;
  const parsed = JSON.parse(await res.text());
  return parsed.data;
}
for (const [name, fn] of [['gql', viaGql], ['shared', viaShared], ['direct', direct], ['gql', viaGql], ['shared', viaShared], ['direct', direct]] as const) {
  for (let i = 0; i < 20000; i++) await fn();
  const n = 200000; const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  console.log(name, ((performance.now() - t0) * 1000 / n).toFixed(2), 'µs/call');
}
