// CSV recipients for a new campaign, read in the browser with papaparse (the delimiter, `,` or Excel's `;`, is
// detected), and the per-recipient preview of the message. No DOM: unit-tested under Node.
import Papa from 'papaparse';

/** One recipient read from the file: the phone as written (the API normalises it), an optional name, the other columns. */
export interface Recipient {
  phone: string;
  name?: string;
  variables: Record<string, string>;
}

const PHONE_COLUMNS = ['telefone', 'phone', 'celular', 'whatsapp'];
const NAME_COLUMNS = ['nome', 'name'];

/** Reads recipients from CSV text in the browser (papaparse): a phone column, an optional name, the rest as variables. */
export function parseRecipients(text: string): { recipients: Recipient[]; skipped: number[]; hasPhone: boolean } {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, '').trim(), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() });
  const fields = parsed.meta.fields ?? [];
  const phoneColumn = fields.find((f) => PHONE_COLUMNS.includes(f.toLowerCase()));
  const nameColumn = fields.find((f) => NAME_COLUMNS.includes(f.toLowerCase()));
  if (!phoneColumn) return { recipients: [], skipped: [], hasPhone: false };
  const recipients: Recipient[] = [];
  const skipped: number[] = [];
  parsed.data.forEach((row, i) => {
    const phone = (row[phoneColumn] ?? '').trim();
    if (!phone) {
      skipped.push(i + 2);
      return;
    }
    const variables: Record<string, string> = {};
    for (const field of fields) {
      if (field === phoneColumn || field === nameColumn) continue;
      const value = (row[field] ?? '').trim();
      if (value) variables[field] = value;
    }
    const name = nameColumn ? (row[nameColumn] ?? '').trim() : '';
    recipients.push({ phone, ...(name ? { name } : {}), variables });
  });
  return { recipients, skipped, hasPhone: true };
}

/** What the API will render for one recipient (its own variables, the name ones, and time ones in the browser's clock). */
export function preview(text: string, r: Recipient, now: Date, locale: string): string {
  const hour = now.getHours();
  const builtIn: Record<string, string> = {
    nome: r.name ?? '',
    primeiro_nome: (r.name ?? '').split(/\s+/)[0] ?? '',
    saudacao: hour < 12 ? 'Bom dia' : hour < 18 ? 'Boa tarde' : 'Boa noite',
    hora: now.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }),
    data: now.toLocaleDateString(locale),
  };
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => r.variables[name] ?? builtIn[name] ?? whole);
}
