import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { shareOfVoiceOverTime } from "@/lib/analytics/trends";

export const shareOfVoiceChart = defineChart({
  name: "share-of-voice",
  description: "Share of voice of the brand and each competitor per bucket (mention counts and shares; `answers` is the sample size)",
  query: shareOfVoiceOverTime,
});
