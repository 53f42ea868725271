"use client";
import { useEffect, useState } from "react";

/** The current time, refreshed every second so "3 s ago" keeps counting between polls. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Compact ages for a page that is read at a glance: "45 s", "12 min", "3 h 5 min", "4 d". */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

export const ago = (date: Date | string, now: number) => `${formatAge(now - new Date(date).getTime())} ago`;

/** "in 40 s" while the moment is ahead, "3 s ago" once it has passed. */
export function relativeTo(date: Date | string, now: number): string {
  const ms = new Date(date).getTime() - now;
  return ms > 0 ? `in ${formatAge(ms)}` : ago(date, now);
}
