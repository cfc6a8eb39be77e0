import { useEffect, useRef, useState } from 'preact/hooks';
import { hasScope, unwrap, type Schema } from './api.js';
import { formatDateTime, t, type MessageKey } from './i18n.js';
import { ErrorBox, Notice, ScopedButton, Sparkline, submitting, useApp, usePoll } from './ui.js';

type Setor = Schema<'SetorListItem'>;
type Health = Schema<'ChannelHealthItem'>;

export function NumbersPage() {
  const { api, admin, me } = useApp();
  const [connecting, setConnecting] = useState<Setor | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const canHealth = hasScope(me, 'channel:manage');
  const { data, error, reload } = usePoll(
    async () => {
      if (!api) return { setores: [] as Setor[], health: new Map<string, Health>() };
      const setores = await unwrap(api.GET('/v1/setores', { params: { query: { limit: 100 } } }));
      const health: Health[] = canHealth
        ? (await unwrap(api.GET('/v1/channel/instances/health', { params: { query: { include_history: 'true', history_minutes: 60 } } }))).items
        : [];
      return { setores: setores.items, health: new Map(health.map((h) => [h.setor_id, h])) };
    },
    5_000,
    [api, canHealth],
  );

  const disconnect = async (setor: Setor) => {
    setActionError(null);
    try {
      await unwrap(api!.POST('/v1/channel/instances/{id}/disconnect', { params: { path: { id: setor.instance_id! } } }));
      reload();
    } catch (e) {
      setActionError(e);
    }
  };

  return (
    <section aria-labelledby="numbers-title">
      <h1 id="numbers-title">{t('numbers.title')}</h1>
      <ErrorBox error={error ?? actionError} />
      <Notice text={notice} />
      {admin && me && <NewBox companyId={me.company.id} onCreated={(name) => (setNotice(t('numbers.created', { name })), reload())} />}
      {!data && !error && <p>{t('loading')}</p>}
      <ul class="cards">
        {data?.setores.map((setor) => {
          const health = data.health.get(setor.id);
          return (
            <li class="card" key={setor.id}>
              <h2>{setor.nome}</h2>
              <dl class="facts">
                <dt>{t('numbers.state')}</dt>
                <dd>
                  <span class={`badge ${setor.status}`}>{t(`status.${setor.status}` as MessageKey)}</span>
                </dd>
                <dt>{t('numbers.phone')}</dt>
                <dd>{setor.phone_number ?? '—'}</dd>
                {health && (
                  <>
                    <dt>{t('numbers.health')}</dt>
                    <dd>
                      <span class={`badge h-${health.health.state}`}>{t(`health.${health.health.state}` as MessageKey)}</span>
                    </dd>
                    <dt>{t('numbers.lastCheck')}</dt>
                    <dd>{health.health.lastCheckedAt ? formatDateTime(health.health.lastCheckedAt) : t('numbers.never')}</dd>
                    <dt>{t('numbers.history')}</dt>
                    <dd>
                      {health.history && health.history.length > 0 ? (
                        <Sparkline points={health.history} label={`${t('numbers.history')}: ${health.history.map((p) => t(`health.${p.state}` as MessageKey)).slice(-10).join(', ')}`} />
                      ) : (
                        t('numbers.noHistory')
                      )}
                    </dd>
                  </>
                )}
              </dl>
              <div class="actions">
                {setor.status !== 'connected' && setor.channel_type === 'qr' && (
                  <ScopedButton scope="channel:manage" class="primary" onClick={() => setConnecting(setor)}>
                    {t('numbers.connect')}
                  </ScopedButton>
                )}
                {setor.status !== 'disconnected' && setor.instance_id && (
                  <ScopedButton scope="channel:manage" onClick={() => void disconnect(setor)}>
                    {t('numbers.disconnect')}
                  </ScopedButton>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {connecting && (
        <QrDialog
          setor={connecting}
          onClose={() => {
            setConnecting(null);
            reload();
          }}
        />
      )}
    </section>
  );
}

function NewBox({ companyId, onCreated }: { companyId: string; onCreated: (name: string) => void }) {
  const { admin } = useApp();
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      class="inline-form"
      onSubmit={submitting(setError, async () => {
        await unwrap(admin!.POST('/admin/v1/companies/{id}/setores', { params: { path: { id: companyId } }, body: { nome: name } }));
        onCreated(name);
        setName('');
      })}
    >
      <label for="new-box">{t('numbers.newName')}</label>
      <input id="new-box" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <button type="submit">{t('numbers.create')}</button>
      <ErrorBox error={error} />
    </form>
  );
}

/** Creates (or reuses) the box's instance, shows its QR, renews it before it expires and follows the status until connected. */
function QrDialog({ setor, onClose }: { setor: Setor; onClose: () => void }) {
  const { api } = useApp();
  const [qr, setQr] = useState<{ image: string | null; expiresAt: number } | null>(null);
  const [status, setStatus] = useState<{ status: string; phone: string | null }>({ status: setor.status, phone: null });
  const [error, setError] = useState<unknown>(null);
  const [now, setNow] = useState(Date.now());
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
    let stopped = false;
    let instanceId = setor.instance_id;
    let qrExpiresAt = 0;
    const step = async () => {
      try {
        if (!instanceId) {
          const created = await unwrap(api!.POST('/v1/channel/instances', { body: { setor_id: setor.id } }));
          instanceId = created.instance_id;
        }
        const state = await unwrap(api!.GET('/v1/channel/instances/{id}/status', { params: { path: { id: instanceId } } }));
        if (stopped) return;
        setStatus({ status: state.status, phone: state.phone_number });
        if (state.status === 'connected') return; // done: the dialog shows the number
        // Renew 10 s before the code expires (or at once when there is none yet).
        if (Date.now() > qrExpiresAt - 10_000) {
          const code = await unwrap(api!.GET('/v1/channel/instances/{id}/qr', { params: { path: { id: instanceId } } }));
          if (stopped) return;
          qrExpiresAt = Date.now() + code.expires_in * 1000;
          setQr({ image: code.qr_code, expiresAt: qrExpiresAt });
          if (code.status === 'connected') {
            setStatus({ status: code.status, phone: code.phone_number });
            return;
          }
        }
        setError(null);
      } catch (e) {
        if (!stopped) setError(e);
      }
      if (!stopped) setTimeout(step, 1_000);
    };
    void step();
    const clock = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      stopped = true;
      clearInterval(clock);
    };
  }, [setor.id]);

  const connected = status.status === 'connected';
  return (
    <dialog ref={dialog} class="qr-dialog" aria-labelledby="qr-title" onClose={onClose}>
      <h2 id="qr-title">{t('numbers.qrTitle', { name: setor.nome })}</h2>
      <ErrorBox error={error} />
      {connected ? (
        <p class="qr-connected" role="status">
          {t('numbers.connectedAs', { phone: status.phone ?? '—' })}
        </p>
      ) : (
        <>
          <p>{t('numbers.qrHelp')}</p>
          {qr?.image && <img class="qr" src={qr.image} width={256} height={256} alt={t('numbers.qrAlt', { name: setor.nome })} />}
          {qr && <p>{t('numbers.qrExpires', { seconds: Math.max(0, Math.round((qr.expiresAt - now) / 1000)) })}</p>}
          <p role="status">
            {t(`status.${status.status}` as MessageKey)} · {t('numbers.waiting')}
          </p>
        </>
      )}
      <button type="button" class={connected ? 'primary' : ''} onClick={() => dialog.current?.close()}>
        {t('close')}
      </button>
    </dialog>
  );
}
