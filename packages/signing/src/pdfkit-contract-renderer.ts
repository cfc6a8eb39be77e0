import { createHash } from 'node:crypto';
import type { ContractRenderer, RenderRequest, RenderedDocument } from '@carteiro/core';
// The type only: the module itself is imported at the first render (loadPdfkit).
import type PDFDocument from 'pdfkit';

const MARGIN = 56;

let pdfkit: Promise<typeof PDFDocument> | undefined;

/**
 * pdfkit at the first contract rendered, not at start: with fontkit and its tables it is about 3 MB of
 * source and more of data that every API and worker process would hold though few render a contract.
 */
async function loadPdfkit(): Promise<typeof PDFDocument> {
  pdfkit ??= import('pdfkit').then((module) => module.default);
  return pdfkit;
}

/** Writes one paragraph, with `**bold**` runs, in Helvetica (WinAnsi: Portuguese accents render as such). */
function paragraph(doc: PDFKit.PDFDocument, text: string, size: number, options: PDFKit.Mixins.TextOptions = {}): void {
  const parts = text.split(/(\*\*[^*]+\*\*)/g).filter((p) => p.length > 0);
  doc.fontSize(size);
  parts.forEach((part, i) => {
    const bold = part.startsWith('**') && part.endsWith('**');
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(bold ? part.slice(2, -2) : part, { ...options, continued: i < parts.length - 1 });
  });
}

/**
 * The contract PDF (A4) with pdfkit: the title, the company, the body's Markdown subset (`#`/`##`
 * headings, paragraphs, `- ` lists, `**bold**`) and one signature line per signer. Answers the bytes,
 * the page count and their SHA-256 (the document's identity in `contract.signed`).
 */
export class PdfkitContractRenderer implements ContractRenderer {
  async render(request: RenderRequest): Promise<RenderedDocument> {
    const PDFDocument = await loadPdfkit();
    const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: request.title, Author: request.companyName } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const finished = new Promise<void>((resolve, reject) => {
      doc.on('end', resolve);
      doc.on('error', reject);
    });

    doc.font('Helvetica-Bold').fontSize(18).text(request.title, { align: 'center' });
    doc.moveDown(0.3);
    doc.font('Helvetica').fontSize(10).fillColor('#555555').text(request.companyName, { align: 'center' });
    doc.fillColor('#000000').moveDown(1.5);

    for (const block of request.body.replace(/\r\n/g, '\n').split(/\n{2,}/)) {
      const lines = block.split('\n').filter((l) => l.trim().length > 0);
      if (lines.length === 0) continue;
      if (lines.every((l) => /^\s*[-*] /.test(l))) {
        for (const line of lines) paragraph(doc, `•  ${line.replace(/^\s*[-*] /, '')}`, 11, { indent: 12 });
      } else if (/^##\s/.test(lines[0]!)) {
        paragraph(doc, lines[0]!.replace(/^##\s+/, ''), 13);
        if (lines.length > 1) paragraph(doc, lines.slice(1).join(' '), 11, { align: 'justify' });
      } else if (/^#\s/.test(lines[0]!)) {
        paragraph(doc, lines[0]!.replace(/^#\s+/, ''), 15);
        if (lines.length > 1) paragraph(doc, lines.slice(1).join(' '), 11, { align: 'justify' });
      } else {
        paragraph(doc, lines.join(' '), 11, { align: 'justify' });
      }
      doc.moveDown(0.8);
    }

    doc.moveDown(2);
    for (const name of request.signers) {
      if (doc.y > doc.page.height - MARGIN - 60) doc.addPage();
      doc.moveDown(1.5);
      const y = doc.y;
      doc.moveTo(MARGIN, y).lineTo(MARGIN + 260, y).stroke();
      doc.moveDown(0.3);
      doc.font('Helvetica').fontSize(10).text(name);
    }

    const pages = doc.bufferedPageRange().count;
    doc.end();
    await finished;
    const bytes = new Uint8Array(Buffer.concat(chunks));
    return { bytes, pages, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
}
