// The in-memory composition root and the public test kit (`@carteiro/core/testing`): the kernel's
// fakes and helpers (`shared/testing/`), each area's fakes and contract suites (`<area>/testing/`),
// and what needs every area at once (the unit of work over all the fakes, the foundation contract).
export * from './in-memory-unit-of-work.js';
export * from './foundation-repositories.contract.js';
export * from './messaging-world.js';
export * from './campaign-world.js';
export * from '../shared/testing/index.js';
export * from '../companies/testing/index.js';
export * from '../setores/testing/index.js';
export * from '../teams/testing/index.js';
export * from '../usage/testing/index.js';
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
