/** Types of waterfall.js (plain JavaScript, so the browser loads it as is, with no build step). */
export type StepKind = 'engine' | 'graphql' | 'property' | 'translate' | 'cache' | 'handoff' | 'service';
export function stepKind(step: string): StepKind;
export function waterfallBars(latency: { steps: Record<string, number>; chat_adapter_latency: number }): {
  step: string;
  ms: number;
  kind: StepKind;
  offsetPct: number;
  widthPct: number;
}[];
