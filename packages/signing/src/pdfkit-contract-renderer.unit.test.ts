import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { PDFParse } from 'pdf-parse';
import { PdfkitContractRenderer } from './pdfkit-contract-renderer.js';

describe('PdfkitContractRenderer', () => {
  it('renders an A4 PDF that parses back with the filled text, Portuguese accents included', async () => {
    const body = [
      '# Contrato de Prestação de Serviços',
      'Entre **Acme Soluções Ltda.** e João Conceição, no valor de R$ 1.234,56, em 10/03/2026.',
      '## Cláusula 1ª – Obrigações',
      '- Manutenção mensal\n- Atualizações de segurança',
      'São Paulo, ação, coração, pêssego, avó, à vista.',
    ].join('\n\n');
    const rendered = await new PdfkitContractRenderer().render({ title: 'Contrato nº 42', companyName: 'Acme Soluções', body, signers: ['João Conceição', 'Márcia Araújo'] });
    expect(Buffer.from(rendered.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(rendered.sha256).toBe(createHash('sha256').update(rendered.bytes).digest('hex'));
    const parser = new PDFParse({ data: rendered.bytes });
    try {
      const { text, total } = await parser.getText();
      expect(total).toBe(rendered.pages);
      const flat = text.replace(/\s+/g, ' ');
      for (const expected of [
        'Contrato nº 42',
        'Contrato de Prestação de Serviços',
        'Acme Soluções Ltda.',
        'João Conceição',
        'R$ 1.234,56',
        '10/03/2026',
        'Cláusula 1ª – Obrigações',
        'Manutenção mensal',
        'São Paulo, ação, coração, pêssego, avó, à vista.',
        'Márcia Araújo',
      ]) {
        expect(flat).toContain(expected);
      }
    } finally {
      await parser.destroy();
    }
  });

  it('breaks long bodies into pages', async () => {
    const body = Array.from({ length: 120 }, (_, i) => `Parágrafo ${i + 1}: obrigações e condições gerais do serviço contratado.`).join('\n\n');
    const rendered = await new PdfkitContractRenderer().render({ title: 'Longo', companyName: 'Acme', body, signers: ['Ana'] });
    expect(rendered.pages).toBeGreaterThan(1);
  });
});
