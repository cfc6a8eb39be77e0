import { createHash } from 'node:crypto';
import type { ContractRenderer, RenderRequest, RenderedDocument } from '../contract-renderer.js';

/** A renderer for unit tests: the "PDF" is the filled text itself; the requests are kept. */
export class FakeContractRenderer implements ContractRenderer {
  readonly rendered: RenderRequest[] = [];
  async render(request: RenderRequest): Promise<RenderedDocument> {
    this.rendered.push(request);
    const bytes = new TextEncoder().encode(`%PDF-fake\n${request.title}\n${request.body}`);
    return { bytes, pages: 1, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
}
