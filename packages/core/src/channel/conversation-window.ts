/** The official channel lets free text and media through only this long after the contact last wrote. */
export const CONVERSATION_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The key a phone is stored under for the conversation window: E.164 with the Brazilian mobile ninth
 * digit removed, so that `+5511987654321` and `+551187654321` (the same mobile) share one window.
 */
export function conversationPhoneKey(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const brMobile = /^55(\d{2})9(\d{8})$/.exec(digits);
  return brMobile ? `+55${brMobile[1]}${brMobile[2]}` : `+${digits}`;
}

/** Whether a window opened by an inbound message at `lastInboundAt` is still open at `now`. */
export function isConversationWindowOpen(lastInboundAt: Date | null, now: Date): boolean {
  return lastInboundAt !== null && now.getTime() - lastInboundAt.getTime() < CONVERSATION_WINDOW_MS;
}
