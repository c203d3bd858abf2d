/** The value of one series (`name{label="value",...}`, written as the exposition writes it) in a Prometheus scrape; 0 when absent. */
export function metricValue(scrape: string, series: string): number {
  const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
