// The in-memory composition: the kernel's fakes and helpers here, each area's fakes and contract
// suites beside the area (`<area>/testing/`).
export * from './manual-clock.js';
export * from './deterministic.js';
export * from './decider-spec.js';
export * from './in-memory-store.js';
export * from './in-memory-job-scheduler.js';
export * from './in-memory-foundation-repositories.js';
export * from './foundation-repositories.contract.js';
export * from './in-memory-unit-of-work.js';
export * from '../api-keys/testing/index.js';
export * from '../channel/testing/index.js';
export * from '../contacts/testing/index.js';
export * from '../tags/testing/index.js';
export * from '../tickets/testing/index.js';
export * from '../messages/testing/index.js';
export * from '../campaigns/testing/index.js';
export * from '../webhooks/testing/index.js';
export * from '../crm/testing/index.js';
export * from '../scheduling/testing/index.js';
export * from '../contracts/testing/index.js';
export * from '../leads/testing/index.js';
export * from '../billing/testing/index.js';
export * from '../agents/testing/index.js';
export * from '../quick-replies/testing/index.js';
export * from '../receipts/testing/index.js';
