import type { ChannelCapabilities } from '@carteiro/core';

/**
 * What a `qr` number carries on the real channel: no templates, no interactive buttons or lists; its sent
 * messages can be edited (about 15 minutes), deleted for everyone and reacted to.
 */
export const QR_CAPABILITIES: ChannelCapabilities = Object.freeze({
  text: true,
  media: true,
  templates: false,
  interactive: false,
  polls: true,
  events: true,
  conversationWindow: false,
  editMessages: true,
  deleteMessages: true,
  reactions: true,
});

/**
 * What an official number carries: templates and interactive messages, no polls or event cards, a 24-hour window.
 * The Cloud API has reaction messages but no way to edit or delete a sent message.
 */
export const OFFICIAL_CAPABILITIES: ChannelCapabilities = Object.freeze({
  text: true,
  media: true,
  templates: true,
  interactive: true,
  polls: false,
  events: false,
  conversationWindow: true,
  editMessages: false,
  deleteMessages: false,
  reactions: true,
});
