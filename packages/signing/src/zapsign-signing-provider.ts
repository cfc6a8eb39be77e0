import { timingSafeEqual } from 'node:crypto';
import { DomainError, type CreateEnvelopeRequest, type CreatedEnvelope, type EnvelopeStatus, type ProviderSignerStatus, type SigningProvider, type SigningWebhookEvent } from '@carteiro/core';

/** Where and how to reach ZapSign (`ZAPSIGN_*`). */
export interface ZapSignOptions {
  /** `https://api.zapsign.com.br` (production) or the sandbox; a fake server in tests. */
  baseUrl: string;
  apiToken: string;
  /** The secret ZapSign sends in `webhookHeader` with each webhook (configured in its dashboard). */
  webhookSecret: string;
  webhookHeader?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

function signerStatus(raw: unknown): ProviderSignerStatus['status'] {
  if (raw === 'signed') return 'signed';
  if (raw === 'refused') return 'refused';
  return 'pending';
}

function readSigner(raw: unknown, status?: ProviderSignerStatus['status']): ProviderSignerStatus | null {
  const s = asRecord(raw);
  const ref = str(s.token);
  if (!ref) return null;
  const at = str(s.signed_at) ?? str(s.refused_at) ?? str(s.last_view_at);
  return { id: str(s.external_id), ref, status: status ?? signerStatus(s.status), at: at ? new Date(at) : null, reason: str(s.refusal_reason) ?? str(s.reason) };
}

/**
 * ZapSign (docs.zapsign.com.br): one `POST /api/v1/docs/` with the PDF in `base64_pdf`, our contract
 * id as `external_id` and each signer's id as their `external_id`, emails and ZapSign's own
 * WhatsApp disabled — the `sign_url`s come back at once and we deliver them over the company's
 * channel. Cancel is `DELETE /api/v1/docs/{token}/`, the reconcile reads `GET /api/v1/docs/{token}/`.
 * Webhooks (`doc_signed`, `doc_refused`, `doc_viewed`) carry the document and its signers; the one
 * who acted is `signer_who_signed` (or the signer whose status changed). Their secret travels in a
 * configured header (ZapSign lets the account add custom headers to its webhooks).
 */
export class ZapSignSigningProvider implements SigningProvider {
  readonly name = 'zapsign';
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly header: string;

  constructor(private readonly options: ZapSignOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.header = (options.webhookHeader ?? 'x-zapsign-secret').toLowerCase();
  }

  private async call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.options.apiToken}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000),
      });
    } catch (error) {
      throw new DomainError('PROVIDER_ERROR', `ZapSign did not answer: ${(error as Error).message}`);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: kept as text for the error message.
    }
    return { status: response.status, body: parsed };
  }

  private failure(action: string, answer: { status: number; body: unknown }): DomainError {
    const detail = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return new DomainError('PROVIDER_ERROR', `ZapSign failed to ${action}: HTTP ${answer.status} ${(detail ?? '').slice(0, 200)}`, { provider_status: answer.status });
  }

  async createEnvelope(request: CreateEnvelopeRequest): Promise<CreatedEnvelope> {
    const answer = await this.call('POST', '/api/v1/docs/', {
      name: request.title,
      base64_pdf: Buffer.from(request.pdf).toString('base64'),
      external_id: request.externalId,
      disable_signer_emails: true,
      lang: 'pt-br',
      date_limit_to_sign: request.expiresAt.toISOString(),
      signers: request.signers.map((s) => ({
        name: s.name,
        external_id: s.id,
        phone_country: s.phone.startsWith('+55') ? '55' : s.phone.replace(/^\+/, '').slice(0, 2),
        phone_number: s.phone.startsWith('+55') ? s.phone.slice(3) : s.phone.replace(/^\+\d{2}/, ''),
        send_automatic_email: false,
        send_automatic_whatsapp: false,
      })),
    });
    if (answer.status < 200 || answer.status >= 300) throw this.failure('create the document', answer);
    const doc = asRecord(answer.body);
    const ref = str(doc.token);
    const signers = (Array.isArray(doc.signers) ? doc.signers : []).map(asRecord);
    const mapped = request.signers.map((s) => {
      const found = signers.find((x) => x.external_id === s.id);
      return { id: s.id, ref: str(found?.token) ?? '', signUrl: str(found?.sign_url) ?? '' };
    });
    if (!ref || mapped.some((s) => !s.ref || !s.signUrl)) throw this.failure('answer a token and a sign_url per signer', answer);
    return { ref, signers: mapped };
  }

  async cancelEnvelope(ref: string): Promise<void> {
    const answer = await this.call('DELETE', `/api/v1/docs/${encodeURIComponent(ref)}/`);
    if (answer.status === 404 || (answer.status >= 200 && answer.status < 300)) return;
    throw this.failure('delete the document', answer);
  }

  async getStatus(ref: string): Promise<EnvelopeStatus> {
    const answer = await this.call('GET', `/api/v1/docs/${encodeURIComponent(ref)}/`);
    if (answer.status === 404) return { status: 'cancelled', signers: [] };
    if (answer.status < 200 || answer.status >= 300) throw this.failure('read the document', answer);
    const doc = asRecord(answer.body);
    const status = doc.deleted === true ? 'cancelled' : doc.status === 'signed' ? 'signed' : doc.status === 'refused' ? 'refused' : doc.status === 'expired' ? 'expired' : 'pending';
    const signers = (Array.isArray(doc.signers) ? doc.signers : []).map((s) => readSigner(s)).filter((s): s is ProviderSignerStatus => s !== null);
    return { status, signers };
  }

  verifyWebhook(headers: Readonly<Record<string, string | string[] | undefined>>, body: unknown): SigningWebhookEvent[] {
    const sent = headers[this.header];
    const given = Buffer.from(typeof sent === 'string' ? sent : '');
    const expected = Buffer.from(this.options.webhookSecret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DomainError('UNAUTHORIZED', 'Invalid signing webhook secret');
    const doc = asRecord(body);
    const envelopeRef = str(doc.token);
    const type = str(doc.event_type);
    if (!envelopeRef || !type) return [];
    const signers = (Array.isArray(doc.signers) ? doc.signers : []).map(asRecord);
    let signer: ProviderSignerStatus | null = null;
    if (type === 'doc_signed') signer = readSigner(doc.signer_who_signed ?? signers.find((s) => s.status === 'signed'), 'signed');
    else if (type === 'doc_refused') signer = readSigner(doc.signer_who_refused ?? signers.find((s) => s.status === 'refused'), 'refused');
    else if (type === 'doc_viewed') signer = readSigner(doc.signer ?? doc.signer_who_viewed, 'viewed');
    if (!signer) return [];
    if (type === 'doc_refused' && !signer.reason) signer.reason = str(doc.refusal_reason) ?? str(doc.reason);
    // ZapSign sends no event id: the event, the document and the signer name the fact (a redelivery repeats them).
    return [{ eventId: `${type}:${envelopeRef}:${signer.ref}`, envelopeRef, signer }];
  }
}
