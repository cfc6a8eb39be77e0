import type { InboundMessageInput, ReceiveInboundMessage } from '../messages/index.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { ValidationError } from '../shared/errors.js';
import type { ReceiptStatus } from './receipt.js';
import type { ReceiptRepositories } from './receipt-repositories.js';
import type { RecordReceipt } from './record-receipt.js';

/** One provider webhook call's content for one account, already parsed by the provider's adapter. */
export interface ProviderWebhookInput {
  provider: 'qr' | 'official';
  /** The QR provider's instance name, or the Cloud API `phone_number_id`. */
  account: string;
  inbound: Omit<InboundMessageInput, 'setorId'>[];
  receipts: { providerMessageId: string; status: ReceiptStatus; at: Date | null }[];
}

/** What a webhook call did. */
export interface ProviderWebhookOutcome {
  /** False when no box matches the account (the call is acknowledged and ignored). */
  known: boolean;
  setorId: string | null;
  received: number;
  duplicates: number;
  /** Inbound messages the service refused (e.g. a number it cannot read); the provider is not asked to retry them. */
  rejected: number;
  receipts: number;
}

/**
 * The QR provider's and the Cloud API's webhooks, turned into the same commands as the simulator's:
 * each inbound message through `ReceiveInboundMessage` (its own transaction, lock and dedupe by
 * provider id, so a provider retrying a call repeats nothing), each status through `RecordReceipt`
 * on the account's box. Validation failures of one message do not fail the others.
 */
export class ReceiveProviderWebhook {
  constructor(
    private readonly repos: Repositories<ReceiptRepositories>,
    private readonly inbound: ReceiveInboundMessage,
    private readonly receipts: RecordReceipt,
  ) {}

  async execute(input: ProviderWebhookInput): Promise<ProviderWebhookOutcome> {
    const account =
      input.provider === 'qr' ? await this.repos.providerAccounts.setorOfQrInstance(input.account) : await this.repos.providerAccounts.setorOfOfficialNumber(input.account);
    const outcome: ProviderWebhookOutcome = { known: account !== null, setorId: account?.setorId ?? null, received: 0, duplicates: 0, rejected: 0, receipts: 0 };
    if (!account) return outcome;
    for (const message of input.inbound) {
      try {
        const result = await this.inbound.execute({ ...message, setorId: account.setorId });
        if (result.duplicate) outcome.duplicates += 1;
        else outcome.received += 1;
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        outcome.rejected += 1;
      }
    }
    for (const receipt of input.receipts) {
      const result = await this.receipts.execute({ providerMessageId: receipt.providerMessageId, setorId: account.setorId }, receipt.status, receipt.at);
      if (result.emitted.length > 0) outcome.receipts += 1;
    }
    return outcome;
  }
}
