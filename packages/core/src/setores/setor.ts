import { ValidationError } from '../shared/errors.js';

export type ChannelType = 'qr' | 'official';

/** Credentials of a setor on the official Cloud API. */
export interface OfficialConfig {
  phoneNumberId: string;
  accessToken: string;
  wabaId: string;
}

/** The ticket settings of a box: closing message, CSAT, reopen window, assistant, default team. */
export interface SetorInboxSettings {
  /** Sent when a ticket closes (placeholders as quick replies); null sends none. */
  closingMessage: string | null;
  csatEnabled: boolean;
  /** The rating request's body; null uses the default question. */
  csatQuestion: string | null;
  /** Answer to a rating reply; null answers nothing. */
  csatThanks: string | null;
  /** An inbound message within this many minutes of a closing reopens the ticket (0-10080). */
  reopenWindowMinutes: number;
  /** New tickets start `pending` (with the assistant) when the contact's AI is active. */
  assistantEnabled: boolean;
  /** Team given to tickets opened by inbound messages; null leaves them without a team. */
  defaultTeamId: string | null;
}

export const DEFAULT_SETOR_INBOX_SETTINGS: Readonly<SetorInboxSettings> = Object.freeze({
  closingMessage: null,
  csatEnabled: false,
  csatQuestion: null,
  csatThanks: null,
  reopenWindowMinutes: 30,
  assistantEnabled: false,
  defaultTeamId: null,
});

export const MAX_CLOSING_MESSAGE_LENGTH = 1024;
export const MAX_CSAT_TEXT_LENGTH = 1024;
export const MAX_REOPEN_WINDOW_MINUTES = 10_080;

/** The writable inbox settings; omitted fields keep theirs. */
export type SetorInboxInput = Partial<SetorInboxSettings>;

/**
 * Applies inbox settings to a box, checking the rules a schema may not (lengths, the reopen
 * window's range). Whether `defaultTeamId` is a team of the company is the caller's check.
 */
export function withInboxSettings(setor: Setor, input: SetorInboxInput, now: Date): Setor {
  const checkLength = (field: string, value: string | null | undefined, max: number) => {
    if (value != null && value.length > max) throw new ValidationError(`${field} must be at most ${max} characters`, { field, max });
  };
  checkLength('closing_message', input.closingMessage, MAX_CLOSING_MESSAGE_LENGTH);
  checkLength('csat_question', input.csatQuestion, MAX_CSAT_TEXT_LENGTH);
  checkLength('csat_thanks', input.csatThanks, MAX_CSAT_TEXT_LENGTH);
  const reopen = input.reopenWindowMinutes;
  if (reopen !== undefined && (!Number.isInteger(reopen) || reopen < 0 || reopen > MAX_REOPEN_WINDOW_MINUTES)) {
    throw new ValidationError(`reopen_window_minutes must be an integer 0-${MAX_REOPEN_WINDOW_MINUTES}`, { field: 'reopen_window_minutes' });
  }
  const blankToNull = (value: string | null | undefined) => (value == null || value.trim() === '' ? null : value);
  const current = setor.inbox ?? DEFAULT_SETOR_INBOX_SETTINGS;
  const inbox: SetorInboxSettings = {
    closingMessage: input.closingMessage !== undefined ? blankToNull(input.closingMessage) : current.closingMessage,
    csatEnabled: input.csatEnabled ?? current.csatEnabled,
    csatQuestion: input.csatQuestion !== undefined ? blankToNull(input.csatQuestion) : current.csatQuestion,
    csatThanks: input.csatThanks !== undefined ? blankToNull(input.csatThanks) : current.csatThanks,
    reopenWindowMinutes: reopen ?? current.reopenWindowMinutes,
    assistantEnabled: input.assistantEnabled ?? current.assistantEnabled,
    defaultTeamId: input.defaultTeamId !== undefined ? input.defaultTeamId : current.defaultTeamId,
  };
  return { ...setor, inbox, updatedAt: now };
}

/** A sender setor ("setor"): one channel number of a company. */
export interface Setor {
  id: string;
  companyId: string;
  nome: string;
  channelType: ChannelType;
  official: OfficialConfig | null;
  /** Operator override of the warming stage's daily limit; null follows the automatic stage. */
  warmingDailyLimitOverride: number | null;
  /** Ticket settings of the box (conversations.md §3, §9). */
  inbox: SetorInboxSettings;
  createdAt: Date;
  updatedAt: Date;
}

export function createSetor(
  id: string,
  companyId: string,
  now: Date,
  input: { nome: string; channelType?: ChannelType; official?: OfficialConfig | null },
): Setor {
  const channelType = input.channelType ?? 'qr';
  if (channelType === 'official' && !input.official) {
    throw new ValidationError('official boxes need official { phone_number_id, access_token, waba_id }', { field: 'official' });
  }
  return {
    id,
    companyId,
    nome: input.nome,
    channelType,
    official: channelType === 'official' ? (input.official ?? null) : null,
    warmingDailyLimitOverride: null,
    inbox: { ...DEFAULT_SETOR_INBOX_SETTINGS },
    createdAt: now,
    updatedAt: now,
  };
}
