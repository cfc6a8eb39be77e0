/**
 * The thread between one setor and one contact. Single sends and simulated inbound messages
 * find or create it; message records point at it.
 */
export interface Conversation {
  id: string;
  companyId: string;
  setorId: string;
  contactId: string;
  /** The contact's last message to the setor (opens the official 24-hour window). */
  lastInboundAt: Date | null;
  lastOutboundAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function newConversation(id: string, companyId: string, setorId: string, contactId: string, now: Date): Conversation {
  return { id, companyId, setorId, contactId, lastInboundAt: null, lastOutboundAt: null, createdAt: now, updatedAt: now };
}
