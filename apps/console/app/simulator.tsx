import { useState } from 'preact/hooks';
import { unwrap, type Schema } from './api.js';
import { formatDateTime, t } from './i18n.js';
import { ErrorBox, FormEnd, submitting, useApp, usePoll } from './ui.js';

type Simulated = Schema<'SimulatedMessage'>;

export function SimulatorPage() {
  const { admin, api, me } = useApp();
  const [selected, setSelected] = useState<string | null>(null);
  const outbox = usePoll(
    async () =>
      (await unwrap(admin!.GET('/admin/v1/simulator/messages', { params: { query: { limit: 500, ...(me ? { company_id: me.company.id } : {}) } } }))).items,
    2_000,
    [admin, me?.company.id],
  );
  const setores = usePoll(async () => (api ? (await unwrap(api.GET('/v1/setores', { params: { query: { limit: 100 } } }))).items : []), 0, [api]);
  const byRecipient = new Map<string, Simulated[]>();
  for (const m of outbox.data ?? []) byRecipient.set(m.to, [...(byRecipient.get(m.to) ?? []), m]);
  const recipients = [...byRecipient.keys()].sort();
  const current = selected ?? recipients[0] ?? null;
  const chat = current ? [...(byRecipient.get(current) ?? [])].reverse() : [];
  return (
    <section aria-labelledby="simulator-title">
      <h1 id="simulator-title">{t('simulator.title')}</h1>
      <p>{t('simulator.intro')}</p>
      <ErrorBox error={outbox.error} />
      <div class="sim">
        <nav aria-label={t('simulator.recipients')} class="sim-list">
          <h2>{t('simulator.recipients')}</h2>
          <ul class="plain">
            {recipients.map((phone) => (
              <li key={phone}>
                <button type="button" aria-current={phone === current ? 'true' : undefined} onClick={() => setSelected(phone)}>
                  {phone} ({byRecipient.get(phone)!.length})
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div class="phone" aria-live="polite">
          {current ? (
            <>
              <h2>{t('simulator.chat', { phone: current })}</h2>
              <ol class="chat">
                {chat.map((m) => (
                  <li key={m.id} class="bubble out">
                    <span>{m.text ?? `[${m.kind}]`}</span>
                    {m.media_url && <span class="muted"> {m.media_url}</span>}
                    <time class="muted">{formatDateTime(m.sent_at)}</time>
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <p>{t('simulator.pick')}</p>
          )}
        </div>
      </div>
      <Inbound setores={setores.data ?? []} defaultFrom={current ?? ''} />
    </section>
  );
}

function Inbound({ setores, defaultFrom }: { setores: Schema<'SetorListItem'>[]; defaultFrom: string }) {
  const { admin } = useApp();
  const [setorId, setSetorId] = useState('');
  const [from, setFrom] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const chosen = setorId || setores[0]?.id || '';
  return (
    <form
      class="stack card wide"
      onSubmit={submitting(setError, async () => {
        setNotice(null);
        await unwrap(admin!.POST('/admin/v1/simulator/inbound', { body: { setor_id: chosen, from: from || defaultFrom, text } }));
        setNotice(t('simulator.sent'));
        setText('');
      })}
    >
      <h2>{t('simulator.inbound')}</h2>
      <label>
        {t('simulator.box')}
        <select required value={chosen} onChange={(e) => setSetorId(e.currentTarget.value)}>
          {setores.map((s) => (
            <option value={s.id} key={s.id}>
              {s.nome} {s.phone_number ?? ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('simulator.from')}
        <input required value={from || defaultFrom} inputMode="tel" onInput={(e) => setFrom(e.currentTarget.value)} />
      </label>
      <label>
        {t('simulator.text')}
        <textarea required rows={2} maxLength={4096} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <FormEnd submit={t('simulator.send')} notice={notice} error={error} />
    </form>
  );
}
