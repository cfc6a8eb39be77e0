import { describeLeadAndBillingRepositoriesContract } from '@carteiro/core/testing';
import { kyselyContractSetup } from '../testing/contract-suite-setup.js';

describeLeadAndBillingRepositoriesContract('kysely', kyselyContractSetup());
