// The Read / UnRead pie (docs/screens.md): 300 px high, about 70% wide, margins 40/80/40/80,
// slice padding 1, corner radius 4, border width 1, Read light green and UnRead light red, labels
// as a percentage of the total with one decimal. Drawn as SVG from d3-shape's pie and arc (a few
// KB, where a charting library was 120 KB of the dashboard's JavaScript). Each slice is a link to
// its list, so it opens by keyboard as by mouse, and says its share and count.
import { arc, pie, type PieArcDatum } from 'd3-shape';
import styles from './dashboard.module.css';

export const pieColours = { read: '#a5d6a7', unread: '#ef9a9a' };

type Slice = { key: 'read' | 'unread'; label: string; value: number };

const size = 260;
const radius = size / 2 - 2;
const shape = arc<PieArcDatum<Slice>>()
  .innerRadius(0)
  .outerRadius(radius)
  .cornerRadius(4)
  .padAngle(1 / radius);
// Labels sit two thirds of the way out, inside their slice.
const labelAt = arc<PieArcDatum<Slice>>()
  .innerRadius(radius * 0.62)
  .outerRadius(radius * 0.62);
const slicesOf = pie<Slice>()
  .sort(null)
  .value((slice) => slice.value);

const share = (value: number, total: number) => `${((value / total) * 100).toFixed(1)}%`;

export default function ReadPie({
  read,
  unread,
  hrefs,
  onOpen,
}: {
  read: number;
  unread: number;
  /** Each slice's list (the month's Read / Unread Email). */
  hrefs: Record<Slice['key'], string>;
  onOpen: (slice: Slice['key']) => void;
}) {
  const total = read + unread;
  const slices = slicesOf([
    { key: 'read', label: 'Read', value: read },
    { key: 'unread', label: 'UnRead', value: unread },
  ]).filter((s) => s.data.value > 0);
  return (
    <figure className={styles.pie}>
      <svg className={styles.pieChart} viewBox={`${-size / 2} ${-size / 2} ${size} ${size}`} height={size} role="group" aria-label="Read and unread emails">
        {slices.map((s) => {
          const [x, y] = labelAt.centroid(s);
          const percent = share(s.data.value, total);
          return (
            <a
              key={s.data.key}
              href={hrefs[s.data.key]}
              className={styles.slice}
              aria-label={`${s.data.label}: ${percent}, ${s.data.value} emails`}
              onClick={(event) => {
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                event.preventDefault();
                onOpen(s.data.key);
              }}
            >
              <path d={shape(s) ?? ''} fill={pieColours[s.data.key]} stroke="#ffffff" strokeWidth={1} />
              {s.endAngle - s.startAngle > 0.25 && (
                <text x={x} y={y} className={styles.sliceLabel} textAnchor="middle" dominantBaseline="central" aria-hidden="true">
                  {percent}
                </text>
              )}
            </a>
          );
        })}
      </svg>
      <figcaption className={styles.legend}>
        {(['read', 'unread'] as const).map((key) => (
          <span key={key} className={styles.legendItem}>
            <span className={styles.swatch} style={{ background: pieColours[key] }} aria-hidden="true" />
            {key === 'read' ? 'Read' : 'UnRead'}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
