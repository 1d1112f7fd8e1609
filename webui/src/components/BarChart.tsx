/**
 * A small bar chart drawn by hand in SVG: one bar a day. The figure is an image with a text
 * summary for screen readers, each bar names its day and value on hover, and the same figures are
 * in a table the page shows beside it. Time runs with the reading direction.
 */
export interface BarChartProps {
  values: number[];
  /** One label a bar (a date), for the bar's tooltip. */
  labels: string[];
  /** What the chart shows, said to screen readers with its summary. */
  title: string;
  summary: string;
  rtl: boolean;
  /** Formats a value for the tooltips (local digits). */
  format: (n: number) => string;
}

const H = 60;
const BAR = 10;

export function BarChart({ values, labels, title, summary, rtl, format }: BarChartProps) {
  const max = Math.max(1, ...values);
  const w = Math.max(values.length, 1) * BAR;
  return (
    <svg class="bar-chart" viewBox={`0 0 ${w} ${H}`} preserveAspectRatio="none" role="img" aria-label={`${title}: ${summary}`}>
      <line x1="0" y1={H - 0.5} x2={w} y2={H - 0.5} class="bar-chart-axis" />
      {values.map((v, i) => {
        const h = v === 0 ? 0 : Math.max(2, (v / max) * (H - 4));
        const x = (rtl ? values.length - 1 - i : i) * BAR + 1.5;
        return (
          <rect key={labels[i] ?? i} x={x} y={H - h} width={BAR - 3} height={h} rx="1.5" class="bar-chart-bar">
            <title>{`${labels[i] ?? ''}: ${format(v)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
