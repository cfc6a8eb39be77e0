import { describeAgentRepositoriesContract, describeQuickReplyRepositoriesContract } from '@carteiro/core/testing';
import { kyselyContractSetup } from '../testing/contract-suite-setup.js';

const setup = kyselyContractSetup();
describeAgentRepositoriesContract('kysely', setup);
describeQuickReplyRepositoriesContract('kysely', setup);
