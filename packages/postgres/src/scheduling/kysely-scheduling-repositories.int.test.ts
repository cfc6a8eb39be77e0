import { describeSchedulingRepositoriesContract } from '@carteiro/core/testing';
import { kyselyContractSetup } from '../testing/contract-suite-setup.js';

describeSchedulingRepositoriesContract('kysely', kyselyContractSetup());
