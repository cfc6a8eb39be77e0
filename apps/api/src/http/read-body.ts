/**
 * The body of a request no parser ran in front of (the public webhook routes), read up to `maxBytes`:
 * its bytes, or `null` as soon as it is larger (the rest is left unread).
 */
export async function readBodyUpTo(req: AsyncIterable<unknown>, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBytes) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** UTF-8 JSON bytes → the value; bytes that are not JSON → `null`. */
export function parseJsonOrNull(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}
