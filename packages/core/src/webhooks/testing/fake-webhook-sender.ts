import { ValidationError } from '../../shared/errors.js';
import type { AttemptOutcome } from '../index.js';
import type { WebhookRequest, WebhookSender, WebhookUrlPolicy } from '../index.js';

/**
 * A receiver in memory: records every request and answers from a script per URL (the last
 * scripted outcome repeats), 200 when nothing is scripted.
 */
export class FakeWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  private readonly scripts = new Map<string, AttemptOutcome[]>();

  /** Outcomes for the next requests to `url`, in order. */
  script(url: string, ...outcomes: AttemptOutcome[]): this {
    this.scripts.set(url, outcomes);
    return this;
  }

  /** Shorthand: answers with these HTTP statuses. */
  answer(url: string, ...statuses: number[]): this {
    return this.script(url, ...statuses.map((statusCode) => ({ kind: 'response' as const, statusCode, durationMs: 3 })));
  }

  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    this.requests.push(structuredClone(request));
    const script = this.scripts.get(request.url);
    if (!script || script.length === 0) return { kind: 'response', statusCode: 200, durationMs: 3 };
    return script.length > 1 ? script.shift()! : script[0]!;
  }

  to(url: string): WebhookRequest[] {
    return this.requests.filter((r) => r.url === url);
  }
}

/** The registration rule of production, without DNS: `https` only, hosts in `blockedHosts` refused. */
export class FakeWebhookUrlPolicy implements WebhookUrlPolicy {
  constructor(private readonly blockedHosts: readonly string[] = ['localhost', '127.0.0.1', '10.0.0.1']) {}
  async check(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ValidationError('url is not a valid URL', { field: 'url' });
    }
    if (parsed.protocol !== 'https:') throw new ValidationError('url must use https', { field: 'url' });
    if (this.blockedHosts.includes(parsed.hostname)) throw new ValidationError('url must resolve to a public address', { field: 'url' });
  }
}
