/**
 * The OpenMetrics exposition of a registry, for a scraper that asks for it (`Accept:
 * application/openmetrics-text`, as Prometheus does): the same families and samples as the
 * Prometheus text, plus an exemplar (`trace_id`) on each latency bucket that has one, so that a
 * latency spike on a dashboard leads to a trace. prom-client writes exemplars only from a
 * registry of the OpenMetrics type, and that registry renames counters in place while writing (it
 * would break the Prometheus text of the shared metric objects), so the text is built here:
 * histograms bound here (fast/bound-histogram.ts) through an OpenMetrics registry, with their
 * exemplars; every other family from its Prometheus text, counters renamed as OpenMetrics wants
 * (family `x`, samples `x_total`).
 */
import { Registry, type OpenMetricsContentType } from 'prom-client';
import { BoundHistogram } from './fast/bound-histogram.ts';

export const OPENMETRICS_CONTENT_TYPE = Registry.OPENMETRICS_CONTENT_TYPE;

/** Whether a scrape's Accept header asks for OpenMetrics. */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/openmetrics-text');
}

/** What prom-client's Registry does but does not declare: writes one metric's family. */
interface FamilyWriter {
  getMetricsAsString(metric: unknown): Promise<string>;
}

const openMetricsRegistry = new Registry<OpenMetricsContentType>();
openMetricsRegistry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
const writer = openMetricsRegistry as unknown as FamilyWriter;

/** A counter family's Prometheus text as OpenMetrics: the family named without `_total`, its samples with it. */
function counterFamily(text: string): string {
  let family = '';
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
        const rest = line.slice(7);
        const space = rest.indexOf(' ');
        const name = space === -1 ? rest : rest.slice(0, space);
        family = name.endsWith('_total') ? name.slice(0, -'_total'.length) : name;
        return `${line.slice(0, 7)}${family}${space === -1 ? '' : rest.slice(space)}`;
      }
      if (line.startsWith(`${family}_total`)) return line;
      return line.startsWith(family) ? `${family}_total${line.slice(family.length)}` : line;
    })
    .join('\n');
}

export async function openMetricsText(registry: Registry): Promise<string> {
  const families: string[] = [];
  for (const metric of registry.getMetricsAsArray() as unknown[]) {
    if (metric instanceof BoundHistogram) {
      const withExemplars = { name: metric.name, help: metric.help, type: metric.type, getForPromString: () => metric.getForPromString(true) };
      families.push(await writer.getMetricsAsString(withExemplars));
      continue;
    }
    const text = await (registry as unknown as FamilyWriter).getMetricsAsString(metric);
    families.push((metric as { type?: string }).type === 'counter' ? counterFamily(text) : text);
  }
  return `${families.filter((f) => f !== '').join('\n')}\n# EOF\n`;
}
