import { ValidationError } from '../shared/errors.js';

export type ChannelType = 'qr' | 'official';

/** Credentials of a setor on the official Cloud API. */
export interface OfficialConfig {
  phoneNumberId: string;
  accessToken: string;
  wabaId: string;
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
    createdAt: now,
    updatedAt: now,
  };
}
