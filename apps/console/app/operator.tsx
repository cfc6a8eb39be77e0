import { useState } from 'preact/hooks';
import { unwrap, type Schema } from './api.js';
import { formatDateTime, t } from './i18n.js';
import { attempt, CheckList, CopyButton, ErrorBox, FormEnd, Notice, submitting, TableHead, useApp, usePoll } from './ui.js';

type Scope = Schema<'AdminCreateApiKeyRequest'>['scopes'][number];
type Company = Schema<'Company'>;
/** The scopes a key may hold (the API's list; `*` is every one). */
const SCOPES: Scope[] = [
  'messages:write',
  'campaigns:read',
  'campaigns:write',
  'webhooks:manage',
  'channel:manage',
  'credits:read',
  'tickets:read',
  'tickets:write',
  'contacts:read',
  'contacts:write',
  'tags:read',
  'tags:write',
  'imports:write',
  'appointments:read',
  'appointments:write',
  'crm:read',
  'crm:write',
  'scheduled_messages:read',
  'scheduled_messages:write',
  'contracts:read',
  'contracts:write',
  'leads:read',
  'leads:write',
  'reports:read',
  '*',
];

export function OperatorPage() {
  const { admin, me } = useApp();
  const [companyId, setCompanyId] = useState(me?.company.id ?? '');
  const [draft, setDraft] = useState(companyId);
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <section aria-labelledby="operator-title">
      <h1 id="operator-title">{t('operator.title')}</h1>
      <div class="row">
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            setCompanyId(draft.trim());
          }}
        >
          <label for="company-id">{t('operator.company')}</label>
          <input id="company-id" required value={draft} size={38} onInput={(e) => setDraft(e.currentTarget.value)} />
          <button type="submit">{t('operator.open')}</button>
        </form>
        <form
          class="inline-form"
          onSubmit={submitting(setError, async () => {
            const created = await unwrap(admin!.POST('/admin/v1/companies', { body: { name: newName } }));
            setDraft(created.id);
            setCompanyId(created.id);
            setNewName('');
          })}
        >
          <label for="company-name">{t('operator.companyName')}</label>
          <input id="company-name" required maxLength={200} value={newName} onInput={(e) => setNewName(e.currentTarget.value)} />
          <button type="submit">{t('operator.createCompany')}</button>
        </form>
      </div>
      <ErrorBox error={error} />
      {companyId && (
        <>
          <CompanySettings key={`s-${companyId}`} companyId={companyId} />
          <ApiKeys key={`k-${companyId}`} companyId={companyId} />
          <Boxes key={`b-${companyId}`} companyId={companyId} />
        </>
      )}
    </section>
  );
}

function CompanySettings({ companyId }: { companyId: string }) {
  const { admin } = useApp();
  const company = usePoll(() => unwrap(admin!.GET('/admin/v1/companies/{id}', { params: { path: { id: companyId } } })), 0, [admin, companyId]);
  return (
    <div class="card wide">
      <h2>{t('operator.settings')}</h2>
      <ErrorBox error={company.error} />
      {company.data && <SettingsForm company={company.data} onSaved={company.reload} />}
    </div>
  );
}

