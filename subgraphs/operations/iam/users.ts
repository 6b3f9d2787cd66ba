import type { OperationsRole } from '../../../contracts/access.js';
import type { UserData } from '../../../contracts/operations/iam-types.js';

/** A user row as the API shows it (never credentials). */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  organization_id: string | null;
  roles: OperationsRole[];
  object_ids: string[];
  super_admin: boolean;
  active: boolean;
  email_verified_at: Date | null;
  banned_at: Date | null;
  api_access: boolean;
  created_at: Date;
}

export const USER_COLUMNS = `u."id", u."email", u."name", u."organization_id", u."roles", u."object_ids", u."super_admin", u."active",
  u."email_verified_at", u."banned_at", u."api_access", u."created_at"`;

export const userData = (row: UserRow): UserData => ({
  id: row.id,
  email: row.email,
  name: row.name,
  organizationId: row.organization_id,
  roles: row.roles,
  objectIds: row.object_ids,
  superAdmin: row.super_admin,
  active: row.active,
  emailVerified: row.email_verified_at !== null,
  bannedAt: row.banned_at === null ? null : new Date(row.banned_at).toISOString(),
  apiAccess: row.api_access,
  createdAt: new Date(row.created_at).toISOString(),
});
