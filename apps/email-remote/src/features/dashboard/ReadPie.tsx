// The Read / UnRead pie (docs/screens.md): 300 px high, about 70% wide, margins 40/80/40/80,
// Read light green and UnRead light red, labels as a percentage of the total with one decimal.
// ApexCharts is loaded with this module only, so the rest of the remote stays small.
import { useMemo } from 'react';
import Chart from 'react-apexcharts';
import type { ApexOptions } from 'apexcharts';
import styles from './dashboard.module.css';

export const pieColours = { read: '#a5d6a7', unread: '#ef9a9a' };

const options: ApexOptions = {
  chart: { type: 'pie', fontFamily: 'inherit', animations: { enabled: false }, toolbar: { show: false } },
  labels: ['Read', 'UnRead'],
  colors: [pieColours.read, pieColours.unread],
  // A 1 px white border between the slices: the stated border width and slice padding.
  stroke: { width: 1, colors: ['#ffffff'] },
  dataLabels: {
    enabled: true,
    formatter: (percent: number) => `${percent.toFixed(1)}%`,
    style: { colors: ['#1c2630'], fontSize: '13px', fontWeight: 600 },
    dropShadow: { enabled: false },
  },
  legend: { position: 'bottom' },
  tooltip: { y: { formatter: (value: number) => String(value) } },
  states: { hover: { filter: { type: 'none' } } },
  plotOptions: { pie: { expandOnClick: false } },
};

/** A click on a slice opens its list (the Read / Unread Email links below do the same by keyboard). */
export default function ReadPie({ read, unread, onOpen }: { read: number; unread: number; onOpen: (slice: 'read' | 'unread') => void }) {
  const chartOptions = useMemo<ApexOptions>(
    () => ({
      ...options,
      chart: {
        ...options.chart,
        events: { dataPointSelection: (_event, _chart, config: { dataPointIndex: number }) => onOpen(config.dataPointIndex === 0 ? 'read' : 'unread') },
      },
    }),
    [onOpen],
  );
  return (
    <div className={styles.pie}>
      <Chart type="pie" height={300} width="100%" series={[read, unread]} options={chartOptions} />
    </div>
  );
}
