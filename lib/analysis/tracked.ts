// What the analysis reads, shared by analyze.ts and brand-candidates.ts (which analyze.ts calls).

/**
 * 200,000 characters is about 50,000 tokens of English: ten times a long answer (the default
 * output limit is 2,048 tokens, about 8,000 characters), and still analysed in well under a
 * second even when it is built to be slow (bench: "analysis of a hostile answer").
 */
export const ANALYSIS_MAX_CHARS = 200_000;

export type TrackedEntity = { name: string; aliases?: string[]; caseSensitiveAliases?: string[]; domains?: string[] };
