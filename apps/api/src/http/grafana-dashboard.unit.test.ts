import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ProcessMetrics } from '@carteiro/metrics';
import { ApiMetrics } from './observability.js';

const dashboardPath = fileURLToPath(new URL('../../../../docs/grafana/carteiro-dashboard.json', import.meta.url));
const metricsDocPath = fileURLToPath(new URL('../../../../docs/metrics.md', import.meta.url));

interface Panel {
  type: string;
  title: string;
  datasource?: { uid?: string };
  targets?: { expr: string; datasource?: { uid?: string } }[];
}

/** Every series name a scrape of a process can show: the families and, for histograms and summaries, their parts. */
async function exposedSeries(): Promise<{ series: Set<string>; families: { name: string; type: string }[] }> {
  const registry = ApiMetrics.of(new ProcessMetrics()).registry;
  const families = (await registry.getMetricsAsJSON()).map((m) => ({ name: m.name, type: String(m.type) }));
  const series = new Set<string>();
  for (const { name, type } of families) {
    series.add(name);
    if (type === 'histogram') for (const part of ['_bucket', '_sum', '_count']) series.add(`${name}${part}`);
    if (type === 'summary') for (const part of ['_sum', '_count']) series.add(`${name}${part}`);
  }
  return { series, families };
}

const METRIC_NAME = /\bcarteiro_[a-z0-9_]+\b/g;

describe('docs/grafana/carteiro-dashboard.json', () => {
  const dashboard = JSON.parse(readFileSync(dashboardPath, 'utf8')) as { __inputs: { name: string; type: string; pluginId: string }[]; panels: Panel[]; templating: { list: { query: { query: string } }[] } };
  const graphs = dashboard.panels.filter((p) => p.type !== 'row');
  const queried = graphs.flatMap((p) => (p.targets ?? []).flatMap((t) => t.expr.match(METRIC_NAME) ?? []));

  it('asks for its Prometheus data source as the ${DS_PROMETHEUS} input, and every panel and query uses it', () => {
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    for (const panel of graphs) {
      expect(panel.datasource?.uid).toBe('${DS_PROMETHEUS}');
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.datasource?.uid).toBe('${DS_PROMETHEUS}');
    }
  });

  it('queries only series a Carteiro process exposes', async () => {
    const { series } = await exposedSeries();
    const templated = dashboard.templating.list.flatMap((v) => v.query.query.match(METRIC_NAME) ?? []);
    const unknown = [...new Set([...queried, ...templated])].filter((name) => !series.has(name));
    expect(unknown).toEqual([]);
  });

  it('has a panel for every metric family of ours, and docs/metrics.md describes each', async () => {
    const { families } = await exposedSeries();
    // The runtime's default metrics (carteiro_process_*, carteiro_nodejs_*) are not all charted.
    const ours = families.map((f) => f.name).filter((name) => !/^carteiro_(process|nodejs)_/.test(name));
    expect(ours.length).toBeGreaterThanOrEqual(19);
    const charted = new Set(queried.map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    expect(ours.filter((name) => !charted.has(name))).toEqual([]);
    const doc = readFileSync(metricsDocPath, 'utf8');
    expect(ours.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });
});
