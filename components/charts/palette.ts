// Series colours, defined in app/globals.css (--series-N) for light and dark mode: distinguishable,
// colour-blind friendly (Okabe–Ito order, its yellow swapped for a darker ochre that reads on
// white), the brand always first. SVG attributes and inline styles both take var().
export const SERIES_COLORS = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `var(--series-${n})`);

export const seriesColor = (index: number) => SERIES_COLORS[index % SERIES_COLORS.length]!;
