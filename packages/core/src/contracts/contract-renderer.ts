/** What the renderer needs: the filled body and the headings. */
export interface RenderRequest {
  title: string;
  companyName: string;
  /** Markdown subset (`#`/`##` headings, paragraphs, `- ` lists, `**bold**`) with every variable filled. */
  body: string;
  /** Names printed on the signature lines. */
  signers: string[];
}

/** An A4 PDF and what identifies it. */
export interface RenderedDocument {
  bytes: Uint8Array;
  pages: number;
  sha256: string;
}

/** Turns a contract into its PDF (pdfkit in `@carteiro/signing`). */
export interface ContractRenderer {
  render(request: RenderRequest): Promise<RenderedDocument>;
}
export const ContractRenderer = Symbol.for('carteiro.ContractRenderer');
