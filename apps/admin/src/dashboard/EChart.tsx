import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties } from 'react';
import type { EChartsOption } from 'echarts';

// ECharts is most of the dashboard's script: it loads when a chart comes near the screen, so the
// first screen does not pay for charts below the fold (docs/console.md, "Performance").
const EChartCanvas = lazy(() => import('./EChartCanvas'));

/** True once the element is within `margin` of the viewport (and from then on). */
function useNearViewport(margin = '200px') {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: margin });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, margin]);
  return { ref, near };
}

/** A dashboard chart: the space is kept at once, the chart drawn once it is near the screen. */
export function EChart({ option, style }: { option: EChartsOption; style: CSSProperties }) {
  const { ref, near } = useNearViewport();
  return (
    <div ref={ref} style={style}>
      {near ? (
        <Suspense fallback={null}>
          <EChartCanvas option={option} style={style} />
        </Suspense>
      ) : null}
    </div>
  );
}
