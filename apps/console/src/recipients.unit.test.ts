import { expect, it } from '@jest/globals';
import { parseRecipients, preview } from '../app/recipients.js';

it('reads a phone column (telefone or phone), an optional name, and the other columns as variables', () => {
  const { recipients, skipped, hasPhone } = parseRecipients('telefone,nome,pedido,cidade\n+5511987650100,Maria Silva,1000,São Paulo\n11987650101,João,1001,\n');
  expect(hasPhone).toBe(true);
  expect(skipped).toEqual([]);
  expect(recipients).toEqual([
    { phone: '+5511987650100', name: 'Maria Silva', variables: { pedido: '1000', cidade: 'São Paulo' } },
    { phone: '11987650101', name: 'João', variables: { pedido: '1001' } },
  ]);
  expect(parseRecipients('Phone,Name\n5511987650100,Ana').recipients).toEqual([{ phone: '5511987650100', name: 'Ana', variables: {} }]);
});

it("reads Excel's files: a byte-order mark, semicolons, quoted fields with commas, blank lines", () => {
  const text = '\uFEFFtelefone;nome;obs\r\n+5511987650100;"Silva, Maria";"a; b"\r\n\r\n+5511987650101;Ana;\r\n';
  expect(parseRecipients(text).recipients).toEqual([
    { phone: '+5511987650100', name: 'Silva, Maria', variables: { obs: 'a; b' } },
    { phone: '+5511987650101', name: 'Ana', variables: {} },
  ]);
});

it('skips rows without a phone (naming their lines) and says when there is no phone column', () => {
  const { recipients, skipped } = parseRecipients('telefone,nome\n+5511987650100,Ana\n,Sem telefone\n+5511987650102,Bia');
  expect(recipients.map((r) => r.name)).toEqual(['Ana', 'Bia']);
  expect(skipped).toEqual([3]);
  expect(parseRecipients('nome,email\nAna,a@b.c')).toEqual({ recipients: [], skipped: [], hasPhone: false });
});

it('previews the message per recipient: its variables, nome, primeiro_nome, saudacao; unknown ones stay as written', () => {
  const recipient = { phone: '+5511987650100', name: 'Maria Silva', variables: { pedido: '1000' } };
  const morning = new Date(2026, 10, 23, 9, 5);
  expect(preview('{{saudacao}}, {{primeiro_nome}}! Pedido {{ pedido }} de {{nome}}. {{cupom}}', recipient, morning, 'pt-BR')).toBe(
    'Bom dia, Maria! Pedido 1000 de Maria Silva. {{cupom}}',
  );
  expect(preview('{{saudacao}}', recipient, new Date(2026, 10, 23, 19, 0), 'pt-BR')).toBe('Boa noite');
  expect(preview('{{hora}}', recipient, morning, 'pt-BR')).toBe('09:05');
});
