import * as m0002 from './0002-channel.js';
import * as m0016 from './0016-simulator-partitions.js';
import * as m0022 from './0022-simulator-record.js';
import * as m0026 from './0026-simulator-receipts-owed.js';
import { postgresArea } from '../shared/postgres-area.js';
import { KyselyChannelHealthRepository } from './kysely-channel-health-repository.js';
import { KyselyChannelInstanceRepository } from './kysely-channel-instance-repository.js';
import { KyselyConversationWindowRepository } from './kysely-conversation-window-repository.js';

/** Channel sessions, their health and history, official conversation windows and the simulator's tables. */
export const channelArea = postgresArea({
  migrations: { '0002-channel': m0002, '0016-simulator-partitions': m0016, '0022-simulator-record': m0022, '0026-simulator-receipts-owed': m0026 },
  repositories: (db) => ({
    channelInstances: new KyselyChannelInstanceRepository(db),
    channelHealth: new KyselyChannelHealthRepository(db),
    conversationWindows: new KyselyConversationWindowRepository(db),
  }),
});

// Re-exported so that whoever loads the area also loads its tables' part of `Database`.
export type { ChannelTables } from './channel-tables.js';
