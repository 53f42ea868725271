import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { randomBytes } from "node:crypto";
import type { ChannelInput, UpdateChannelInput } from "@/lib/alerts/channel-schemas";
import { urlProblem } from "@/lib/alerts/safe-url";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { ConflictError, NotFoundError, UserError } from "@/lib/errors";
import type { AlertChannel } from "@/lib/generated/prisma/client";
import { isUniqueViolation } from "@/lib/db/sqlstate";

// A workspace's alert channels: email lists, Slack incoming webhooks and signed webhooks. None of
// these functions authorize (callers check canManageAlerts); every query is scoped by workspace.
// A webhook channel's signing secret is a key the worker must use, so it is kept in the database
// as it is (like provider credentials are kept in the environment): shown once at creation and
// rotation, never listed.

export type ChannelView = {
  id: string;
  kind: "email" | "slack" | "webhook";
  name: string;
  to: string[];
  /** Slack: only the host is shown, since the path of a Slack hook URL is its credential. */
  url: string | null;
  createdAt: Date;
  /** The edit form's version (lib/validation/edit-version.ts). */
  updatedAt: Date;
};

function view(c: AlertChannel): ChannelView {
  const config = c.config as { to?: string[]; url?: string };
  const url = config.url ? (c.kind === "slack" ? `${new URL(config.url).origin}/…` : config.url) : null;
  return { id: c.id, kind: c.kind, name: c.name, to: config.to ?? [], url, createdAt: c.createdAt, updatedAt: c.updatedAt };
}

/** A Standard Webhooks secret: whsec_ + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

const configOf = (input: ChannelInput) => (input.kind === "email" ? { to: input.to } : { url: input.url });

async function assertSafe(input: ChannelInput): Promise<void> {
  if (input.kind === "email") return;
  const problem = await urlProblem(input.url, input.kind);
  if (problem) throw new UserError(problem, { field: "url" });
}

const isDuplicateName = (error: unknown) => isUniqueViolation(error);
const duplicate = (name: string) => new ConflictError(`A channel named "${name}" already exists; pick another name.`, { field: "name" });

export async function listChannels(workspaceId: string): Promise<{ channels: ChannelView[]; smtpConfigured: boolean }> {
  const channels = await db().alertChannel.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return { channels: channels.map(view), smtpConfigured: !!env().SMTP_URL };
}

/** Creates a channel; a webhook channel's secret is returned this once. */
export async function createChannel(workspaceId: string, input: ChannelInput): Promise<{ channel: ChannelView; secret: string | null }> {
  await assertSafe(input);
  const secret = input.kind === "webhook" ? newWebhookSecret() : null;
  try {
    const channel = await db().alertChannel.create({ data: { workspaceId, kind: input.kind, name: input.name, config: configOf(input), secret } });
    return { channel: view(channel), secret };
  } catch (error) {
    if (isDuplicateName(error)) throw duplicate(input.name);
    throw error;
  }
}

async function ownChannel(workspaceId: string, channelId: string): Promise<AlertChannel> {
  const channel = await db().alertChannel.findFirst({ where: { id: channelId, workspaceId } });
  if (!channel) throw new NotFoundError("This channel does not exist in this workspace.");
  return channel;
}

/**
 * Changes a channel's name and where it sends; its kind stays (and a webhook keeps its secret).
 * `version`: its updatedAt as the form read it: a save from before another admin's change is
 * refused (refuseStaleEdit) rather than adding back a recipient they removed.
 */
export async function updateChannel(workspaceId: string, input: UpdateChannelInput & { version?: Date }): Promise<ChannelView> {
  const existing = await ownChannel(workspaceId, input.channelId);
  if (existing.kind !== input.kind) throw new UserError("A channel's kind cannot change; create a new channel instead.", { field: "kind" });
  await assertSafe(input);
  try {
    // Written only if unchanged since the form read it (compare and set: no lock held across assertSafe's DNS lookups).
    const { count } = await db().alertChannel.updateMany({
      where: { id: existing.id, workspaceId, ...(input.version ? { updatedAt: input.version } : {}) },
      data: { name: input.name, config: configOf(input) },
    });
    if (!count) {
      const now = await ownChannel(workspaceId, input.channelId);
      refuseStaleEdit(now.name, now.updatedAt, input.version);
    }
    return view(await ownChannel(workspaceId, input.channelId));
  } catch (error) {
    if (isDuplicateName(error)) throw duplicate(input.name);
    throw error;
  }
}

/** Deletes a channel, its rules' links to it and its deliveries. */
export async function deleteChannel(workspaceId: string, channelId: string): Promise<void> {
  const { count } = await db().alertChannel.deleteMany({ where: { id: channelId, workspaceId } });
  if (!count) throw new NotFoundError("This channel does not exist in this workspace.");
}

/** A new signing secret for a webhook channel, returned this once; the old one stops working. */
export async function rotateWebhookSecret(workspaceId: string, channelId: string): Promise<{ secret: string }> {
  const channel = await ownChannel(workspaceId, channelId);
  if (channel.kind !== "webhook") throw new UserError("Only webhook channels have a signing secret.");
  const secret = newWebhookSecret();
  await db().alertChannel.update({ where: { id: channel.id, workspaceId }, data: { secret } });
  return { secret };
}
