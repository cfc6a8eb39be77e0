import { ContainerModule } from 'inversify';
import { BackgroundService } from '../jobs/job-handler.js';
import { SimulatorReceiptsService } from './simulator-receipts.service.js';

/** The worker's receipts side: the simulator's delayed delivery receipts. */
export const receiptsWorkerModule = new ContainerModule(({ bind }) => {
  bind(BackgroundService).to(SimulatorReceiptsService).inSingletonScope();
});
