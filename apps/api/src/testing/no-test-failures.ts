import { randomBytes } from 'node:crypto';
import { ContainerModule } from 'inversify';
import { Random } from '@carteiro/core';

/**
 * Test keys fail 5 % of simulated sends at random (operations.md): a `Random` that never draws such a failure, so that
 * what a test sends goes through whatever the draw.
 */
export const noTestFailures: Random = { next: () => 0.99, bytes: (n) => new Uint8Array(randomBytes(n)) };

/** The container overrides (API or worker) that bind {@link noTestFailures}. */
export const withoutTestFailures = (): ContainerModule[] => [new ContainerModule(({ rebind }) => void rebind(Random).toConstantValue(noTestFailures))];
