import "server-only";
import { env } from "@/lib/config/env";
import { addressGuard, UnsafeUrlError } from "@/lib/net/safe-url";

// The alert channels' use of the SSRF guard (lib/net/safe-url.ts): a Slack or webhook URL is
// checked when a channel is saved and again at every send, where the connection is pinned to
// the checked address. ALERTS_ALLOW_PRIVATE_URLS lets every private address through.

export const { checkedAddresses, lookup: guardedLookup } = addressGuard(() => env().ALERTS_ALLOW_PRIVATE_URLS);

/**
 * Checks a Slack or webhook URL: https (http only when private URLs are allowed), Slack URLs
 * under ALERTS_SLACK_BASE_URL, no credentials in it, and a host that resolves to allowed
 * addresses. Returns a message for the user, or null when the URL is fine.
 */
export async function urlProblem(raw: string, kind: "slack" | "webhook"): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter a full URL, starting with https://";
  }
  if (kind === "slack" && !raw.startsWith(env().ALERTS_SLACK_BASE_URL)) return `A Slack incoming webhook URL starts with ${env().ALERTS_SLACK_BASE_URL}`;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && env().ALERTS_ALLOW_PRIVATE_URLS)) return "The URL must start with https://";
  if (url.username || url.password) return "Leave user names and passwords out of the URL";
  try {
    await checkedAddresses(url.hostname);
  } catch (error) {
    if (error instanceof UnsafeUrlError) return error.message;
    throw error;
  }
  return null;
}
