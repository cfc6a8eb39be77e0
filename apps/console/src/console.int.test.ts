// The console's whole story in a real headless Chromium (Debian's, through playwright-core), on the real API
// and worker: sign in with a key, connect a second number by QR, create a campaign from a CSV of 50 recipients
// and watch it finish, pause and resume another (and see a refusal), watch webhook deliveries, the operator and
// simulator pages. Every page is checked with axe-core; every request the page makes goes to this service only.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createTestApi, TEST_ADMIN_TOKEN, type TestApi } from '../../api/src/testing/test-api.js';
import { createTestWorker, type TestWorker } from '../../worker/src/testing/test-worker.js';
import { buildConsole, JS_BUDGET_GZIP_BYTES } from '../build.mjs';

const CHROMIUM = '/usr/bin/chromium';
/** Set CONSOLE_SCREENSHOTS=docs/console to refresh the screenshots of docs/console.md. */
const SHOTS = process.env['CONSOLE_SCREENSHOTS'];
const FAST = { SIMULATOR_SCAN_DELAY_MS: '2500', PACING_SCALE: '0.001' };

let api: TestApi;
let worker: TestWorker;
let server: Server;
let receiver: Server;
let base: string;
let hookUrl: string;
let context: BrowserContext;
let profile: string;
let consoleDir: string;
let jsGzipBytes: number;
let apiKey: string;
let readOnlyKey: string;
const received: string[] = [];
const leftService: string[] = [];
const a11y: { page: string; id: string; impact: string; nodes: string[] }[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (npm test does it when it may)`);
  consoleDir = mkdtempSync(join(tmpdir(), 'carteiro-console-'));
  ({ jsGzipBytes } = await buildConsole({ outDir: join(consoleDir, 'dist'), quiet: true }));
  process.env['CONSOLE_DIR'] = join(consoleDir, 'dist');
  api = await createTestApi({ env: FAST });
  delete process.env['CONSOLE_DIR'];
  worker = await createTestWorker({ database: api.database, env: FAST });
  server = await new Promise<Server>((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = await new Promise<Server>((resolve) => {
    const s = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString())).on('end', () => {
        received.push(body);
        res.end('ok');
      });
    }).listen(0, '127.0.0.1', () => resolve(s));
  });
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const company = await api.createCompany({ name: 'Padaria Central', safe_hours: { start: 0, end: 24 }, multi_number_enabled: true });
  apiKey = await api.createKey(company.id, { scopes: ['*'], mode: 'test', rpm: 100_000 });
  readOnlyKey = await api.createKey(company.id, { scopes: ['campaigns:read', 'credits:read', 'tickets:read'], mode: 'test', rpm: 100_000 });
  const main = await api.createSetor(company.id, { nome: 'Principal' });
  await api.connectSetor(company.id, main.id);

  profile = mkdtempSync(join(tmpdir(), 'carteiro-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Anything not for this service is recorded and never allowed out.
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`) || url.startsWith('data:')) await route.continue();
    else {
      leftService.push(url);
      await route.abort('blockedbyclient');
    }
  });
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
  if (receiver) await new Promise<void>((resolve) => receiver.close(() => resolve()));
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await worker?.close();
  await api?.close();
});

/** axe-core on the page as it is now; serious and critical violations are collected and asserted at the end. */
const started = Date.now();
async function audit(page: Page, name: string): Promise<void> {
  if (process.env['CONSOLE_TIMING']) console.log(name, Date.now() - started);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const result = await new AxeBuilder({ page }).analyze();
  for (const v of result.violations) {
    if (v.impact === 'serious' || v.impact === 'critical') a11y.push({ page: name, id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) });
  }
}

function csv(): Buffer {
  const names = ['Maria Silva', 'João Souza', 'Ana Lima'];
  const rows = Array.from({ length: 50 }, (_, i) => `+55119876${50100 + i},${names[i % 3]},${1000 + i}`);
  return Buffer.from(['telefone,nome,pedido', ...rows].join('\n'));
}

