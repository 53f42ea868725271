// The look the dashboard's cartesian charts share: a dashed horizontal grid, slate ticks, a line
// under the x axis and none beside the y axis. Spread into recharts' elements;
// each chart adds its own scale (data key, domain, ticks, formatter, width).
const tick = { fontSize: 12, fill: "#64748b" };

export const gridProps = { strokeDasharray: "3 3", stroke: "#e2e8f0", vertical: false } as const;

export const xAxisProps = { tick, tickLine: false, axisLine: { stroke: "#cbd5e1" } } as const;

export const yAxisProps = { tick, tickLine: false, axisLine: false } as const;

/**
 * A line chart's dots: on every point while there are few in all (at most 31 points a line, 64
 * dots), so single days and sparse weeks read; otherwise none, and the hover's active dot marks
 * the point. Five lines of 30 daily points were 150 dots drawn (and ~60 ms of recharts' render on
 * the Overview) that overlapped into noise where the lines meet.
 */
export const MAX_DOTS = 64;
export const lineDot = (points: number, lines: number) => (points <= 31 && points * lines <= MAX_DOTS ? { r: 2.5 } : false);

/** The tooltip's highlight behind the hovered bar. */
export const barCursor = { fill: "#f1f5f9" } as const;
