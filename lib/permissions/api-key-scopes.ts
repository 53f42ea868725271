// What an API key may do, chosen when it is created. Shared by the server (authentication,
// actions, OpenAPI, CLI) and the Settings page. The role each scope stands for, and how it
// combines with the key's member's role, is in lib/permissions/permissions.ts (apiKeyRole).
export const API_KEY_SCOPES = ["read", "write", "admin"] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Keys made by scripts (the CLI) when no scope is given. */
export const DEFAULT_API_KEY_SCOPE: ApiKeyScope = "write";

/** What a key of each scope may do, as the Settings page and the OpenAPI document say it. */
export const API_KEY_SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  read: "read checks, captures, brands, prompts and providers (acts as a viewer)",
  write: "also start checks and cancel the checks its member started (acts as a member)",
  admin: "also cancel any check and retry captures (acts as an admin)",
};
