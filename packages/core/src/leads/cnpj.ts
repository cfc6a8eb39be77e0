/**
 * CNPJ check digits (Receita Federal), alphanumeric-ready: from July 2026 the first 12 characters
 * may be letters, each worth its char code minus 48 (IN RFB 2.229/2024); digits keep their value.
 */
export function cnpjCheckDigits(base12: string): string {
  const value = (c: string) => c.toUpperCase().charCodeAt(0) - 48;
  const digit = (chars: string, weights: number[]) => {
    const sum = [...chars].reduce((acc, c, i) => acc + value(c) * weights[i]!, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const w2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const d1 = digit(base12, w1);
  const d2 = digit(base12 + String(d1), w2);
  return `${d1}${d2}`;
}
