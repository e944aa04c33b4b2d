import { createHash } from 'node:crypto';

/** Permissions an API key may hold; `*` grants all. */
export const Permission = {
  ALL: '*',
  PRODUCTS_READ: 'products:read',
  PRODUCTS_WRITE: 'products:write',
  ATTRIBUTES_READ: 'attributes:read',
  TAXONOMY_READ: 'taxonomy:read',
  UPLOADS_WRITE: 'uploads:write',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];
export const PERMISSIONS: readonly string[] = Object.values(Permission);

/** A stored API key: only its SHA-256 hash is kept, never the key itself. */
export interface ApiKey {
  id: string;
  hash: string;
  /** Last four characters, to tell keys apart in listings. */
  hint: string;
  permissions: string[];
  active: boolean;
  createdAt: number;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function grants(key: ApiKey, permission: Permission): boolean {
  return key.permissions.includes(Permission.ALL) || key.permissions.includes(permission);
}

/** What the portal shows of a key. */
export function describeApiKey(key: ApiKey) {
  return {
    id: key.id,
    hint: `...${key.hint}`,
    permissions: key.permissions,
    status: key.active ? 'active' : 'inactive',
    createdAt: key.createdAt,
  };
}
