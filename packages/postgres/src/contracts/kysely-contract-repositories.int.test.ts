import { describeContractRepositoriesContract } from '@carteiro/core/testing';
import { kyselyContractSetup } from '../testing/contract-suite-setup.js';

describeContractRepositoriesContract('kysely', kyselyContractSetup());
