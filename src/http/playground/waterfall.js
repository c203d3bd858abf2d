// The per-step latency waterfall, computed from a chat response's `latency`: one bar per step in
// the order the steps ran, each starting where the previous ones ended (the steps run one after
// another), so the engine and GraphQL time stand out at a glance.

/** @typedef {'engine' | 'graphql' | 'property' | 'translate' | 'cache' | 'handoff' | 'service'} StepKind */

/** A Map, so that a step named like an Object member ("constructor") is a step like any other. @type {ReadonlyMap<string, StepKind>} */
const KINDS = new Map([
  ['askEngine', 'engine'],
  ['askEngineCacheHit', 'cache'],
  ['updateConversation', 'graphql'],
  ['storeQuestion', 'graphql'],
  ['storeAnswer', 'graphql'],
  ['answerFromPropertyApi', 'property'],
  ['translateReply', 'translate'],
  ['loadSession', 'cache'],
  ['reuseCachedReply', 'cache'],
  ['rememberTurn', 'cache'],
  ['startHandoff', 'handoff'],
]);

/** @param {string} step @returns {StepKind} */
export function stepKind(step) {
  return KINDS.get(step) ?? 'service';
}

/**
 * @param {{ steps: Record<string, number>, chat_adapter_latency: number }} latency
 * @returns {{ step: string, ms: number, kind: StepKind, offsetPct: number, widthPct: number }[]}
 */
export function waterfallBars(latency) {
  const entries = Object.entries(latency.steps);
  const stepsTotal = entries.reduce((sum, [, ms]) => sum + ms, 0);
  // The request's total also holds validation and serialization outside any step.
  const scale = Math.max(latency.chat_adapter_latency, stepsTotal) || 1;
  let offset = 0;
  return entries.map(([step, ms]) => {
    const bar = { step, ms, kind: stepKind(step), offsetPct: (offset / scale) * 100, widthPct: (ms / scale) * 100 };
    offset += ms;
    return bar;
  });
}

/**
 * Steps shorter than this share of the scale would be hairlines: they are listed under the bars
 * (with their durations) instead of drawn. 1.5 % is 3 px of the narrowest track.
 */
export const MIN_DRAWN_PCT = 1.5;

/**
 * The bars worth drawing and the short steps listed apart, both in the order the steps ran.
 * @param {{ steps: Record<string, number>, chat_adapter_latency: number }} latency
 */
export function waterfallRows(latency, minPct = MIN_DRAWN_PCT) {
  const bars = waterfallBars(latency);
  const drawn = bars.filter((bar) => bar.widthPct >= minPct);
  const short = bars.filter((bar) => bar.widthPct < minPct);
  return { drawn, short, shortMs: short.reduce((sum, bar) => sum + bar.ms, 0) };
}
