import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { CarteiroApiError, hasScope, type CarteiroClient, type Me } from './api.js';
import { t, type MessageKey } from './i18n.js';

/** What every page needs: the key's client and identity, the operator's client, the current language (to re-render). */
export interface Ctx {
  api: CarteiroClient | null;
  admin: CarteiroClient | null;
  me: Me | null;
  locale: string;
}

export const AppContext = createContext<Ctx>({ api: null, admin: null, me: null, locale: 'pt-BR' });

export function useApp(): Ctx {
  return useContext(AppContext);
}

/** Runs `load` now and every `everyMs` (0: once) while mounted; `reload()` runs it again at once. */
export function usePoll<T>(load: () => Promise<T>, everyMs: number, deps: unknown[] = []): { data: T | undefined; error: unknown; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const value = await loadRef.current();
        if (!stopped) {
          setData(value);
          setError(undefined);
        }
      } catch (e) {
        if (!stopped) setError(e);
      }
      if (!stopped && everyMs > 0) timer = setTimeout(run, everyMs);
    };
    void run();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [...deps, tick, everyMs]);
  return { data, error, reload: () => setTick((n) => n + 1) };
}

/**
 * An action of a button or form that shows its failure: clears the error shown, runs `work` and
 * shows what it threw (in the `ErrorBox` fed by `setError`).
 */
export function attempt(setError: (error: unknown) => void, work: () => Promise<void>): () => Promise<void> {
  return async () => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    }
  };
}

/** A form's `onSubmit` that stays on the page and runs `work` as `attempt` does. */
export function submitting(setError: (error: unknown) => void, work: () => Promise<void>): (e: Event) => Promise<void> {
  const run = attempt(setError, work);
  return (e) => {
    e.preventDefault();
    return run();
  };
}

/** A set of checkboxes, one per option, choosing a subset of `options` (kept in the order they were chosen). */
export function CheckList<T extends string>({ legend, options, chosen, onChange }: { legend: string; options: readonly T[]; chosen: readonly T[]; onChange: (chosen: T[]) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div class="checks">
        {options.map((option) => (
          <label class="check" key={option}>
            <input type="checkbox" checked={chosen.includes(option)} onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, option] : chosen.filter((x) => x !== option))} />
            {option}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Previous and next page buttons around "page X of Y"; `shown` is the page the list on screen is (default `page`). */
export function Pager({ page, pages, shown = page, onPage }: { page: number; pages: number; shown?: number; onPage: (page: number) => void }) {
  return (
    <div class="pager">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('detail.prev')}
      </button>
      <span>{t('detail.page', { page: shown, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('detail.next')}
      </button>
    </div>
  );
}

/** A table's header row: one column a label, and a last column named only for screen readers when the rows end in an action. */
export function TableHead({ columns, action }: { columns: readonly string[]; action?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th scope="col">{column}</th>
        ))}
        {action !== undefined && (
          <th scope="col">
            <span class="visually-hidden">{action}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}

/** The end of a settings form: its submit button, then what the save said or the API's refusal. */
export function FormEnd({ submit, notice, error }: { submit: string; notice: string | null; error: unknown }) {
  return (
    <>
      <div>
        <button type="submit" class="primary">
          {submit}
        </button>
      </div>
      <Notice text={notice} />
      <ErrorBox error={error} />
    </>
  );
}

/** The API's refusal, readable: code, message, the states a move is allowed from, the missing scope. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof CarteiroApiError) {
    const allowed = Array.isArray(error.details?.['allowed']) ? (error.details['allowed'] as string[]) : null;
    const scope = typeof error.details?.['required_scope'] === 'string' ? (error.details['required_scope'] as string) : null;
    return (
      <div class="error" role="alert">
        <strong>{t('error.title', { code: `${error.status} ${error.code}` })}</strong>
        <p>{error.message}</p>
        {allowed && <p>{t('error.allowed', { states: allowed.map((s) => statusText(s)).join(', ') })}</p>}
        {scope && <p>{t('error.scope', { scope })}</p>}
      </div>
    );
  }
  return (
    <div class="error" role="alert">
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
}

function statusText(status: string): string {
  const key = `cstatus.${status}` as MessageKey;
  const text = t(key);
  return text === key ? status : text;
}

/** A button that needs a scope: greyed out (and saying why) when the key lacks it. */
export function ScopedButton(props: { scope: string; onClick?: () => void; children: ComponentChildren; class?: string; busy?: boolean; type?: 'button' | 'submit' }) {
  const { me } = useApp();
  const allowed = hasScope(me, props.scope);
  return (
    <button
      type={props.type ?? 'button'}
      class={props.class}
      disabled={!allowed || props.busy}
      title={allowed ? undefined : t('scope.missing', { scope: props.scope })}
      onClick={props.onClick}
    >
      {props.children}
      {!allowed && <span class="visually-hidden"> ({t('scope.missing', { scope: props.scope })})</span>}
    </button>
  );
}

/** Sent, failed and skipped as one stacked bar, with the numbers in its accessible name. */
export function ProgressBar({ total, sent, failed, skipped }: { total: number; sent: number; failed: number; skipped: number }) {
  const pct = (n: number) => (total > 0 ? `${(100 * n) / total}%` : '0%');
  const done = sent + failed + skipped;
  const label = t('campaigns.progressLabel', { sent, failed, skipped, total });
  return (
    <div class="progress-wrap">
      <div class="progress" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-label={label}>
        <span class="seg sent" style={{ width: pct(sent) }} />
        <span class="seg failed" style={{ width: pct(failed) }} />
        <span class="seg skipped" style={{ width: pct(skipped) }} />
      </div>
      <span class="progress-text">{label}</span>
    </div>
  );
}

const HEALTH_LEVEL: Record<string, number> = { healthy: 3, degraded: 2, down: 1, unknown: 0 };

/** The health checks of the last hour as small bars, one per check (taller is healthier). */
export function Sparkline({ points, label }: { points: { checkedAt: string; state: string }[]; label: string }) {
  const width = 160;
  const height = 28;
  const shown = points.slice(-40);
  const step = shown.length > 0 ? width / Math.max(shown.length, 20) : width;
  return (
    <svg class="spark" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      <rect x="0" y="0" width={width} height={height} class="spark-bg" />
      {shown.map((p, i) => {
        const level = HEALTH_LEVEL[p.state] ?? 0;
        const h = 4 + level * 8;
        return <rect key={p.checkedAt} x={i * step + 1} y={height - h} width={Math.max(2, step - 2)} height={h} class={`spark-${p.state}`} />;
      })}
    </svg>
  );
}

export function Notice({ text }: { text: string | null }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

/** Copies to the clipboard (a secure context), else selects the text for Ctrl-C. */
export function CopyButton({ value, targetId }: { value: string; targetId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
          } catch {
            const el = document.getElementById(targetId) as HTMLInputElement | null;
            el?.select();
            document.execCommand?.('copy');
          }
          setCopied(true);
        }}
      >
        {t('webhooks.copy')}
      </button>
      {copied && <span role="status"> {t('webhooks.copied')}</span>}
    </>
  );
}
