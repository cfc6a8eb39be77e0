import type { MessageReceiptRepository, ProviderAccountRepository, SimulatorReceiptRepository } from './message-receipt-repository.js';

/** The receipts area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface ReceiptRepositories {
  messageReceipts: MessageReceiptRepository;
  simulatorReceipts: SimulatorReceiptRepository;
  /** Provider webhooks: the box of an Evolution instance or a Cloud API number. */
  providerAccounts: ProviderAccountRepository;
}
