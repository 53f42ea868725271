import "server-only";
import { defineChart } from "@/lib/analytics/chart";
import { ownPagesCited } from "@/lib/analytics/source-categories";

export const ownPagesChart = defineChart({
  name: "own-pages",
  description: "The brand's own pages cited most",
  query: ownPagesCited,
}).withView({
  page: "sources",
  order: 10,
  kind: "table",
  title: "{brand}'s pages cited most",
  description: "Pages on your own domains that answers cite, with how often and in how many answers.",
  rows: "items",
  x: { key: "url", label: "Page", format: "page" },
  series: [
    { key: "citations", label: "Citations", format: "count" },
    { key: "captures", label: "Answers", format: "count" },
  ],
  sample: { noun: "pages" },
  csv: {
    filename: "own-pages",
    columns: [
      { key: "url", header: "url" },
      { key: "domain", header: "domain" },
      { key: "title", header: "title" },
      { key: "citations", header: "citations" },
      { key: "captures", header: "answers" },
    ],
  },
  emptyWhat: "citations of its own pages",
  height: 160,
});
