import pg from 'pg';

export interface ListenerOptions {
  /** Wait before reconnecting after the connection dropped. */
  reconnectMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * LISTENs on one channel over a dedicated connection and calls the subscribers on every
 * notification. After a lost connection it reconnects and calls them once, since notifications
 * sent meanwhile are gone. Structurally a `WakeSource` of `@carteiro/webhooks`.
 */
export class PgNotificationListener {
  private client: pg.Client | null = null;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly options: ListenerOptions = {},
  ) {}

  async subscribe(listener: () => void): Promise<() => Promise<void>> {
    this.listeners.add(listener);
    if (!this.client && !this.reconnectTimer) await this.connect();
    return async () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) await this.close();
    };
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private async connect(): Promise<void> {
    this.closed = false;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'carteiro-listener' });
    client.on('notification', () => this.emit());
    client.on('error', (error) => {
      this.options.onError?.(error);
      this.dropped(client);
    });
    client.on('end', () => this.dropped(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
      this.client = client;
    } catch (error) {
      this.options.onError?.(error);
      await client.end().catch(() => undefined);
      this.dropped(client);
    }
  }

  private dropped(client: pg.Client): void {
    if (this.client === client) this.client = null;
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed) return;
      void this.connect().then(() => this.emit());
    }, this.options.reconnectMs ?? 1000);
    this.reconnectTimer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
