import { newTimedSend, type ScheduledMessage } from '../scheduled-message.js';

/** A live text ('Oi') to Ana, due `at` and scheduled then: the timed send the scheduling tests store and run. */
export function timedMessageFixture(ids: { id: string; companyId: string; clientId: string; setorId: string }, at: Date): ScheduledMessage {
  return newTimedSend({
    id: ids.id,
    companyId: ids.companyId,
    kind: 'message',
    clientId: ids.clientId,
    clientName: 'Ana',
    phone: '+5511987654321',
    setorId: ids.setorId,
    keyMode: 'live',
    content: { text: 'Oi', mediaUrl: null, mediaType: null, mediaFilename: null },
    sendAt: at,
    effectiveSendAt: at,
    respectSafeHours: true,
    createdAt: at,
  });
}
