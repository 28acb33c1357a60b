/**
 * A bar chart as inline SVG built with DOM calls (no library, no inline style: CSP allows it).
 * Several series are drawn side by side per label; the chart has a title and a text summary for
 * screen readers, and each bar a <title> with its exact value.
 *
 * @example
 * barChart('Spend per day', ['2026-11-01', ...], [{ name: 'spend', values: [0, 12.5, ...] }])
 */
const NS = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export interface Series {
  name: string;
  values: number[];
}

export function barChart(title: string, labels: string[], series: Series[], unit = ''): SVGSVGElement {
  const width = 720;
  const height = 220;
  const pad = { left: 56, right: 8, top: 12, bottom: 36 };
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, labels.length);
  const barW = Math.max(1, (slot * 0.8) / Math.max(1, series.length));
  const total = series
    .map((s) => `${s.name}: ${s.values.reduce((a, b) => a + b, 0).toFixed(2)}${unit}`)
    .join(', ');

  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `${title}. Totals over ${labels.length} days: ${total}`,
    class: 'chart',
  });
  const t = svg('title', {});
  t.textContent = title;
  root.append(t);
  for (const frac of [0, 0.5, 1]) {
    const y = pad.top + plotH * (1 - frac);
    root.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y, y2: y, class: 'grid' }));
    const label = svg('text', { x: pad.left - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' });
    label.textContent = (max * frac).toFixed(max * frac >= 100 ? 0 : 2);
    root.append(label);
  }
  series.forEach((s, si) => {
    s.values.forEach((v, i) => {
      const h = (v / max) * plotH;
      const rect = svg('rect', {
        x: pad.left + i * slot + slot * 0.1 + si * barW,
        y: pad.top + plotH - h,
        width: barW,
        height: Math.max(0, h),
        class: `bar s${si}`,
      });
      const tip = svg('title', {});
      tip.textContent = `${labels[i]} ${s.name}: ${v}${unit}`;
      rect.append(tip);
      root.append(rect);
    });
  });
  labels.forEach((label, i) => {
    if (i % 5 !== 0 && i !== labels.length - 1) return;
    const text = svg('text', {
      x: pad.left + i * slot + slot / 2,
      y: height - 14,
      'text-anchor': 'middle',
      class: 'axis',
    });
    text.textContent = label.slice(5);
    root.append(text);
  });
  return root;
}

/** The legend of a chart's series (text, so it is read and seen the same). */
export function legend(series: Series[]): HTMLElement {
  const ul = document.createElement('ul');
  ul.className = 'legend';
  series.forEach((s, i) => {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = `swatch s${i}`;
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, s.name);
    ul.append(li);
  });
  return ul;
}
