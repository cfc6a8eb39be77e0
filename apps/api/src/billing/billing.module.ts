import { Clock, GetBalance, IdGenerator, ListPayments, RecordPayment, Repositories, SetLowBalanceThresholds, UnitOfWork } from '@carteiro/core';
import { ContainerModule } from 'inversify';
import { bindSingleton } from '@carteiro/system';

/** Billing: balances, the operator's payments and thresholds. */
export const billingModule = new ContainerModule(({ bind }) => {
  bindSingleton(bind, GetBalance, [Repositories]);
  bindSingleton(bind, RecordPayment, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ListPayments, [Repositories]);
  bindSingleton(bind, SetLowBalanceThresholds, [UnitOfWork]);
});
