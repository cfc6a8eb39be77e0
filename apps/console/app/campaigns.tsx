import { useState } from 'preact/hooks';
import { CarteiroApiError, hasScope, idempotencyKey, unwrap, type Schema } from './api.js';
import { formatDateTime, formatWait, locale, t, type MessageKey } from './i18n.js';
import { ErrorBox, Notice, Pager, ProgressBar, ScopedButton, TableHead, useApp, usePoll } from './ui.js';
import { parseRecipients, preview } from './recipients.js';

type Campaign = Schema<'CampaignListItem'>;
const STATUSES = ['pendente', 'processando', 'pausado', 'concluido', 'falha'] as const;
const MESSAGE_STATUSES = ['pendente', 'enviado', 'falha', 'pulado'] as const;
const LEVELS = ['normal', 'seguro', 'lento', 'muito_lento', 'ultra_lento'] as const;

/** A list filter: "all", then each status by its name in the language of the page (`kind`: campaign or message statuses). */
function StatusSelect({ value, statuses, kind, onChange }: { value: string; statuses: readonly string[]; kind: 'cstatus' | 'mstatus'; onChange: (value: string) => void }) {
  return (
    <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">{t('campaigns.all')}</option>
      {statuses.map((s) => (
        <option value={s}>{t(`${kind}.${s}` as MessageKey)}</option>
      ))}
    </select>
  );
}