function SettingsForm({ company, onSaved }: { company: Company; onSaved: () => void }) {
  const { admin } = useApp();
  const [form, setForm] = useState({
    name: company.name,
    daily_limit: company.daily_limit,
    concurrent_campaigns_limit: company.concurrent_campaigns_limit,
    company_rpm: company.company_rpm,
    start: company.safe_hours.start,
    end: company.safe_hours.end,
    timezone: company.timezone,
    bulk_messaging_enabled: company.bulk_messaging_enabled,
    multi_number_enabled: company.multi_number_enabled,
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const num = (key: keyof typeof form, label: string, min: number, max: number) => (
    <label>
      {label}
      <input type="number" min={min} max={max} required value={form[key] as number} onInput={(e) => setForm({ ...form, [key]: Number(e.currentTarget.value) })} />
    </label>
  );
  return (
    <form
      class="grid-form"
      onSubmit={submitting(setError, async () => {
        setNotice(null);
        await unwrap(
          admin!.PATCH('/admin/v1/companies/{id}', {
            params: { path: { id: company.id } },
            body: {
              name: form.name,
              daily_limit: form.daily_limit,
              concurrent_campaigns_limit: form.concurrent_campaigns_limit,
              company_rpm: form.company_rpm,
              safe_hours: { start: form.start, end: form.end },
              timezone: form.timezone,
              bulk_messaging_enabled: form.bulk_messaging_enabled,
              multi_number_enabled: form.multi_number_enabled,
            },
          }),
        );
        setNotice(t('operator.saved'));
        onSaved();
      })}
    >
      <label>
        {t('operator.companyName')}
        <input required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
      </label>
      {num('daily_limit', t('operator.dailyLimit'), 0, 2_147_483_647)}
      {num('concurrent_campaigns_limit', t('operator.concurrent'), 0, 1000)}
      {num('company_rpm', t('operator.rpm'), 1, 2_147_483_647)}
      {num('start', t('operator.safeStart'), 0, 24)}
      {num('end', t('operator.safeEnd'), 0, 24)}
      <label>
        {t('operator.timezone')}
        <input required value={form.timezone} onInput={(e) => setForm({ ...form, timezone: e.currentTarget.value })} />
      </label>
      <label class="check">
        <input type="checkbox" checked={form.bulk_messaging_enabled} onChange={(e) => setForm({ ...form, bulk_messaging_enabled: e.currentTarget.checked })} />
        {t('operator.bulk')}
      </label>
      <label class="check">
        <input type="checkbox" checked={form.multi_number_enabled} onChange={(e) => setForm({ ...form, multi_number_enabled: e.currentTarget.checked })} />
        {t('operator.multi')}
      </label>
      <FormEnd submit={t('save')} notice={notice} error={error} />
    </form>
  );
}

function ApiKeys({ companyId }: { companyId: string }) {
  const { admin } = useApp();
  const keys = usePoll(
    async () => (await unwrap(admin!.GET('/admin/v1/companies/{id}/api-keys', { params: { path: { id: companyId }, query: { limit: 100 } } }))).items,
    0,
    [admin, companyId],
  );
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'live' | 'test'>('test');
  const [scopes, setScopes] = useState<Scope[]>(['messages:write', 'campaigns:read', 'campaigns:write', 'webhooks:manage', 'channel:manage', 'credits:read', 'tickets:read']);
  const [grace, setGrace] = useState(86_400);
  const [issued, setIssued] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = (work: () => Promise<void>) =>
    attempt(setError, async () => {
      await work();
      keys.reload();
    })();
  return (
    <div class="card wide">
      <h2>{t('operator.keys')}</h2>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const key = await unwrap(admin!.POST('/admin/v1/companies/{id}/api-keys', { params: { path: { id: companyId } }, body: { name, scopes, mode } }));
            setIssued(key.key);
            setName('');
          });
        }}
      >
        <label>
          {t('operator.keyName')}
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          {t('operator.keyMode')}
          <select value={mode} onChange={(e) => setMode(e.currentTarget.value as 'live' | 'test')}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
        <CheckList legend={t('operator.keyScopes')} options={SCOPES} chosen={scopes} onChange={setScopes} />
        <div>
          <button type="submit" class="primary">
            {t('operator.createKey')}
          </button>
        </div>
      </form>
      {issued && (
        <div class="secret" role="status">
          <label for="issued-key">{t('operator.keyShown')}</label>
          <input id="issued-key" readOnly value={issued} />
          <CopyButton value={issued} targetId="issued-key" />
        </div>
      )}
      <ErrorBox error={error ?? keys.error} />
      <label class="inline">
        {t('operator.grace')}
        <input type="number" min={0} max={2_592_000} value={grace} onInput={(e) => setGrace(Number(e.currentTarget.value))} />
      </label>
      <div class="table-wrap">
        <table>
          <TableHead columns={[t('operator.keyName'), t('whoami.key'), t('operator.keyScopes'), t('detail.status')]} action={t('operator.rotate')} />
          <tbody>
            {keys.data?.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code> {k.mode}
                </td>
                <td>{k.scopes.join(' ')}</td>
                <td>{k.revoked_at ? t('operator.revoked') : k.expires_at ? t('operator.expires', { when: formatDateTime(k.expires_at) }) : '✓'}</td>
                <td class="actions">
                  {!k.revoked_at && (
                    <>
                      <button
                        type="button"
                        onClick={() =>
                          void run(async () => {
                            const key = await unwrap(admin!.POST('/admin/v1/api-keys/{id}/rotate', { params: { path: { id: k.id } }, body: { grace_seconds: grace } }));
                            setIssued(key.key);
                          })
                        }
                      >
                        {t('operator.rotate')} <span class="visually-hidden">{k.name}</span>
                      </button>
                      <button type="button" class="danger" onClick={() => void run(async () => void (await unwrap(admin!.DELETE('/admin/v1/api-keys/{id}', { params: { path: { id: k.id } } }))))}>
                        {t('operator.revoke')} <span class="visually-hidden">{k.name}</span>
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Boxes({ companyId }: { companyId: string }) {
  const { admin } = useApp();
  const boxes = usePoll(
    async () => {
      const page = await unwrap(admin!.GET('/admin/v1/companies/{id}/setores', { params: { path: { id: companyId }, query: { limit: 100 } } }));
      return Promise.all(page.items.map((s) => unwrap(admin!.GET('/admin/v1/setores/{id}', { params: { path: { id: s.id } } }))));
    },
    0,
    [admin, companyId],
  );
  return (
    <div class="card wide">
      <h2>{t('operator.boxes')}</h2>
      <ErrorBox error={boxes.error} />
      <ul class="plain">
        {boxes.data?.map((box) => <BoxRow key={box.id} box={box} onSaved={boxes.reload} />)}
      </ul>
    </div>
  );
}

function BoxRow({ box, onSaved }: { box: Schema<'SetorWithWarming'>; onSaved: () => void }) {
  const { admin } = useApp();
  const [override, setOverride] = useState(box.warming_daily_limit_override === null ? '' : String(box.warming_daily_limit_override));
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = `override-${box.id}`;
  return (
    <li>
      <strong>{box.nome}</strong> ({box.channel_type}) — {t('operator.warming', { stage: box.warming.stage, sent: box.warming.sent_today, limit: box.warming.daily_limit })}
      <form
        class="inline-form"
        onSubmit={submitting(setError, async () => {
          await unwrap(
            admin!.PATCH('/admin/v1/setores/{id}', { params: { path: { id: box.id } }, body: { warming_daily_limit: override === '' ? null : Number(override) } }),
          );
          setNotice(t('operator.saved'));
          onSaved();
        })}
      >
        <label for={id}>{t('operator.override')}</label>
        <input id={id} type="number" min={0} max={100000} value={override} onInput={(e) => setOverride(e.currentTarget.value)} />
        <button type="submit">
          {t('save')} <span class="visually-hidden">{box.nome}</span>
        </button>
      </form>
      <Notice text={notice} />
      <ErrorBox error={error} />
    </li>
  );
}
