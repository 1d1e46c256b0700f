import { Card, CardContent, Typography } from '@mui/material';
import { EChart } from './EChart';
import type { EChartsOption } from 'echarts';
import { latencyLabel, type RangeLatency } from './live-usage';
import { daysBetween, type UsageDay, type UsageFilter } from './usage-data';

interface ChartsProps {
  rows: UsageDay[];
  filter: UsageFilter;
  agentName: (id: string) => string;
  /** Percentiles per day and over the range, from GET /usage/latency (what the cards show too). */
  latency: RangeLatency | undefined;
}

const sumBy = (rows: UsageDay[], days: string[], pick: (r: UsageDay) => number) => days.map((d) => rows.filter((r) => r.day === d).reduce((n, r) => n + pick(r), 0));

function ChartCard({ title, option, testId }: { title: string; option: EChartsOption; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardContent>
        <Typography variant="subtitle1">{title}</Typography>
        <EChart option={option} style={{ height: 260 }} />
      </CardContent>
    </Card>
  );
}

const base = (days: string[]): EChartsOption => ({
  tooltip: { trigger: 'axis' },
  legend: { top: 0, type: 'scroll' },
  grid: { left: 48, right: 16, top: 36, bottom: 28 },
  xAxis: { type: 'category', data: days.map((d) => d.slice(5)) },
  yAxis: { type: 'value', minInterval: 1 },
});

/** Usage per day from the roll-ups: LLM calls by agent, turns, tokens, latency and outcome codes. */
export function UsageCharts({ rows, filter, agentName, latency }: ChartsProps) {
  const days = daysBetween(filter.from, filter.to);
  const agents = [...new Set(rows.map((r) => r.agentId))];
  const codes = [...new Set(rows.flatMap((r) => Object.keys(r.outcomes)))].sort();
  // Percentiles do not add up across days or agents: each day's are computed by the API from
  // that day's turns, and the range's (the cards' numbers) are drawn as dashed lines.
  const latencyOn = (pick: 'p50' | 'p95') => days.map((d) => latency?.byDay.find((x) => x.day === d)?.[pick] ?? null);
  const rangeLine = (v: number | null | undefined, name: string) =>
    v === null || v === undefined ? undefined : { silent: true, symbol: 'none', label: { formatter: `${name} of range: ${v}`, position: 'insideEndTop' as const }, lineStyle: { type: 'dashed' as const }, data: [{ yAxis: v }] };

  const charts: { title: string; testId: string; option: EChartsOption }[] = [
    {
      title: 'LLM calls per day, by agent',
      testId: 'chart-llm-calls',
      option: {
        ...base(days),
        series: agents.map((a) => ({ name: agentName(a), type: 'bar', stack: 'calls', data: sumBy(rows.filter((r) => r.agentId === a), days, (r) => r.llmCalls) })),
      },
    },
    {
      title: 'Turns per day: all, deferred, failed',
      testId: 'chart-turns',
      option: {
        ...base(days),
        series: [
          { name: 'Turns', type: 'line', data: sumBy(rows, days, (r) => r.turns) },
          { name: 'Deferred', type: 'line', data: sumBy(rows, days, (r) => r.deferredTurns), itemStyle: { color: '#f0a020' } },
          { name: 'Failed', type: 'line', data: sumBy(rows, days, (r) => r.failedTurns), itemStyle: { color: '#d03050' } },
        ],
      },
    },
    {
      title: 'Tokens per day',
      testId: 'chart-tokens',
      option: {
        ...base(days),
        series: [
          { name: 'Input tokens', type: 'bar', data: sumBy(rows, days, (r) => r.inputTokens) },
          { name: 'Output tokens', type: 'bar', data: sumBy(rows, days, (r) => r.outputTokens) },
        ],
      },
    },
    {
      title: `Turn latency (ms) per day: p50 and p95 (${latencyLabel(latency?.method)})`,
      testId: 'chart-latency',
      option: {
        ...base(days),
        yAxis: { type: 'value' },
        series: [
          { name: 'p50', type: 'line', connectNulls: true, data: latencyOn('p50'), markLine: rangeLine(latency?.p50, 'p50') },
          { name: 'p95', type: 'line', connectNulls: true, data: latencyOn('p95'), markLine: rangeLine(latency?.p95, 'p95') },
        ],
      },
    },
    {
      title: 'Outcome codes per day',
      testId: 'chart-outcomes',
      option: {
        ...base(days),
        series: codes.map((c) => ({ name: c, type: 'bar', stack: 'codes', data: sumBy(rows, days, (r) => r.outcomes[c] ?? 0) })),
      },
    },
  ];
  return (
    <>
      {charts.map((c) => (
        <ChartCard key={c.testId} {...c} />
      ))}
    </>
  );
}
