import type { FastifyInstance } from 'fastify';
import type { DatabaseSync } from 'node:sqlite';
import { assertKnownLabels } from './engine/choose-reply.ts';
import { buildEngineApp } from './engine/engine-server.ts';
import { createFaqRetriever } from './engine/faq-retriever.ts';
import { loadLabelledExamples, trainIntentClassifier } from './engine/intent-classifier.ts';
import { GRAPHQL_PATH, buildGraphqlApp } from './graphql/graphql-server.ts';
import { createDeliveryKeys } from './handoff/delivery-keys.ts';
import { buildHandoffApp } from './handoff/handoff-server.ts';
import { loadKnowledge, type Knowledge } from './knowledge/load-knowledge.ts';
import { listenOn } from './party-app.ts';
import { buildPropertyApiApp } from './property-api/property-api-server.ts';
import { openDatabase } from './store/database.ts';
import { createConversationStore, type ConversationStore } from './store/conversation-store.ts';
import { buildPhraseTable } from './translate/phrase-table.ts';
import { buildTranslateApp } from './translate/translate-server.ts';
import { createTranslator } from './translate/translator.ts';

export type LocalParty = 'engine' | 'graphql' | 'propertyApi' | 'handoff' | 'translate';

export interface LocalStackOptions {
  /** The SQLite file (chat-adapter-local.sqlite) lives here; created if missing. */
  dataDir: string;
  /** Which parties to start (the others are external). */
  parties: ReadonlySet<LocalParty>;
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /**
   * Parties listen on basePort + 1..5 (engine, graphql, handoff, propertyApi, translate), so that
   * people can reach the store at a known address; 0 (the default) picks free ports (tests).
   */
  basePort?: number;
  /** Interface to listen on: loopback (the default) when started by the service; 0.0.0.0 in the parties container. */
  host?: string;
  /** The engine's pace when it streams a `rag` reply (ms between words; default 40, about a model's). */
  engineWordMs?: number;
  /** The service's HANDOFF_SIGNING_SECRET: the handoff receiver then checks every delivery's signature. */
  handoffSigningSecrets?: readonly string[];
}

const PORT_OFFSETS: Readonly<Record<LocalParty, number>> = { engine: 1, graphql: 2, handoff: 3, propertyApi: 4, translate: 5 };

export interface LocalStack {
  /** Base URLs (engine: POST `${url}/query`); graphql is the full endpoint URL. */
  urls: Partial<Record<LocalParty, string>>;
  /** Closes the servers, then the database. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts, on 127.0.0.1 and free ports, reference implementations of the downstream parties of
 * docs/contracts.md (ENVIRONMENT=local). Each party is its own Fastify server; the GraphQL store and
 * the handoff receiver share one SQLite file.
 */
export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  const apps: FastifyInstance[] = [];
  const urls: Partial<Record<LocalParty, string>> = {};
  const wants = (party: LocalParty) => opts.parties.has(party);
  let db: DatabaseSync | undefined;
  let closed = false;

  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled(apps.map((app) => app.close()));
    db?.close();
  };
  const serve = async (party: LocalParty, app: FastifyInstance | Promise<FastifyInstance>, path = '') => {
    const ready = await app;
    apps.push(ready);
    const port = opts.basePort ? opts.basePort + PORT_OFFSETS[party] : 0;
    urls[party] = `${await listenOn(ready, opts.host ?? '127.0.0.1', port)}${path}`;
    opts.logger?.info({ party, url: urls[party] }, 'local party listening');
  };

  try {
    let knowledge: Knowledge | undefined;
    const getKnowledge = () => (knowledge ??= loadKnowledge());
    let store: ConversationStore | undefined;
    const getDb = () => (db ??= openDatabase(opts.dataDir));
    const getStore = () => (store ??= createConversationStore(getDb()));

    if (wants('engine')) {
      const started = performance.now();
      const examples = loadLabelledExamples();
      const classifier = trainIntentClassifier(examples);
      assertKnownLabels(classifier.labels);
      const retriever = createFaqRetriever(getKnowledge().properties);
      opts.logger?.info(
        { examples: examples.length, labels: classifier.labels.length, ms: Math.round(performance.now() - started) },
        'reference engine trained',
      );
      await serve('engine', buildEngineApp({ classifier, knowledge: getKnowledge(), retriever }, { wordMs: opts.engineWordMs ?? 40 }));
    }
    if (wants('graphql')) await serve('graphql', buildGraphqlApp(getStore()), GRAPHQL_PATH);
    if (wants('handoff')) await serve('handoff', buildHandoffApp(getStore(), createDeliveryKeys(getDb()), { signingSecrets: opts.handoffSigningSecrets ?? [] }));
    if (wants('propertyApi')) await serve('propertyApi', buildPropertyApiApp(getKnowledge()));
    if (wants('translate')) {
      const translate = createTranslator(buildPhraseTable(getKnowledge()));
      await serve('translate', buildTranslateApp(translate, opts.logger));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { urls, close };
}
