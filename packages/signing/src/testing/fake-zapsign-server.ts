import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A document the fake holds, in ZapSign's shapes. */
export interface FakeZapSignDoc {
  token: string;
  external_id: string;
  name: string;
  status: 'pending' | 'signed' | 'refused';
  deleted: boolean;
  pdfBytes: number;
  signers: { token: string; external_id: string; name: string; status: 'new' | 'signed' | 'refused'; sign_url: string; signed_at: string | null; phone_number: string }[];
}

/**
 * A loopback ZapSign for tests, speaking the published shapes of `POST /api/v1/docs/`, `GET` and
 * `DELETE /api/v1/docs/{token}/` (Bearer API token); it can build the `doc_signed` / `doc_refused`
 * webhook bodies ZapSign would send, and fail on demand.
 */
export class FakeZapSignServer {
  readonly docs = new Map<string, FakeZapSignDoc>();
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  /** Answer 500 to the next creations. */
  failCreates = 0;
  private server: Server | null = null;

  constructor(readonly apiToken = 'zs-token') {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    this.requests.push({ method: req.method ?? 'GET', path, body });
    const answer = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${this.apiToken}`) return answer(401, { detail: 'Token inválido.' });
    if (req.method === 'POST' && path === '/api/v1/docs/') {
      if (this.failCreates > 0) {
        this.failCreates -= 1;
        return answer(500, { detail: 'Erro interno' });
      }
      if (!body || typeof body.base64_pdf !== 'string' || !Array.isArray(body.signers) || body.signers.length === 0) return answer(400, { detail: 'base64_pdf e signers são obrigatórios' });
      const token = randomUUID();
      const doc: FakeZapSignDoc = {
        token,
        external_id: String(body.external_id ?? ''),
        name: String(body.name ?? ''),
        status: 'pending',
        deleted: false,
        pdfBytes: Buffer.from(body.base64_pdf, 'base64').length,
        signers: (body.signers as Record<string, unknown>[]).map((s) => {
          const signerToken = randomUUID();
          return {
            token: signerToken,
            external_id: String(s.external_id ?? ''),
            name: String(s.name ?? ''),
            status: 'new',
            sign_url: `https://app.zapsign.example/verificar/${signerToken}`,
            signed_at: null,
            phone_number: String(s.phone_number ?? ''),
          };
        }),
      };
      this.docs.set(token, doc);
      return answer(200, this.view(doc));
    }
    const match = /^\/api\/v1\/docs\/([^/]+)\/$/.exec(path);
    const doc = match ? this.docs.get(match[1]!) : undefined;
    if (!doc || doc.deleted) return answer(404, { detail: 'Documento não encontrado' });
    if (req.method === 'GET') return answer(200, this.view(doc));
    if (req.method === 'DELETE') {
      doc.deleted = true;
      return answer(200, { message: 'Documento excluído' });
    }
    return answer(405, { detail: 'Método não permitido' });
  }

  /** The document as ZapSign answers it: every field but the size the fake keeps for tests. */
  private view(doc: FakeZapSignDoc) {
    const { pdfBytes: _size, signers, ...fields } = doc;
    return { ...fields, signers: signers.map((s) => ({ ...s })) };
  }

  /** The document created for our contract. */
  byExternalId(externalId: string): FakeZapSignDoc | undefined {
    return [...this.docs.values()].find((d) => d.external_id === externalId);
  }

  /** A signer signs (or refuses) at ZapSign; answers the webhook body ZapSign sends. */
  act(docToken: string, signerExternalId: string, outcome: 'signed' | 'refused', at = new Date()): Record<string, unknown> {
    const doc = this.docs.get(docToken)!;
    const signer = doc.signers.find((s) => s.external_id === signerExternalId)!;
    signer.status = outcome;
    if (outcome === 'signed') signer.signed_at = at.toISOString();
    doc.status = outcome === 'refused' ? 'refused' : doc.signers.every((s) => s.status === 'signed') ? 'signed' : 'pending';
    const view = this.view(doc);
    return outcome === 'signed'
      ? { event_type: 'doc_signed', ...view, signer_who_signed: { ...signer } }
      : { event_type: 'doc_refused', ...view, refusal_reason: 'Não concordo' };
  }
}
