/** Every scope of the specification's table. */
export const Scopes = [
  'messages:write',
  'campaigns:read',
  'campaigns:write',
  'webhooks:manage',
  'channel:manage',
  'credits:read',
  'imports:write',
  'tickets:read',
  'tickets:write',
  'contacts:read',
  'contacts:write',
  'appointments:read',
  'appointments:write',
  'crm:read',
  'crm:write',
  'scheduled_messages:read',
  'scheduled_messages:write',
  'tags:read',
  'tags:write',
  'contracts:read',
  'contracts:write',
  'leads:read',
  'leads:write',
  'reports:read',
] as const;
export type Scope = (typeof Scopes)[number];

/** `*` on a key grants every scope, including ones added later. */
export const ALL_SCOPES = '*';

export function isScope(value: string): value is Scope {
  return (Scopes as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(ALL_SCOPES) || granted.includes(needed);
}
