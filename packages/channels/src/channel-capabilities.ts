import type { ChannelCapabilities } from '@carteiro/core';

/** What a `qr` number carries on the real channel: no templates, no interactive buttons or lists. */
export const QR_CAPABILITIES: ChannelCapabilities = Object.freeze({
  text: true,
  media: true,
  templates: false,
  interactive: false,
  polls: true,
  events: true,
  conversationWindow: false,
});

/** What an official number carries: templates and interactive messages, no polls or event cards, a 24-hour window. */
export const OFFICIAL_CAPABILITIES: ChannelCapabilities = Object.freeze({
  text: true,
  media: true,
  templates: true,
  interactive: true,
  polls: false,
  events: false,
  conversationWindow: true,
});
