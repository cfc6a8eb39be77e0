import { describeWebhookRepositoriesContract } from '@carteiro/core/testing';
import { kyselyContractSetup } from '../testing/contract-suite-setup.js';

describeWebhookRepositoriesContract('kysely', kyselyContractSetup());
