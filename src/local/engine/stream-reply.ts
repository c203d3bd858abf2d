import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EngineReply } from '../../../schemas/engine.schema.ts';

/** Before each word but the first (white space stays with the word before it). */
const WORD_STARTS = /(?<=\s)(?=\S)/;

/**
 * The engine's event stream (docs/api.md#streamed-replies): the first event names the retrieval type and language
 * with the first word, then a `{"delta"}` per word `wordMs` apart, then `{"done": true, ...}` with
 * every member but `response`. Stops when the caller goes away.
 */
export async function streamReply(res: ServerResponse, answer: EngineReply, wordMs: number): Promise<void> {
  const { response, ...members } = answer;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let gone = false;
  res.on('close', () => (gone = true));
  const send = (event: object) => res.write(`data: ${JSON.stringify(event)}\n\n`);
  const words = response.split(WORD_STARTS);
  for (let i = 0; i < words.length && !gone; i++) {
    if (i > 0 && wordMs > 0) await sleep(wordMs);
    send(i === 0 ? { retrieval_type: answer.retrieval_type, language: answer.language ?? 'en', delta: words[i] } : { delta: words[i] });
  }
  if (gone) return;
  send({ done: true, ...members });
  res.end();
}
