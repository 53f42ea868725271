// Series colours: distinguishable, colour-blind friendly (Okabe–Ito order, its yellow swapped for a darker ochre that reads on white), the brand always first.
export const SERIES_COLORS = ["#1f64db", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7f7f7f", "#a6761d", "#000000"];

export const seriesColor = (index: number) => SERIES_COLORS[index % SERIES_COLORS.length]!;