export function CampaignsPage() {
  const { api } = useApp();
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const { data, error } = usePoll(
    async () => {
      const query = { limit: 100, ...(status ? { status: status as (typeof STATUSES)[number] } : {}) };
      return (await unwrap(api!.GET('/v1/campaigns', { params: { query } }))).items;
    },
    2_000,
    [api, status],
  );
  const shown = (data ?? []).filter((c) => c.name.toLowerCase().includes(search.trim().toLowerCase()));
  return (
    <section aria-labelledby="campaigns-title">
      <div class="title-row">
        <h1 id="campaigns-title">{t('campaigns.title')}</h1>
        <a class="button primary" href="#/campaigns/new">
          {t('campaigns.new')}
        </a>
      </div>
      <div class="filters">
        <label>
          {t('campaigns.search')}
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          {t('campaigns.filter')}
          <StatusSelect value={status} statuses={STATUSES} kind="cstatus" onChange={setStatus} />
        </label>
      </div>
      <ErrorBox error={error} />
      {!data && !error && <p>{t('loading')}</p>}
      {data && shown.length === 0 && <p>{t('none')}</p>}
      <ul class="cards">
        {shown.map((c) => (
          <li class="card campaign" key={c.id}>
            <h2>
              <a href={`#/campaigns/${c.id}`}>{c.name}</a>
            </h2>
            <span class={`badge c-${c.status}`}>{t(`cstatus.${c.status}` as MessageKey)}</span>
            <ProgressBar total={c.total_destinatarios} sent={c.total_enviados} failed={c.total_falhas} skipped={c.total_pulados} />
            <p class="muted">
              {t('campaigns.created')}: {formatDateTime(c.created_at)}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function CampaignDetailPage({ id }: { id: string }) {
  const { api } = useApp();
  const [actionError, setActionError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [q, setQ] = useState('');
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const campaign = usePoll(() => unwrap(api!.GET('/v1/campaigns/{id}', { params: { path: { id } } })), 1_500, [api, id]);
  const recipients = usePoll(
    () =>
      unwrap(
        api!.GET('/v1/campaigns/{id}/recipients', {
          params: {
            path: { id },
            query: { page, limit: 25, ...(q.trim() ? { q: q.trim() } : {}), ...(filter ? { status: filter as (typeof MESSAGE_STATUSES)[number] } : {}) },
          },
        }),
      ),
    3_000,
    [api, id, q, filter, page],
  );

  const act = async (action: 'pause' | 'resume' | 'cancel' | 'retry', label: string) => {
    setActionError(null);
    setNotice(null);
    setBusy(true);
    try {
      if (action === 'retry') {
        const result = await unwrap(api!.POST('/v1/campaigns/{id}/retry', { params: { path: { id } }, body: { all_failures: true } }));
        setNotice(t('detail.retried', { count: (result as { retried?: number }).retried ?? 0 }));
      } else {
        const path = `/v1/campaigns/{id}/${action}` as '/v1/campaigns/{id}/pause';
        await unwrap(api!.POST(path, { params: { path: { id } } }));
        setNotice(t('detail.done', { action: label }));
      }
      campaign.reload();
      recipients.reload();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
    }
  };

  const c = campaign.data;
  return (
    <section aria-labelledby="detail-title">
      <p>
        <a href="#/campaigns">{t('detail.back')}</a>
      </p>
      <ErrorBox error={campaign.error} />
      {!c && !campaign.error && <p>{t('loading')}</p>}
      {c && (
        <>
          <div class="title-row">
            <h1 id="detail-title">{c.name}</h1>
            <span class={`badge c-${c.status}`} data-status={c.status}>
              {t(`cstatus.${c.status}` as MessageKey)}
              {c.cancelled_by_user ? ` · ${t('detail.cancelled')}` : ''}
            </span>
          </div>
          <ProgressBar total={c.total_destinatarios} sent={c.total_enviados} failed={c.total_falhas} skipped={c.total_pulados} />
          <dl class="facts">
            <dt>{t('detail.mode')}</dt>
            <dd data-mode={c.execution_mode}>{t(`mode.${c.execution_mode}` as MessageKey)}</dd>
            <dt>{t('detail.scheduled')}</dt>
            <dd>{formatDateTime(c.scheduled_for)}</dd>
            <dt>{t('detail.numbers')}</dt>
            <dd>{c.number_pool_size}</dd>
            <dt>{t('detail.pacing')}</dt>
            <dd>{t(`pacing.${c.anti_ban_level}` as MessageKey)}</dd>
          </dl>
          <div class="actions">
            {/* Every move stays pressable: the API says when a state refuses it (409 with the allowed states). */}
            <ScopedButton scope="campaigns:write" busy={busy} onClick={() => void act('pause', t('detail.pause'))}>
              {t('detail.pause')}
            </ScopedButton>
            <ScopedButton scope="campaigns:write" busy={busy} onClick={() => void act('resume', t('detail.resume'))}>
              {t('detail.resume')}
            </ScopedButton>
            <ScopedButton scope="campaigns:write" busy={busy} onClick={() => void act('retry', t('detail.retry'))}>
              {t('detail.retry')}
            </ScopedButton>
            <ScopedButton scope="campaigns:write" class="danger" busy={busy} onClick={() => void act('cancel', t('detail.cancel'))}>
              {t('detail.cancel')}
            </ScopedButton>
          </div>
          <Notice text={notice} />
          <ErrorBox error={actionError} />
        </>
      )}
      <h2>{t('detail.recipients')}</h2>
      <div class="filters">
        <label>
          {t('detail.recipientSearch')}
          <input type="search" maxLength={100} value={q} onInput={(e) => (setQ(e.currentTarget.value), setPage(1))} />
        </label>
        <label>
          {t('detail.recipientFilter')}
          <StatusSelect value={filter} statuses={MESSAGE_STATUSES} kind="mstatus" onChange={(value) => (setFilter(value), setPage(1))} />
        </label>
      </div>
      <ErrorBox error={recipients.error} />
      {recipients.data && (
        <>
          <div class="table-wrap">
            <table>
              <TableHead columns={[t('detail.name'), t('detail.phone'), t('detail.status'), t('detail.error'), t('detail.sentAt')]} />
              <tbody>
                {recipients.data.items.map((r) => (
                  <tr key={r.id}>
                    <td>{r.nome}</td>
                    <td>{r.telefone}</td>
                    <td>
                      <span class={`badge m-${r.status}`}>{t(`mstatus.${r.status}` as MessageKey)}</span>
                    </td>
                    <td>{r.erro_codigo ?? ''}</td>
                    <td>{formatDateTime(r.sent_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} shown={recipients.data.page} pages={Math.max(1, recipients.data.totalPages)} onPage={setPage} />
        </>
      )}
    </section>
  );
}

export function NewCampaignPage() {
  const { api, me } = useApp();
  const [name, setName] = useState('');
  const [csv, setCsv] = useState<ReturnType<typeof parseRecipients> | null>(null);
  const [text, setText] = useState('');
  const [level, setLevel] = useState<(typeof LEVELS)[number]>('normal');
  const [numbers, setNumbers] = useState<string[]>([]);
  const [schedule, setSchedule] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const setores = usePoll(async () => (await unwrap(api!.GET('/v1/setores', { params: { query: { limit: 100 } } }))).items, 0, [api]);

  const submit = async (scheduleAt?: string) => {
    if (!csv || csv.recipients.length === 0) return;
    setError(null);
    setBusy(true);
    const when = scheduleAt ?? (schedule ? new Date(schedule).toISOString() : undefined);
    try {
      const created = await unwrap(
        api!.POST('/v1/campaigns', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: {
            name: name || `CSV ${new Date().toLocaleString(locale())}`,
            recipients: csv.recipients.map((r) => ({ phone: r.phone, ...(r.name ? { name: r.name } : {}), ...(Object.keys(r.variables).length ? { variables: r.variables } : {}) })),
            message: { text },
            ...(numbers.length === 1 ? { setor_id: numbers[0] } : {}),
            ...(numbers.length > 1 ? { setor_ids: numbers } : {}),
            options: { anti_ban_level: level, ...(when ? { schedule_at: when } : {}) },
          },
        }),
      );
      window.location.hash = `#/campaigns/${created.id}`;
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const refusal = error instanceof CarteiroApiError ? error : null;
  const suggested = refusal?.code === 'SAFE_HOUR_VIOLATION' ? (refusal.details?.['suggested_schedule_at'] as string | undefined) : undefined;
  const concurrent = refusal?.code === 'CONCURRENT_LIMIT_EXCEEDED' ? refusal.details : undefined;

  return (
    <section aria-labelledby="new-title">
      <p>
        <a href="#/campaigns">{t('detail.back')}</a>
      </p>
      <h1 id="new-title">{t('new.title')}</h1>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label>
          {t('new.name')}
          <input value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          {t('new.csv')}
          <input
            type="file"
            accept=".csv,text/csv"
            required
            aria-describedby="csv-help"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              setCsv(file ? parseRecipients(await file.text()) : null);
            }}
          />
        </label>
        <p id="csv-help" class="muted">
          {t('new.csvHelp')}
        </p>
        {csv && !csv.hasPhone && <p class="error" role="alert">{t('new.noPhone')}</p>}
        {csv?.hasPhone && (
          <p role="status">
            {t('new.parsed', { count: csv.recipients.length })} {csv.skipped.length > 0 && t('new.csvErrors', { rows: csv.skipped.join(', ') })}
          </p>
        )}
        <label>
          {t('new.message')}
          <textarea required rows={4} maxLength={4096} aria-describedby="message-help" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <p id="message-help" class="muted">
          {t('new.messageHelp')}
        </p>
        {csv && csv.recipients.length > 0 && text && (
          <div>
            <h2>{t('new.preview')}</h2>
            <ul class="preview">
              {csv.recipients.slice(0, 5).map((r) => (
                <li key={r.phone}>
                  <strong>
                    {r.name ?? ''} {r.phone}
                  </strong>
                  <span class="bubble out">{preview(text, r, new Date(), locale())}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        <label>
          {t('new.pacing')}
          <select value={level} onChange={(e) => setLevel(e.currentTarget.value as (typeof LEVELS)[number])}>
            {LEVELS.map((l) => (
              <option value={l}>{t(`pacing.${l}` as MessageKey)}</option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>{t('new.numbers')}</legend>
          <p class="muted">{t('new.numbersHelp')}</p>
          {setores.data?.map((s) => (
            <label class="check" key={s.id}>
              <input
                type="checkbox"
                checked={numbers.includes(s.id)}
                disabled={!s.connected}
                onChange={(e) => setNumbers(e.currentTarget.checked ? [...numbers, s.id] : numbers.filter((n) => n !== s.id))}
              />
              {s.nome} {s.phone_number ? `(${s.phone_number})` : `— ${t(`status.${s.status}` as MessageKey)}`}
            </label>
          ))}
        </fieldset>
        <label>
          {t('new.schedule')}
          <input type="datetime-local" value={schedule} onInput={(e) => setSchedule(e.currentTarget.value)} />
        </label>
        {suggested && (
          <div class="choice" role="alert">
            <p>{t('new.safeHours', { when: new Date(suggested).toLocaleString(locale()) })}</p>
            <button type="button" class="primary" onClick={() => void submit(suggested)}>
              {t('new.useSuggested', { when: new Date(suggested).toLocaleString(locale()) })}
            </button>
          </div>
        )}
        {concurrent && (
          <div class="choice" role="alert">
            <p>
              {t('new.concurrent', {
                active: String(concurrent['active'] ?? '?'),
                limit: String(concurrent['limit'] ?? '?'),
                wait: typeof concurrent['retry_after_seconds'] === 'number' ? formatWait(concurrent['retry_after_seconds']) : '?',
              })}
            </p>
            <ul>
              {((concurrent['active_campaigns'] as { id: string; titulo: string; status: string }[] | undefined) ?? []).map((a) => (
                <li key={a.id}>
                  <a href={`#/campaigns/${a.id}`}>{a.titulo}</a> — {t(`cstatus.${a.status}` as MessageKey)}
                </li>
              ))}
            </ul>
          </div>
        )}
        {!suggested && !concurrent && <ErrorBox error={error} />}
        <button type="submit" class="primary" disabled={busy || !csv?.recipients.length || !hasScope(me, 'campaigns:write')}>
          {t('new.submit')}
        </button>
      </form>
    </section>
  );
}


