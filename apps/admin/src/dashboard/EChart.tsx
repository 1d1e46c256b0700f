import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties } from 'react';
import type { EChartsOption } from 'echarts';

// ECharts is most of the dashboard's script: it loads when a chart comes near the screen, so the
// first screen does not pay for charts below the fold (docs/console.md, "Performance").
const EChartCanvas = lazy(() => import('./EChartCanvas'));

/**
 * How long a chart must stay near the screen before it loads. The sections above it fill in as
 * their data arrives and push it down: a chart that was near the screen for a moment during that
 * first layout is not one the reader is looking at (and ECharts is 160 KB of the first screen).
 */
const DWELL_MS = 300;

/** True once the element has stayed within `margin` of the viewport for DWELL_MS (and from then on). */
function useNearViewport(margin = '200px') {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        clearTimeout(timer);
        if (entries[entries.length - 1].isIntersecting) timer = setTimeout(() => setNear(true), DWELL_MS);
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
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
