/** The specification's classified send-failure codes, by group. */
export const SendFailureGroups = {
  sender: ['SENDER_BANNED', 'SENDER_CORRUPT', 'SENDER_REPLACED', 'SENDER_RESTRICTED', 'SENDER_DISCONNECTED', 'SENDER_AUTH'],
  recipient: ['RECIP_NOT_WHATSAPP', 'RECIP_BLOCKED', 'RECIP_INVALID', 'OFFICIAL_WINDOW_EXPIRED', 'OFFICIAL_NOT_ELIGIBLE'],
  temporary: ['TEMP_RATE_LIMIT', 'TEMP_TIMEOUT', 'TEMP_NETWORK', 'TEMP_SERVER_ERROR', 'TEMP_RECONNECTING'],
  other: ['UNKNOWN', 'WARMING_DAILY_LIMIT', 'RECIPIENT_NOT_FOUND'],
} as const;

export type SendFailureGroup = keyof typeof SendFailureGroups;
export type SendFailureCode = (typeof SendFailureGroups)[SendFailureGroup][number];

export function failureGroupOf(code: SendFailureCode): SendFailureGroup {
  for (const [group, codes] of Object.entries(SendFailureGroups)) {
    if ((codes as readonly string[]).includes(code)) return group as SendFailureGroup;
  }
  return 'other';
}

/** Human text for each code (`erro_legivel`), in the product's language. */
export const readableFailure: Record<SendFailureCode, string> = {
  SENDER_BANNED: 'O número remetente foi banido pelo canal.',
  SENDER_CORRUPT: 'A sessão do número remetente está corrompida; reconecte o número.',
  SENDER_REPLACED: 'A sessão do número remetente foi aberta em outro aparelho.',
  SENDER_RESTRICTED: 'O número remetente está temporariamente restrito pelo canal.',
  SENDER_DISCONNECTED: 'O número remetente está desconectado.',
  SENDER_AUTH: 'Falha de autenticação do número remetente junto ao provedor.',
  RECIP_NOT_WHATSAPP: 'O destinatário não tem conta no canal.',
  RECIP_BLOCKED: 'O destinatário bloqueou o número remetente.',
  RECIP_INVALID: 'O número do destinatário é inválido.',
  OFFICIAL_WINDOW_EXPIRED: 'A janela de 24 horas do canal oficial expirou; envie um template aprovado.',
  OFFICIAL_NOT_ELIGIBLE: 'O destinatário não é elegível para mensagens do canal oficial.',
  TEMP_RATE_LIMIT: 'O provedor limitou a taxa de envio; tente novamente mais tarde.',
  TEMP_TIMEOUT: 'O envio excedeu o tempo limite.',
  TEMP_NETWORK: 'Falha de rede ao falar com o provedor.',
  TEMP_SERVER_ERROR: 'O provedor do canal falhou.',
  TEMP_RECONNECTING: 'O número remetente está se reconectando.',
  UNKNOWN: 'Falha desconhecida no envio.',
  WARMING_DAILY_LIMIT: 'O limite diário de aquecimento do número foi atingido.',
  RECIPIENT_NOT_FOUND: 'Destinatário não encontrado.',
};
