import { zonedTime } from '../shared/zoned-time.js';

/** What placeholders of one recipient are filled from, at the moment of sending. */
export interface PersonalisationContext {
  /** E.164. */
  phone: string;
  name: string | null;
  variables: Record<string, string> | null;
  now: Date;
  timeZone: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** `Bom dia` before 12:00, `Boa tarde` before 18:00, `Boa noite` after (operations.md section 4). */
export function saudacao(now: Date, timeZone: string): string {
  return greetingAt(zonedTime(now, timeZone).hour);
}

function greetingAt(hour: number): string {
  if (hour < 12) return 'Bom dia';
  if (hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

/** The value of every built-in placeholder, plus the recipient's own variables (which win). */
export function placeholderValues(ctx: PersonalisationContext): Record<string, string> {
  const nome = ctx.name?.trim() ? ctx.name.trim() : ctx.phone;
  // One reading of the zone's wall clock for the three (Intl's formatToParts is the costly part of a send's text).
  const t = zonedTime(ctx.now, ctx.timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    nome,
    primeiro_nome: nome.split(/\s+/)[0] ?? nome,
    saudacao: greetingAt(t.hour),
    hora: `${pad(t.hour)}:${pad(t.minute)}`,
    data: `${pad(t.day)}/${pad(t.month)}/${t.year}`,
    telefone: ctx.phone,
    ...(ctx.variables ?? {}),
  };
}

/**
 * Fills `{{name}}` placeholders. Unknown placeholders are left as written, so that a typo is
 * visible in the simulator outbox instead of silently vanishing.
 */
export function personalise(text: string, ctx: PersonalisationContext, values = placeholderValues(ctx)): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

/** Personalises every string inside a JSON value (raw template components). */
export function personaliseDeep(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
  if (Array.isArray(value)) return value.map((v) => personaliseDeep(v, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, personaliseDeep(v, values)]));
  }
  return value;
}

/** The text of recipient `index`: the base text and the variants take turns. */
export function rotatedText(base: string | null, variants: readonly string[], index: number): string | null {
  if (base === null) return null;
  const texts = [base, ...variants];
  return texts[index % texts.length] ?? base;
}
