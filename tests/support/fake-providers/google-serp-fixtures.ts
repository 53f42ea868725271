// Bodies in the documented shapes of DataForSEO's and SerpApi's Google AI Overview and AI Mode
// results (see lib/providers/dataforseo.ts and lib/providers/serpapi.ts for the doc pages), for
// tests/support/fake-providers/google-serp-server.ts. One answer about CRMs for small teams.

const HUBSPOT = "https://www.hubspot.com/products/crm";
const PIPEDRIVE = "https://www.pipedrive.com/en/pricing";
const G2 = "https://www.g2.com/categories/crm";
const ZOHO = "https://www.zoho.com/crm/";
const ORGANIC = { type: "organic", rank_group: 1, rank_absolute: 2, url: "https://www.salesforce.com/small-business/", title: "Salesforce for small business", domain: "www.salesforce.com" };

const dfsReference = (url: string, title: string, source: string) => ({ type: "ai_overview_reference", source, domain: new URL(url).hostname, url, title, text: "…" });

/** An `ai_overview` item with its own markdown (inline links, an image placeholder, a table). */
export const DATAFORSEO_OVERVIEW = {
  type: "ai_overview",
  rank_group: 1,
  rank_absolute: 1,
  position: "left",
  asynchronous_ai_overview: true,
  markdown:
    `For a 10-person startup, **HubSpot CRM** is a common first choice: its free tier covers contacts and deals [[1]](${HUBSPOT}#:~:text=free%20tier).\n\n` +
    "![HubSpot CRM dashboard](<Base64-Image-Removed>)\n\n" +
    `- **Pipedrive**: built around the sales pipeline [[2]](${PIPEDRIVE})\n- **Salesforce**: more than most small teams need\n\n` +
    "| CRM | Free tier |\n|---|---|\n| HubSpot | Yes |\n| Pipedrive | No |",
  items: [
    { type: "ai_overview_element", title: null, text: "For a 10-person startup, HubSpot CRM is a common first choice.", markdown: "For a 10-person startup, **HubSpot CRM** is a common first choice.", links: null, images: null, references: [dfsReference(`${HUBSPOT}#:~:text=free%20tier`, "Free CRM Software | HubSpot", "HubSpot")] },
    { type: "ai_overview_element", title: null, text: "Pipedrive: built around the sales pipeline", markdown: "- **Pipedrive**: built around the sales pipeline", links: null, images: null, references: [dfsReference(PIPEDRIVE, "Pipedrive pricing", "Pipedrive")] },
    { type: "ai_overview_table_element", markdown: "| CRM | Free tier |\n|---|---|\n| HubSpot | Yes |\n| Pipedrive | No |", table: { table_header: ["CRM", "Free tier"], table_content: [["HubSpot", "Yes"], ["Pipedrive", "No"]] }, references: null },
  ],
  references: [dfsReference(`${HUBSPOT}#:~:text=free%20tier`, "Free CRM Software | HubSpot", "HubSpot"), dfsReference(PIPEDRIVE, "Pipedrive pricing", "Pipedrive"), dfsReference(G2, "Best CRM Software 2026 | G2", "G2")],
  rectangle: null,
};

/** An AI Mode item without top-level markdown: the adapter renders its elements. */
export const DATAFORSEO_AI_MODE = {
  type: "ai_overview",
  rank_group: 1,
  rank_absolute: 1,
  markdown: null,
  items: [
    { type: "ai_overview_element", title: "Best picks", text: "HubSpot CRM is free to start.", markdown: null, links: [{ type: "link_element", title: "according to Zoho", url: ZOHO, domain: "www.zoho.com" }], references: [dfsReference(HUBSPOT, "Free CRM Software | HubSpot", "HubSpot")] },
    { type: "ai_overview_expanded_element", title: "Pipedrive", text: null, components: [{ type: "ai_overview_expanded_component", title: null, text: "Pipeline first.", markdown: "- Pipeline first.\n- From $14 per user.", references: null }], references: null },
    { type: "ai_overview_video_element", title: "CRM basics", url: "https://www.youtube.com/watch?v=crm", source: "YouTube" },
    { type: "ai_overview_table_element", markdown: null, table: { table_header: ["CRM", "Free tier"], table_content: [["HubSpot", "Yes"]] }, references: null },
  ],
  references: [dfsReference(HUBSPOT, "Free CRM Software | HubSpot", "HubSpot"), dfsReference(G2, "Best CRM Software 2026 | G2", "G2")],
};

export const DATAFORSEO_ORGANIC_ITEM = ORGANIC;

/** `text_blocks` of a SerpApi AI Overview: paragraph, heading, nested list, table. */
export const SERPAPI_OVERVIEW = {
  text_blocks: [
    { type: "paragraph", snippet: "For a 10-person startup, HubSpot CRM is a common first choice: its free tier covers contacts and deals.", snippet_highlighted_words: ["HubSpot CRM"], reference_indexes: [0] },
    { type: "heading", snippet: "Other options" },
    {
      type: "list",
      list: [
        { title: "Pipedrive", snippet: "built around the sales pipeline", reference_indexes: [1] },
        { title: "Salesforce", snippet: "more than most small teams need", list: [{ snippet: "Starter Suite from $25 per user" }] },
      ],
    },
    { type: "table", table: [["CRM", "Free tier"], ["HubSpot", "Yes"], ["Pipedrive", "No"]] },
  ],
  references: [
    { index: 0, title: "Free CRM Software | HubSpot", link: HUBSPOT, snippet: "…", source: "HubSpot" },
    { index: 1, title: "Pipedrive pricing", link: PIPEDRIVE, snippet: "…", source: "Pipedrive" },
    { index: 2, title: "Best CRM Software 2026 | G2", link: G2, snippet: "…", source: "G2" },
  ],
};

/** Top-level `text_blocks` of SerpApi's Google AI Mode: a code block, an expandable, inline links. */
export const SERPAPI_AI_MODE = {
  text_blocks: [
    { type: "paragraph", snippet: "HubSpot CRM suits most 10-person teams.", reference_indexes: [1], snippet_links: [{ text: "Zoho", link: ZOHO }] },
    { type: "expandable", title: "Pipedrive", text_blocks: [{ type: "paragraph", snippet: "Pipeline first, from $14 per user.", reference_indexes: [0] }] },
    { type: "code_block", language: "bash", code: "curl https://api.hubapi.com/crm/v3/objects/contacts" },
  ],
  references: [
    { index: 0, title: "Pipedrive pricing", link: PIPEDRIVE, snippet: "…", source: "Pipedrive" },
    { index: 1, title: "Free CRM Software | HubSpot", link: HUBSPOT, snippet: "…", source: "HubSpot" },
    { index: 2, title: "Best CRM Software 2026 | G2", link: G2, snippet: "…", source: "G2" },
  ],
};

export const SERPAPI_ORGANIC_RESULTS = [{ position: 1, title: ORGANIC.title, link: ORGANIC.url, source: "Salesforce" }];
