import type { ChannelGateway, SendRequest } from './channel-gateway.js';
import type { OutboundContent } from './outbound-content.js';
import type { SendFailureCode } from './send-failure.js';

/** What sending every part of one message answered: its first part's provider id and time, or the first failure. */
export type PartsSent = { ok: true; providerMessageId: string; sentAt: Date } | { ok: false; code: SendFailureCode; error: string };

/**
 * Sends the parts of one message in order to `target`, part `n` under `clientMessageIdOf(subject, n)`, and stops at the
 * first failure (a gateway that throws is a TEMP_NETWORK failure). No parts is a failure: nothing was sent. Used by the
 * campaign lanes and the timed sends, whose one message may go out as several channel messages.
 */
export async function sendInParts<S>(
  gateway: ChannelGateway,
  target: Omit<SendRequest, 'content' | 'clientMessageId'>,
  parts: readonly OutboundContent[],
  subject: S,
  clientMessageIdOf: (subject: S, part: number) => string,
): Promise<PartsSent> {
  // One request object a part, as the callers built before (the campaign lanes' per-send path).
  let first: { providerMessageId: string; sentAt: Date } | null = null;
  for (let part = 0; part < parts.length; part += 1) {
    let sent;
    try {
      const request: SendRequest = { setor: target.setor, instance: target.instance, mode: target.mode, to: target.to, content: parts[part]!, clientMessageId: clientMessageIdOf(subject, part) };
      if (target.earlierAttemptSince) request.earlierAttemptSince = target.earlierAttemptSince;
      sent = await gateway.send(request);
    } catch (error) {
      return { ok: false, code: 'TEMP_NETWORK', error: error instanceof Error ? error.message : String(error) };
    }
    if (!sent.ok) return { ok: false, code: sent.code, error: sent.error };
    first ??= sent;
  }
  if (!first) return { ok: false, code: 'UNKNOWN', error: 'Nothing to send' };
  return { ok: true, providerMessageId: first.providerMessageId, sentAt: first.sentAt };
}
