// The look the dashboard's cartesian charts share: a dashed horizontal grid, slate ticks, a line
// under the x axis and none beside the y axis. Spread into recharts' elements (as legendProps);
// each chart adds its own scale (data key, domain, ticks, formatter, width).
const tick = { fontSize: 12, fill: "#64748b" };

export const gridProps = { strokeDasharray: "3 3", stroke: "#e2e8f0", vertical: false } as const;

export const xAxisProps = { tick, tickLine: false, axisLine: { stroke: "#cbd5e1" } } as const;

export const yAxisProps = { tick, tickLine: false, axisLine: false } as const;

/** The tooltip's highlight behind the hovered bar. */
export const barCursor = { fill: "#f1f5f9" } as const;