async function newCampaign(page: Page, name: string, level: string): Promise<void> {
  await page.goto(`${base}/console/#/campaigns`);
  await page.getByRole('link', { name: 'Nova campanha' }).click();
  await page.getByLabel('Nome da campanha').fill(name);
  await page.getByLabel('Arquivo CSV de destinatários').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: csv() });
  await page.getByText('50 destinatários lidos do arquivo.').waitFor();
  await page.getByLabel('Mensagem', { exact: true }).fill('Olá {{primeiro_nome}}, seu pedido {{pedido}} saiu!');
  await page.getByText('Olá Maria, seu pedido 1000 saiu!').waitFor(); // the per-recipient preview
  await page.getByLabel('Ritmo de envio').selectOption(level);
  await page.getByLabel(/^Principal/).check();
  await page.getByLabel(/^Vendas/).check();
}

/** Runs the steps; when one fails, the error carries what the page showed: its text, and a screenshot's path. */
async function withDiagnostics(steps: (page: Page) => Promise<void>): Promise<void> {
  const page = await context.newPage(); // a new tab: a browser session of its own
  try {
    await steps(page);
  } catch (error) {
    const shot = join(tmpdir(), `carteiro-console-failure-${Date.now()}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    const text = await page.locator('main').innerText().catch(() => '');
    throw new Error(`${(error as Error).message}\n--- page (${page.url()}, screenshot ${shot}) ---\n${text.slice(0, 3000)}`);
  } finally {
    await page.close();
  }
}

it('runs the newcomer story in a real browser, accessible, talking to this service only', () => withDiagnostics(story), 120_000);

async function story(page: Page): Promise<void> {
  const requests: string[] = [];
  page.on('request', (req) => requests.push(req.url()));

  // The address printed by npm start opens the console.
  const first = await page.goto(`${base}/`);
  expect(page.url()).toBe(`${base}/console/`);
  expect(first?.headers()['cache-control']).toBe('no-cache');
  expect(first?.headers()['content-security-policy']).toContain("connect-src 'self'");
  await page.getByRole('heading', { name: 'Entrar' }).waitFor();
  await audit(page, 'sign-in');

  // Sign in with the key and the operator token; the key's scopes are shown.
  await page.getByLabel('Chave de API').fill(apiKey);
  await page.getByLabel('Token de operador (opcional)').fill(TEST_ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { name: 'Números' }).waitFor();
  await expect(page.locator('.whoami .chip').allInnerTexts()).resolves.toEqual(['*']);
  expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual(['carteiro.console.session']);
  expect(await page.evaluate("Object.keys(localStorage).filter((k) => k !== 'carteiro.console.locale')")).toEqual([]);

  // A second number: the operator creates the setor, the key connects it by QR.
  await page.getByLabel('Nome da nova caixa').fill('Vendas');
  await page.getByRole('button', { name: 'Criar caixa' }).click();
  const vendas = page.locator('li.card', { has: page.getByRole('heading', { name: 'Vendas' }) });
  // Codes that live 11 s instead of 60: the console must ask for a new one (10 s before expiry) while it waits.
  let qrFetches = 0;
  await page.route(/\/v1\/channel\/instances\/[^/]+\/qr$/, async (route) => {
    qrFetches += 1;
    const response = await route.fetch();
    const body = (await response.json()) as { data: { expires_in: number } };
    await route.fulfill({ response, json: { ...body, data: { ...body.data, expires_in: 11 } } });
  });
  await vendas.getByRole('button', { name: 'Conectar por QR' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('img', { name: 'Código QR para conectar Vendas' }).waitFor();
  expect(await dialog.getByRole('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  await audit(page, 'numbers-qr');
  await dialog.getByText(/^Conectado: \+\d+/).waitFor({ timeout: 15_000 });
  expect(qrFetches).toBeGreaterThanOrEqual(2);
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await vendas.getByText('Conectado', { exact: true }).waitFor();
  // The check the connection enqueued shows up as its health and the first bar of its history chart.
  await vendas.getByRole('img', { name: /^Histórico da última hora: / }).waitFor({ timeout: 15_000 });
  await audit(page, 'numbers');

  // Readable at a phone's width: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'numbers-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });

  // A webhook endpoint, before the campaigns, so their events are delivered to it.
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByLabel('URL do endpoint').fill(hookUrl);
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  expect(await page.locator('#webhook-secret').inputValue()).toMatch(/^whsec_|^.{16,}$/);

  // A campaign from a CSV of 50 recipients over both numbers, watched until it finishes.
  await newCampaign(page, 'Boas-vindas', 'normal');
  await audit(page, 'campaign-new');
  await page.getByRole('button', { name: 'Criar campanha' }).click();
  await page.getByRole('heading', { name: 'Boas-vindas' }).waitFor();
  await page.locator('[data-status="concluido"]').waitFor({ timeout: 40_000 });
  // The simulator refuses a few recipients at random (blocked, not on WhatsApp): every one is settled.
  const finished = (await page.getByRole('progressbar').getAttribute('aria-label')) ?? '';
  const [sent, failed, skipped] = (/^(\d+) enviadas, (\d+) falhas, (\d+) puladas de 50$/.exec(finished) ?? []).slice(1).map(Number);
  expect(sent! + failed! + skipped!).toBe(50);
  expect(sent).toBeGreaterThanOrEqual(40);
  await page.getByLabel('Buscar destinatário (nome ou telefone)').fill('50107');
  await page.locator('tbody tr', { hasText: '+5511987650107' }).waitFor();
  await page.locator('tbody tr', { hasText: '+5511987650100' }).waitFor({ state: 'detached', timeout: 10_000 });;
  // The simulator refuses a few recipients at random (blocked, not on WhatsApp): settled either way.
  await expect(page.locator('tbody tr').first().innerText()).resolves.toMatch(/\t(enviado|falha)\t/);
  await audit(page, 'campaign-detail');

  // Another, slow one: pause it, resume it, and see the API refuse a second resume.
  await newCampaign(page, 'Lembrete', 'ultra_lento');
  await page.getByRole('button', { name: 'Criar campanha' }).click();
  await page.getByRole('heading', { name: 'Lembrete' }).waitFor();
  await page.locator('[data-status="processando"]').waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Pausar' }).click();
  await page.locator('[data-status="pausado"]').waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Retomar' }).click();
  await page.locator('[data-status="processando"]').waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Retomar' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'INVALID_TRANSITION' });
  await refusal.waitFor();
  await expect(refusal.innerText()).resolves.toContain('Só é possível a partir de: Pausada');
  await page.getByRole('button', { name: 'Cancelar campanha' }).click();
  await page.locator('[data-status="falha"], [data-status="concluido"]').waitFor({ timeout: 10_000 });

  // The campaigns list with its progress bars.
  await page.getByRole('link', { name: 'Campanhas', exact: true }).click();
  await page.getByRole('progressbar', { name: finished }).waitFor();
  await audit(page, 'campaigns');

  // Webhook deliveries: the campaign's events delivered, a test, a redelivery.
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('button', { name: 'Ver entregas' }).click();
  await page.locator('tr.delivery', { hasText: 'campaign.completed' }).filter({ hasText: 'entregue' }).first().waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Enviar teste' }).click();
  await page.getByText('Entrega de teste enfileirada.').waitFor();
  await page.getByRole('button', { name: 'Reenviar' }).first().click();
  await page.getByText('Reenvio enfileirado.').waitFor();
  await audit(page, 'webhooks');
  expect(received.some((body) => body.includes('"campaign.completed"'))).toBe(true);

  // Operator: settings, a key shown once, setores with warming.
  await page.getByRole('link', { name: 'Operador', exact: true }).click();
  await page.getByRole('heading', { name: 'Configurações e limites' }).waitFor();
  await page.getByLabel('Nome da chave').fill('Integração');
  await page.getByRole('button', { name: 'Criar chave' }).click();
  expect(await page.locator('#issued-key').inputValue()).toMatch(/^ak_test_/);
  await page.getByText(/^Vendas/).first().waitFor();
  await audit(page, 'operator');

  // Simulator: the outbox as a chat, and an inbound message.
  await page.getByRole('link', { name: 'Simulador', exact: true }).click();
  await page.getByRole('heading', { name: /^Conversa com / }).waitFor();
  await page.locator('.chat .bubble').first().waitFor();
  await page.getByLabel('Texto').fill('Obrigada!');
  await page.getByRole('button', { name: 'Simular recebimento' }).click();
  await page.getByText('Mensagem recebida simulada.').waitFor();
  await audit(page, 'simulator');

  // English from the same catalogue.
  await page.getByLabel('Idioma').selectOption('en');
  await page.getByRole('link', { name: 'Campaigns', exact: true }).waitFor();
  expect(await page.evaluate('document.documentElement.lang')).toBe('en');

  expect(a11y).toEqual([]);
  expect(leftService).toEqual([]);
  expect(requests.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'))).toEqual([]);
  expect(requests.some((url) => url.startsWith(`${base}/v1/campaigns`))).toBe(true);
  expect(jsGzipBytes).toBeLessThan(JS_BUDGET_GZIP_BYTES);
}

it("greys out what the key's scopes do not allow, and says which scope is missing", () => withDiagnostics(async (page) => {
  await page.goto(`${base}/console/`);
  await page.evaluate('localStorage.clear()'); // pt-BR, the default, whatever language an earlier test chose
  await page.reload();
  await page.getByRole('heading', { name: 'Entrar' }).waitFor();
  // With the keyboard alone: the skip link first, then the language, then the key; Enter signs in.
  const focused = () => page.evaluate<string>("document.activeElement.getAttribute('aria-label') || document.activeElement.textContent || document.activeElement.type");
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Ir para o conteúdo');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Idioma');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('password');
  await page.keyboard.type(readOnlyKey);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Números' }).waitFor();
  await expect(page.locator('.whoami .chip').allInnerTexts()).resolves.toEqual(['campaigns:read', 'credits:read', 'tickets:read']);
  // No operator token: no operator pages.
  expect(await page.getByRole('link', { name: 'Operador', exact: true }).count()).toBe(0);
  const disconnect = page.getByRole('button', { name: /^Desconectar/ }).first();
  await disconnect.waitFor();
  expect(await disconnect.isDisabled()).toBe(true);
  expect(await disconnect.getAttribute('title')).toBe('Requer o escopo channel:manage');
  await page.goto(`${base}/console/#/campaigns/new`);
  await page.getByLabel('Arquivo CSV de destinatários').setInputFiles({ name: 'c.csv', mimeType: 'text/csv', buffer: csv() });
  await page.getByLabel('Mensagem', { exact: true }).fill('Oi');
  expect(await page.getByRole('button', { name: 'Criar campanha' }).isDisabled()).toBe(true);
}), 30_000);

