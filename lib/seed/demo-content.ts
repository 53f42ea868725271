// What a first-run user sees: a fictional CRM brand tracked against three real competitors,
// with the kind of questions its marketing team would ask AI assistants.
export const DEMO_LOGIN = { email: "demo@beacon.local", password: "beacon-demo", name: "Dana Demo" };

export const DEMO_WORKSPACE = { slug: "demo", name: "Demo workspace" };

export const DEMO_BRAND = {
  name: "Lumen CRM",
  // «Люмен»: how Russian answers write it, declined («у Люмена», «в Люмене»).
  aliases: ["Lumen", "LumenCRM", "Люмен"],
  domains: ["lumencrm.com", "lumen.io"],
  competitors: [
    { name: "HubSpot", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
    { name: "Salesforce", aliases: ["Salesforce Sales Cloud", "SFDC"], domains: ["salesforce.com"] },
    { name: "Pipedrive", aliases: [], domains: ["pipedrive.com"] },
  ],
};

export const DEMO_PROMPTS: { text: string; tags: string[]; country?: string; language?: string }[] = [
  { text: "What is the best CRM for a 10-person startup?", tags: ["buying", "smb"] },
  { text: "Which CRM is easiest to set up without a dedicated admin?", tags: ["buying", "smb"] },
  { text: "HubSpot vs Salesforce vs Lumen CRM: which should a growing SaaS company pick?", tags: ["comparison"] },
  { text: "What are the most affordable CRMs with a good free plan?", tags: ["pricing"] },
  { text: "Which CRM has the best email integration for sales teams?", tags: ["features"] },
  { text: "Recommend a CRM for a real estate agency with 25 agents.", tags: ["vertical"] },
  { text: "What CRM do B2B SaaS companies use to manage their pipeline?", tags: ["buying"] },
  { text: "Is Lumen CRM a good alternative to Pipedrive?", tags: ["comparison", "brand"] },
  { text: "Which CRM tools offer the best reporting and forecasting?", tags: ["features"] },
  { text: "What is the best CRM for a small business in Germany that is GDPR compliant?", tags: ["compliance"], country: "DE", language: "en" },
  { text: "Welches CRM eignet sich am besten für ein kleines Vertriebsteam?", tags: ["buying", "smb"], country: "DE", language: "de" },
  { text: "Какую CRM выбрать небольшому отделу продаж?", tags: ["buying", "smb"], country: "RU", language: "ru" },
];

