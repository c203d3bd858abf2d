/** Types of waterfall.js (plain JavaScript, so the browser loads it as is, with no build step). */
export type StepKind = 'engine' | 'graphql' | 'property' | 'translate' | 'cache' | 'handoff' | 'service';
export interface Bar {
  step: string;
  ms: number;
  kind: StepKind;
  offsetPct: number;
  widthPct: number;
}
export function stepKind(step: string): StepKind;
export function waterfallBars(latency: { steps: Record<string, number>; chat_adapter_latency: number }): Bar[];
export const MIN_DRAWN_PCT: number;
export function waterfallRows(
  latency: { steps: Record<string, number>; chat_adapter_latency: number },
  minPct?: number,
): { drawn: Bar[]; short: Bar[]; shortMs: number };
