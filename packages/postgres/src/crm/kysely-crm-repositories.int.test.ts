import { describeCrmRepositoriesContract } from '@carteiro/core/testing';
import { kyselyContractSetup } from '../testing/contract-suite-setup.js';

describeCrmRepositoriesContract('kysely', kyselyContractSetup());
