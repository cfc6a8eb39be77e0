import { CarteiroApiError, createCarteiroClient, unwrap, type CarteiroClient, type Schema } from '@carteiro/sdk';

export { CarteiroApiError, unwrap };
export type { CarteiroClient, Schema };

/** What the console keeps for this tab only (sessionStorage: gone when the tab closes, never sent anywhere but this service). */
export interface Session {
  apiKey?: string;
  adminToken?: string;
}

const SESSION_KEY = 'carteiro.console.session';

export function loadSession(): Session {
  try {
    return JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? '{}') as Session;
  } catch {
    return {};
  }
}

export function saveSession(session: Session): void {
  if (session.apiKey || session.adminToken) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

/** A client of this very service (same origin), through the project's SDK. */
export function clientFor(token: string): CarteiroClient {
  return createCarteiroClient({ baseUrl: window.location.origin, apiKey: token });
}

/** The calling key and its company (GET /v1/me); null when the key may not read it (no credits:read). */
export type Me = Schema<'Me'>;

export function hasScope(me: Me | null, scope: string): boolean {
  if (!me) return true; // unknown: let the API answer
  return me.api_key.scopes.includes('*') || me.api_key.scopes.includes(scope);
}

/** A fresh idempotency key (crypto.randomUUID exists only in secure contexts; a LAN address over http is not one). */
export function idempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
