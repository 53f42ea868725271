/** A member's roles, most rights first (the database's enum Role; lib/db/enums.test.ts holds them equal). Pure: pages read it too. */
export const ROLES = ["owner", "admin", "member", "viewer"] as const;

export type Role = (typeof ROLES)[number];
