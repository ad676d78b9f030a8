import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { num } from '../format';
import { TableWrap } from '../ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);
Chart.defaults.font.size = 13;
Chart.defaults.color = '#3d4450';

/** Okabe-Ito: colours told apart with the common colour-vision deficiencies. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#000000', '#F0E442'];

export interface Series {
  label: string;
  values: number[];
}

/**
 * A grouped bar chart (one bar per series and category) with axis titles, units and a legend, and its text
 * alternative: the same figures as a table (with totals) below it, which the canvas's label points to.
 */
export function BarChart({ id, title, unit, xTitle, categories, series, precision = 1 }: { id: string; title: string; unit: string; xTitle: string; categories: string[]; series: Series[]; precision?: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: categories,
        datasets: series.map((s, i) => ({ label: s.label, data: s.values, backgroundColor: PALETTE[i % PALETTE.length], borderColor: PALETTE[i % PALETTE.length] })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { position: 'bottom' },
          tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${num(c.parsed.y, precision)} ${unit}` } },
        },
        scales: {
          x: { title: { display: true, text: xTitle } },
          y: { beginAtZero: true, title: { display: true, text: `${title} (${unit})` } },
        },
      },
    });
    return () => chart.destroy();
  }, [JSON.stringify({ categories, series, unit, title, xTitle })]);
  const totals = categories.map((_, i) => series.reduce((t, s) => t + (s.values[i] ?? 0), 0));
  const seriesTotals = series.map((s) => s.values.reduce((t, v) => t + (v ?? 0), 0));
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        {title} per month ({unit})
      </figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`Bar chart: ${title.toLowerCase()} per month and aircraft, in ${unit}. The table below gives the figures.`} aria-describedby={`${id}-table-caption`}>
          {title} per month and aircraft; the figures are in the table below.
        </canvas>
      </div>
      <TableWrap label={`${title} per month, as a table`}>
        <table id={`${id}-table`} class="chart-table">
          <caption id={`${id}-table-caption`}>
            {title} per month and aircraft ({unit})
          </caption>
          <thead>
            <tr>
              <th scope="col">{xTitle}</th>
              {series.map((s) => (
                <th scope="col" class="num" key={s.label}>
                  {s.label}
                </th>
              ))}
              <th scope="col" class="num">
                All aircraft
              </th>
            </tr>
          </thead>
          <tbody>
            {categories.map((c, i) => (
              <tr key={c}>
                <th scope="row">{c}</th>
                {series.map((s) => (
                  <td class="num" key={s.label}>
                    {num(s.values[i], precision)}
                  </td>
                ))}
                <td class="num">{num(totals[i], precision)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {seriesTotals.map((t, i) => (
                <td class="num" key={i}>
                  {num(t, precision)}
                </td>
              ))}
              <td class="num">{num(seriesTotals.reduce((a, b) => a + b, 0), precision)}</td>
            </tr>
          </tfoot>
        </table>
      </TableWrap>
    </figure>
  );
}
