import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { CarteiroApiError, clientFor, loadSession, saveSession, unwrap, type Me, type Session } from './api.js';
import { CampaignDetailPage, CampaignsPage, NewCampaignPage } from './campaigns.js';
import { LOCALES, locale, setLocale, t, type Locale } from './i18n.js';
import { NumbersPage } from './numbers.js';
import { OperatorPage } from './operator.js';
import { SimulatorPage } from './simulator.js';
import { AppContext, ErrorBox, type Ctx } from './ui.js';
import { WebhooksPage } from './webhooks.js';
import './styles.css';

const LOCALE_KEY = 'carteiro.console.locale';

function useHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

function App() {
  const [session, setSession] = useState<Session>(loadSession());
  const [me, setMe] = useState<Me | null>(null);
  const [ready, setReady] = useState(false);
  const [lang, setLang] = useState<Locale>(locale());
  const hash = useHash();
  const api = useMemo(() => (session.apiKey ? clientFor(session.apiKey) : null), [session.apiKey]);
  const admin = useMemo(() => (session.adminToken ? clientFor(session.adminToken) : null), [session.adminToken]);

  useEffect(() => {
    setReady(false);
    if (!api) {
      setMe(null);
      setReady(true);
      return;
    }
    unwrap(api.GET('/v1/me', {}))
      .then((value) => setMe(value))
      .catch((e: unknown) => {
        setMe(null);
        // A key that no longer works sends the user back to the sign-in form.
        if (e instanceof CarteiroApiError && e.status === 401) signOut();
      })
      .finally(() => setReady(true));
  }, [api]);

  const signOut = () => {
    saveSession({});
    setSession({});
    window.location.hash = '';
  };
  const ctx: Ctx = { api, admin, me, locale: lang };
  const signedIn = Boolean(api || admin);
  const route = hash.replace(/^#\/?/, '');
  const defaultRoute = api ? 'numbers' : 'operator';
  const page = route || defaultRoute;

  const links: [string, string][] = [
    ...(api
      ? ([
          ['numbers', t('nav.numbers')],
          ['campaigns', t('nav.campaigns')],
          ['webhooks', t('nav.webhooks')],
        ] as [string, string][])
      : []),
    ...(admin
      ? ([
          ['operator', t('nav.operator')],
          ['simulator', t('nav.simulator')],
        ] as [string, string][])
      : []),
  ];

  return (
    <AppContext.Provider value={ctx}>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        {t('app.skip')}
      </a>
      <header class="top">
        <span class="brand">Carteiro</span>
        {signedIn && (
          <nav aria-label={t('nav.label')}>
            <ul>
              {links.map(([to, label]) => (
                <li key={to}>
                  <a href={`#/${to}`} aria-current={page.split('/')[0] === to ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div class="tools">
          <label>
            <span class="visually-hidden">{t('lang.label')}</span>
            <select
              aria-label={t('lang.label')}
              value={lang}
              onChange={(e) => {
                const next = e.currentTarget.value as Locale;
                setLocale(next);
                localStorage.setItem(LOCALE_KEY, next);
                setLang(next);
              }}
            >
              {LOCALES.map((l) => (
                <option value={l}>{l === 'pt-BR' ? 'Português' : 'English'}</option>
              ))}
            </select>
          </label>
          {signedIn && (
            <button type="button" onClick={signOut}>
              {t('signout')}
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {!signedIn ? (
          <SignIn
            onSignedIn={(next) => {
              saveSession(next);
              setSession(next);
              window.location.hash = next.apiKey ? '#/numbers' : '#/operator';
            }}
          />
        ) : !ready ? (
          <p>{t('loading')}</p>
        ) : (
          <>
            <WhoAmI me={me} admin={Boolean(admin)} apiKey={Boolean(api)} />
            <Page page={page} />
          </>
        )}
      </main>
    </AppContext.Provider>
  );
}

function Page({ page }: { page: string }) {
  const [section, id] = page.split('/');
  if (section === 'campaigns' && id === 'new') return <NewCampaignPage />;
  if (section === 'campaigns' && id) return <CampaignDetailPage id={id} />;
  switch (section) {
    case 'campaigns':
      return <CampaignsPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'operator':
      return <OperatorPage />;
    case 'simulator':
      return <SimulatorPage />;
    default:
      return <NumbersPage />;
  }
}

function WhoAmI({ me, admin, apiKey }: { me: Me | null; admin: boolean; apiKey: boolean }) {
  return (
    <aside class="whoami" aria-label={t('whoami.key')}>
      {me && (
        <p>
          <span>
            {t('whoami.company')}: <strong>{me.company.name}</strong>
          </span>{' '}
          <span>
            {t('whoami.key')}: <code>{me.api_key.prefix}…</code> ({me.api_key.mode})
          </span>
        </p>
      )}
      {apiKey && (
        <p class="scopes">
          {t('whoami.scopes')}:{' '}
          {me ? me.api_key.scopes.map((s) => <span class="chip" key={s}>{s}</span>) : <em>{t('whoami.unknownScopes')}</em>}
        </p>
      )}
      {admin && <p class="muted">{t('whoami.operator')}</p>}
    </aside>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="signin-title" class="signin card">
      <h1 id="signin-title">{t('signin.title')}</h1>
      <p>{t('signin.intro')}</p>
      <form
        class="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          const key = apiKey.trim();
          const token = adminToken.trim();
          if (!key && !token) return setError(new Error(t('signin.needOne')));
          setBusy(true);
          try {
            if (key) {
              // Any answer but 401 means the key is valid (403: it lacks credits:read, the console then asks route by route).
              const { response } = await clientFor(key).GET('/v1/me', {});
              if (response.status === 401) throw new Error(t('signin.badKey', { message: '401' }));
            }
            if (token) {
              const { response } = await clientFor(token).GET('/admin/v1/simulator/messages', { params: { query: { limit: 1 } } });
              if (response.status === 401 || response.status === 404) throw new Error(t('signin.badAdmin', { message: String(response.status) }));
            }
            onSignedIn({ ...(key ? { apiKey: key } : {}), ...(token ? { adminToken: token } : {}) });
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label>
          {t('signin.key')}
          <input type="password" autoComplete="off" spellcheck={false} value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
        </label>
        <label>
          {t('signin.admin')}
          <input type="password" autoComplete="off" spellcheck={false} aria-describedby="admin-hint" value={adminToken} onInput={(e) => setAdminToken(e.currentTarget.value)} />
        </label>
        <p id="admin-hint" class="muted">
          {t('signin.adminHint')}
        </p>
        <ErrorBox error={error} />
        <div>
          <button type="submit" class="primary" disabled={busy}>
            {t('signin.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}

const saved = localStorage.getItem(LOCALE_KEY);
setLocale(saved === 'en' || saved === 'pt-BR' ? saved : 'pt-BR');
render(<App />, document.getElementById('app')!);
