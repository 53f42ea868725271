import { z } from "zod";

/**
 * The first day a date filter may name. Answers cannot be older, and JavaScript's Date.UTC reads
 * years 0-99 as 1900-1999 while PostgreSQL refuses year 0: a day before this was a 500, not a
 * clear error.
 */
export const EARLIEST_DAY = "2000-01-01";

/** A day (YYYY-MM-DD, UTC) from a person or a client, from EARLIEST_DAY on. */
export const dayInput = (message = "Use a date like 2025-01-31") =>
  z.iso.date(message).refine((day) => day >= EARLIEST_DAY, `Use a date from ${EARLIEST_DAY} on`);