it("turns the API's 403 answers into choices: schedule at the suggested time, or the campaigns in the way", () =>
  withDiagnostics(async (page) => {
    // Safe hours that exclude now (UTC company), and room for one campaign at a time.
    const start = (new Date().getUTCHours() + 2) % 24;
    const { company, key, setor: box } = await api.createTenant({
      settings: { name: 'Ótica Norte', timezone: 'UTC', safe_hours: { start, end: start + 1 }, concurrent_campaigns_limit: 1 },
      key: { scopes: ['*'], mode: 'test', rpm: 100_000 },
      setor: { nome: 'Loja' },
    });
    await page.goto(`${base}/console/`);
    await page.evaluate('localStorage.clear()');
    await page.reload();
    await page.getByLabel('Chave de API').fill(key);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('heading', { name: 'Números' }).waitFor();

    const create = async (name: string) => {
      await page.goto(`${base}/console/#/campaigns/new`);
      await page.getByLabel('Nome da campanha').fill(name);
      await page.getByLabel('Arquivo CSV de destinatários').setInputFiles({ name: 'c.csv', mimeType: 'text/csv', buffer: csv() });
      await page.getByLabel('Mensagem', { exact: true }).fill('Oi {{nome}}');
      await page.getByRole('button', { name: 'Criar campanha' }).click();
    };
    await create('Aviso');
    await page.getByText(/^Fora do horário seguro da empresa/).waitFor();
    await page.getByRole('button', { name: /^Agendar para / }).click();
    await page.getByRole('heading', { name: 'Aviso' }).waitFor();
    await page.locator('[data-mode="scheduled"]', { hasText: 'Agendada' }).waitFor();

    await create('Segundo aviso');
    const choice = page.locator('.choice');
    await choice.first().waitFor();
    if (await page.getByRole('button', { name: /^Agendar para / }).count()) await page.getByRole('button', { name: /^Agendar para / }).click();
    await page.getByText(/^Limite de campanhas simultâneas atingido \(1 de 1\)/).waitFor();
    await page.locator('.choice').getByRole('link', { name: 'Aviso' }).waitFor();
    await audit(page, 'campaign-refused');
    expect(a11y.filter((v) => v.page === 'campaign-refused')).toEqual([]);
  }),
  30_000,
);
