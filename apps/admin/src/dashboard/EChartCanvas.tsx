import type { CSSProperties } from 'react';
// The ESM build: lib/ is CommonJS, whose default export Vite hands over as { default }.
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsOption } from 'echarts';
import { CanvasRenderer } from 'echarts/renderers';

// Only the chart kinds and parts the dashboard draws: the full `echarts` entry is ~1 MB of
// script the first screen would download (docs/console.md, "Performance").
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

/** An ECharts chart with the dashboard's modules; a new option replaces the old (notMerge). Loaded by EChart. */
export default function EChartCanvas({ option, style }: { option: EChartsOption; style: CSSProperties }) {
  return <ReactEChartsCore echarts={echarts} option={option} style={style} notMerge />;
}
