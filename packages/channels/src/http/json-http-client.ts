/** How one HTTP call to a provider ended. Calls never throw: every failure is a value. */
export type HttpOutcome =
  | { kind: 'response'; status: number; body: unknown; ok: boolean }
  | { kind: 'timeout'; ok: false }
  | { kind: 'network'; ok: false; error: string };

export interface HttpCall {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  /**
   * Safe to repeat (reads, logouts): retried on a network error, a timeout, 429 or 5xx. Sends are
   * never retried here: the provider may have delivered a message whose answer was lost.
   */
  idempotent: boolean;
}

export interface JsonHttpClientOptions {
  baseUrl: string;
  headers?: Record<string, string>;
  /** Extra attempts for idempotent calls. */
  retries?: number;
  /** Delay before retry n (1-based), in ms. */
  backoffMs?: (attempt: number) => number;
  fetch?: typeof fetch;
}

/** A small JSON client over the platform's fetch, with per-call timeouts and retries for safe calls. */
export class JsonHttpClient {
  private readonly baseUrl: string;
  private readonly retries: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: JsonHttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? ((attempt) => 100 * 3 ** (attempt - 1));
    this.fetchImpl = options.fetch ?? fetch;
  }

  async call(call: HttpCall): Promise<HttpOutcome> {
    const attempts = call.idempotent ? 1 + this.retries : 1;
    let outcome: HttpOutcome = { kind: 'network', ok: false, error: 'not attempted' };
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, this.backoffMs(attempt - 1)));
      outcome = await this.once(call);
      if (!isRetryable(outcome)) return outcome;
    }
    return outcome;
  }

  private async once(call: HttpCall): Promise<HttpOutcome> {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...call.headers };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await this.fetchImpl(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(call.timeoutMs),
      });
      return await responseOutcome(response);
    } catch (error) {
      // Duck-typed: the abort is a DOMException, which may come from another realm than `Error`.
      const failure = (error ?? {}) as { name?: unknown; message?: unknown; cause?: { message?: unknown } };
      if (failure.name === 'TimeoutError' || failure.name === 'AbortError') return { kind: 'timeout', ok: false };
      const cause = typeof failure.cause?.message === 'string' ? `: ${failure.cause.message}` : '';
      return { kind: 'network', ok: false, error: `${typeof failure.message === 'string' ? failure.message : String(error)}${cause}` };
    }
  }
}

/** A provider's answer as an outcome: its body parsed as JSON, or kept as text when it is not JSON (a proxy's HTML error page), for the error message. */
export async function responseOutcome(response: Response): Promise<HttpOutcome> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  return { kind: 'response', status: response.status, body, ok: response.ok };
}

function isRetryable(outcome: HttpOutcome): boolean {
  if (outcome.kind !== 'response') return true;
  return outcome.status === 429 || outcome.status >= 500;
}

/** A short text for logs and error messages. */
export function describeOutcome(outcome: HttpOutcome): string {
  if (outcome.kind === 'timeout') return 'the provider did not answer in time';
  if (outcome.kind === 'network') return `network error: ${outcome.error}`;
  const body = typeof outcome.body === 'string' ? outcome.body : JSON.stringify(outcome.body);
  return `HTTP ${outcome.status}: ${(body ?? '').slice(0, 300)}`;
}
