import "server-only";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { UserError } from "@/lib/errors";
import { MAX_LOGO_BYTES, type LogoType } from "@/lib/share-links/schemas";
import { findLiveShareLink } from "@/lib/share-links/report";
import { refuseStaleEdit } from "@/lib/validation/edit-version";

// The first bytes of each accepted format. The declared type of an upload is never trusted.
const SIGNATURES: { type: LogoType; matches: (b: Buffer) => boolean }[] = [
  { type: "image/png", matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: "image/jpeg", matches: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/webp", matches: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" },
];

/** The logo's type from its magic bytes; refuses anything but PNG, JPEG and WebP, and more than MAX_LOGO_BYTES. */
export function sniffLogo(bytes: Buffer): LogoType {
  if (!bytes.length) throw new UserError("The logo file is empty.", { field: "logo" });
  if (bytes.length > MAX_LOGO_BYTES) throw new UserError(`The logo may be at most ${MAX_LOGO_BYTES / 1024} KB; this one is ${Math.ceil(bytes.length / 1024)} KB.`, { field: "logo" });
  const type = SIGNATURES.find((s) => s.matches(bytes))?.type;
  if (!type) throw new UserError("The logo must be a PNG, JPEG or WebP image (SVG is not accepted).", { field: "logo" });
  return type;
}

export async function getBranding(workspaceId: string) {
  const row = await db().workspaceBranding.findUnique({ where: { workspaceId }, select: { agencyName: true, logoType: true, logo: true, updatedAt: true } });
  return { agencyName: row?.agencyName ?? null, logoType: row?.logoType ?? null, logoBytes: row?.logo?.length ?? 0, updatedAt: row?.updatedAt ?? null };
}

/**
 * Sets the agency name, and the logo unless `logo` is undefined (null removes it). A refused
 * logo changes nothing, the name included, and so does a form opened before another admin's save
 * (`version`: its updatedAt as it read it). Does not authorize: the action checks canManageBranding first.
 */
export async function setBranding(workspaceId: string, updatedById: string, input: { agencyName: string | null; logo?: string | null; version?: Date | null }) {
  let logo: { logo: Uint8Array<ArrayBuffer> | null; logoType: LogoType | null } | Record<string, never> = {};
  if (input.logo === null) logo = { logo: null, logoType: null };
  else if (input.logo !== undefined) {
    const bytes = Buffer.from(input.logo, "base64");
    logo = { logoType: sniffLogo(bytes), logo: new Uint8Array(bytes) };
  }
  await transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ updatedAt: Date }[]>`SELECT "updatedAt" FROM workspace_brandings WHERE "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
    // A form that read no branding yet sent null: the epoch stands for "none" on both sides.
    refuseStaleEdit("The agency branding", row?.updatedAt ?? 0, input.version === null ? 0 : input.version);
    await tx.workspaceBranding.upsert({
      where: { workspaceId },
      create: { workspaceId, agencyName: input.agencyName, updatedById, ...logo },
      update: { agencyName: input.agencyName, updatedById, ...logo },
    });
  });
  return getBranding(workspaceId);
}

/** A workspace's logo bytes and type, or null. */
export async function readLogo(workspaceId: string): Promise<{ bytes: Uint8Array; type: string } | null> {
  const row = await db().workspaceBranding.findUnique({ where: { workspaceId }, select: { logo: true, logoType: true } });
  return row?.logo && row.logoType ? { bytes: row.logo, type: row.logoType } : null;
}

/** The logo of the workspace behind a live share link (authorized by the token), or null. */
export async function readSharedLogo(token: string) {
  const link = await findLiveShareLink(token, { countView: false });
  return link ? readLogo(link.workspaceId) : null;
}
