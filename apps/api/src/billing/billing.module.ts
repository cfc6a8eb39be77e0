import { Clock, GetBalance, IdGenerator, ListPayments, RecordPayment, Repositories, SetLowBalanceThresholds, UnitOfWork } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** Billing: balances, the operator's payments and thresholds. */
export const billingModule = new ContainerModule(({ bind }) => {
  bind(GetBalance).toResolvedValue((repos: ServiceRepositories) => new GetBalance(repos), [Repositories]).inSingletonScope();
  bind(RecordPayment)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new RecordPayment(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ListPayments).toResolvedValue((repos: ServiceRepositories) => new ListPayments(repos), [Repositories]).inSingletonScope();
  bind(SetLowBalanceThresholds).toResolvedValue((uow: ServiceUnitOfWork) => new SetLowBalanceThresholds(uow), [UnitOfWork]).inSingletonScope();
});
