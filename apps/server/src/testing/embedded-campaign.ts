import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '@carteiro/postgres';
import { eventually } from '../../../worker/src/testing/test-worker.js';
import { runningEmbeddedUrl } from '../database.js';
import { expectSentExactlyOnce, launchHttpCampaign, outboxCount, readCampaign, type HttpTenant } from './http-tenant.js';
import { embeddedPostgresPid, ServerFleet, type ServerProcess } from './server-process.js';

/**
 * `npm start` as a user runs it: ROLE=all servers on the embedded PostgreSQL of one DATA_DIR, in a
 * fresh folder open to the postgres user (private folders are private-folder.int.test.ts's
 * subject), each started detached so that it leads its own process group as a shell's job does.
 */
export class EmbeddedServers {
  private constructor(
    readonly dataDir: string,
    readonly fleet: ServerFleet,
  ) {}

  static async create(prefix: string): Promise<EmbeddedServers> {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    await chmod(dir, 0o755);
    const dataDir = path.join(dir, 'data');
    return new EmbeddedServers(dataDir, new ServerFleet({ dataDir, env: { PACING_SCALE: '0.001' } }));
  }

  start(): Promise<ServerProcess> {
    return this.fleet.start('all', {}, { detached: true });
  }

  /** A client of the running embedded database (closed by `work`'s end). */
  async withDb<T>(work: (db: ReturnType<typeof createDb>) => Promise<T>): Promise<T> {
    const url = await runningEmbeddedUrl(this.dataDir);
    if (!url) throw new Error(`no embedded PostgreSQL running on ${this.dataDir}`);
    const db = createDb(url, { poolSize: 2, applicationName: 'embedded-campaign-test' });
    try {
      return await work(db);
    } finally {
      await db.destroy();
    }
  }

  /**
   * Starts a server, gives it a tenant with two boxes and a campaign of `recipients` numbers from
   * `firstPhone`, and returns once at least `sentAtLeast` of them are in the simulator's outbox.
   */
  async startMidCampaign(options: { recipients: number; firstPhone: number; name: string; sentAtLeast: number }) {
    const server = await this.start();
    const postgresPid = await embeddedPostgresPid(this.dataDir);
    const { tenant, recipients, id: campaignId } = await launchHttpCampaign(server.url!, { boxes: 2, recipients: options.recipients, firstPhone: options.firstPhone, name: options.name });
    await this.withDb((db) => eventually(async () => (await outboxCount(db, tenant.companyId)) >= options.sentAtLeast, { timeoutMs: 30_000, intervalMs: 10 }));
    return { server, postgresPid, tenant, recipients, campaignId };
  }

  /** Waits on `server` for the campaign to finish, checks each recipient was sent exactly once, then stops it with Ctrl-C. */
  async expectFinishedExactlyOnce(server: ServerProcess, run: { tenant: HttpTenant; campaignId: string; recipients: { phone: string }[] }, timeoutMs: number) {
    const detail = await eventually(
      async () => {
        const read = await readCampaign(server.url!, run.tenant, run.campaignId);
        return read.status === 'concluido' ? read : null;
      },
      { timeoutMs, intervalMs: 100 },
    );
    await this.withDb((db) => expectSentExactlyOnce(db, detail, run.tenant, run.recipients));
    server.killGroup('SIGINT');
    return server.exited;
  }

  async remove(): Promise<void> {
    await this.fleet.stopAll();
    await rm(path.dirname(this.dataDir), { recursive: true, force: true });
  }
}
