export type MediaType = 'image' | 'video' | 'audio' | 'document';
export const MediaTypes: readonly MediaType[] = ['image', 'video', 'audio', 'document'];

/** One message as the channel receives it. A send may need several (text, then media). */
export type OutboundContent =
  | { kind: 'text'; text: string }
  | { kind: 'media'; mediaType: MediaType; url: string; caption?: string; filename?: string }
  | { kind: 'template'; name: string; language: string; components: unknown[] }
  | {
      kind: 'interactive';
      interactiveType: 'button' | 'list';
      bodyText: string;
      buttons?: { id: string; title: string }[];
      sections?: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
      buttonText?: string;
    }
  | { kind: 'poll'; name: string; options: string[]; multipleAnswers: boolean }
  | {
      kind: 'event';
      name: string;
      startTime: number;
      endTime?: number;
      description?: string;
      location?: string;
      extraGuestsAllowed?: boolean;
    };

/** What a box's channel can carry natively; the rest is sent as text. */
export interface ChannelCapabilities {
  text: boolean;
  media: boolean;
  templates: boolean;
  interactive: boolean;
  polls: boolean;
  events: boolean;
  /** Free text and media need a customer message within the last 24 hours (official channel). */
  conversationWindow: boolean;
}
