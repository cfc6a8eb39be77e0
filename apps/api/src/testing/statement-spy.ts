import pg from 'pg';

/**
 * Calls `listener` with every statement a driver client sends from now on (its text trimmed and lower-cased), before
 * sending it: how the round-trip tests count statements; `sent` is the statement as sent (text untouched, with its
 * parameter values), how the plan audit EXPLAINs it again. Returns the function that puts the driver's own `query` back
 * (call it in afterAll).
 */
export function spyOnStatements(listener: (client: pg.Client, text: string, sent: { text: string; values: readonly unknown[] }) => void): () => void {
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const values = (typeof first === 'string' ? args[1] : first?.values) as unknown[] | undefined;
    listener(this, text.trim().toLowerCase(), { text, values: Array.isArray(values) ? values : [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  return () => {
    pg.Client.prototype.query = original;
  };
}
