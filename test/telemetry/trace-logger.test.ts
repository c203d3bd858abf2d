import { describe, expect, it } from 'vitest';
import { trace, context } from '@opentelemetry/api';
import { createTracing } from '../../src/telemetry/tracing.ts';
import { traceScopedLogger } from '../../src/telemetry/trace-logger.ts';

function recorder() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => lines.push({ level, obj, msg });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('traceScopedLogger', () => {
  it('adds the active trace id, keeps one already given, and adds nothing outside a trace', async () => {
    const { lines, logger } = recorder();
    const log = traceScopedLogger(logger);
    const tracing = createTracing({ disabled: true });
    const span = tracing.tracer.startSpan('request');
    const traceId = span.spanContext().traceId;

    await context.with(trace.setSpan(context.active(), span), async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.warn({ step: 'translateReply' }, 'after an await');
      log.info({ trace_id: 'given', attempt: 1 }, 'explicit');
    });
    log.error({ pending: 2 }, 'outside');
    span.end();

    expect(lines).toEqual([
      { level: 'warn', obj: { trace_id: traceId, step: 'translateReply' }, msg: 'after an await' },
      { level: 'info', obj: { trace_id: 'given', attempt: 1 }, msg: 'explicit' },
      { level: 'error', obj: { pending: 2 }, msg: 'outside' },
    ]);
    await tracing.shutdown();
  });
});
