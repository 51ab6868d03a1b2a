/** Time series charts (uPlot) of the metric queries (GET /metrics/jobs, /metrics/instance_managers). */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** `HH:MM` of UNIX seconds, local time: short enough for a narrow chart. */
function clock(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export interface Series {
  times: number[];
  values: number[];
}

/** One line chart; resizes with its box. `format` labels the y axis. */
export function Chart(p: { title: string; series: Series | undefined; format?: (v: number) => string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const times = p.series?.times ?? [];
  const values = p.series?.values ?? [];
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const format = p.format ?? ((v: number) => String(v));
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [{ stroke: '#667', grid: { stroke: '#e4e6eb' }, space: 70, values: (_u, ticks) => ticks.map(clock) }, { stroke: '#667', grid: { stroke: '#e4e6eb' }, size: 64, values: (_u, ticks) => ticks.map(format) }],
        series: [{}, { label: p.title, stroke: '#2f6fdb', fill: 'rgba(47,111,219,0.12)', width: 1.5, points: { show: false } }],
      },
      [[], []],
      el,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: 160 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = undefined;
    };
  }, []);
  useEffect(() => {
    plot.current?.setData([times, values]);
  }, [times.join(','), values.join(',')]);
  const last = values.length > 0 ? values[values.length - 1] : undefined;
  return (
    <figure class="chart" data-testid={p.testId}>
      <figcaption>
        {p.title}
        <span class="muted">{last === undefined ? ' — no data yet' : ` — now ${(p.format ?? String)(last)}`}</span>
      </figcaption>
      <div ref={box} role="img" aria-label={`${p.title} over time`} />
    </figure>
  );
}
