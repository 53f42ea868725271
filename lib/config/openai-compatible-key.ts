// Pure (no process.env read), so the Instance page's connection form imports it through
// lib/providers/openai-compatible-settings.ts without pulling the configuration into the browser.

/**
 * The only variables a connection may name as its key: an operator must not be able to send
 * DATABASE_URL or BEACON_AUTH_SECRET as a bearer token to a URL of their choice.
 */
export const OPENAI_COMPATIBLE_KEY_ENV = /^OPENAI_COMPATIBLE_[A-Z0-9_]+$/;
