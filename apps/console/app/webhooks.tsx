import { useState } from 'preact/hooks';
import { unwrap, type Schema } from './api.js';
import { formatDateTime, t, type MessageKey } from './i18n.js';
import { attempt, CheckList, CopyButton, ErrorBox, Notice, Pager, ScopedButton, submitting, TableHead, useApp, usePoll } from './ui.js';

type Webhook = Schema<'Webhook'>;
type EventName = Schema<'CreateWebhookRequest'>['events'][number];
/** The events a messaging backend usually wants first; the API accepts every one it documents. */
const EVENTS: EventName[] = [
  'campaign.started',
  'campaign.paused',
  'campaign.completed',
  'campaign.failed',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.received',
  'channel.session_connected',
  'channel.session_disconnected',
];

export function WebhooksPage() {
  const { api } = useApp();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventName[]>(['campaign.started', 'campaign.paused', 'campaign.completed', 'message.sent', 'message.failed']);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<string | null>(null);
  const list = usePoll(async () => (await unwrap(api!.GET('/v1/webhooks', { params: { query: { limit: 100 } } }))).items, 0, [api]);
  const webhooks = list.data ?? [];

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">{t('webhooks.title')}</h1>
      <ErrorBox error={list.error} />
      <form
        class="stack card"
        onSubmit={submitting(setError, async () => {
          const created = await unwrap(api!.POST('/v1/webhooks', { body: { url, events } }));
          setSecret(created.secret);
          setUrl('');
          setOpen(created.id);
          list.reload();
        })}
      >
        <h2>{t('webhooks.new')}</h2>
        <label>
          {t('webhooks.url')}
          <input type="url" required value={url} placeholder="https://" onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <CheckList legend={t('webhooks.events')} options={EVENTS} chosen={events} onChange={setEvents} />
        <ScopedButton scope="webhooks:manage" class="primary" type="submit">
          {t('webhooks.create')}
        </ScopedButton>
        <ErrorBox error={error} />
        {secret && (
          <div class="secret" role="status">
            <label for="webhook-secret">{t('webhooks.secret', { secret: '' })}</label>
            <input id="webhook-secret" readOnly value={secret} />
            <CopyButton value={secret} targetId="webhook-secret" />
          </div>
        )}
      </form>
      <ul class="cards">
        {webhooks.map((w) => (
          <li class="card wide" key={w.id}>
            <h2 class="url">{w.url}</h2>
            <p>
              <span class={`badge ${w.active ? 'connected' : 'disconnected'}`}>{w.active ? t('webhooks.active') : t('webhooks.inactive')}</span> {w.events.join(', ')}
            </p>
            <WebhookActions webhook={w} open={open === w.id} onToggle={() => setOpen(open === w.id ? null : w.id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function WebhookActions({ webhook, open, onToggle }: { webhook: Webhook; open: boolean; onToggle: () => void }) {
  const { api } = useApp();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [page, setPage] = useState(1);
  const deliveries = usePoll(
    async () => (open ? await unwrap(api!.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query: { limit: 15, page } } })) : null),
    open ? 2_000 : 0,
    [api, webhook.id, open, page],
  );
  const items = deliveries.data ? deliveries.data.items : [];
  const pages = Math.max(1, deliveries.data?.totalPages ?? 1);
  return (
    <>
      <div class="actions">
        <ScopedButton
          scope="webhooks:manage"
          onClick={attempt(setError, async () => {
            await unwrap(api!.POST('/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));
            setNotice(t('webhooks.tested'));
            deliveries.reload();
          })}
        >
          {t('webhooks.test')}
        </ScopedButton>
        <button type="button" aria-expanded={open} onClick={onToggle}>
          {t('webhooks.show')}
        </button>
      </div>
      <Notice text={notice} />
      <ErrorBox error={error ?? deliveries.error} />
      {open && (
        <div class="table-wrap">
          <table>
            <caption>{t('webhooks.deliveries')}</caption>
            <TableHead columns={[t('webhooks.event'), t('webhooks.status'), t('webhooks.attempts'), t('webhooks.response'), t('webhooks.when')]} action={t('webhooks.redeliver')} />
            <tbody>
              {items.map((d) => (
                <tr key={d.id} class="delivery">
                  <td>{d.event}</td>
                  <td>
                    <span class={`badge d-${d.status}`}>{t(`dstatus.${d.status}` as MessageKey)}</span>
                  </td>
                  <td>{d.attempt_count}</td>
                  <td>
                    {d.last_status_code ?? ''} {d.last_error ?? ''}
                  </td>
                  <td>{formatDateTime(d.created_at)}</td>
                  <td>
                    <ScopedButton
                      scope="webhooks:manage"
                      onClick={attempt(setError, async () => {
                        await unwrap(api!.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id: webhook.id, deliveryId: d.id } } }));
                        setNotice(t('webhooks.redelivered'));
                        deliveries.reload();
                      })}
                    >
                      {t('webhooks.redeliver')}
                    </ScopedButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} onPage={setPage} />
        </div>
      )}
    </>
  );
}
