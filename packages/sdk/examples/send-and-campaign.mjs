// A message, then a campaign, with the typed client. The campaign is cancelled at the end, so running the
// example leaves nothing behind (a scheduled campaign counts against the company's concurrency limit).
//
//   BASE_URL=http://127.0.0.1:3000 API_KEY=ak_test_… PHONE=+5511987654321 node send-and-campaign.mjs
//
// Plain JavaScript: Node.js 20 runs it as it is wherever @carteiro/sdk is installed (in this repository,
// after `npm run build`). From TypeScript the same calls are typed from the OpenAPI document.
import { pathToFileURL } from 'node:url';
import { createCarteiroClient, unwrap } from '@carteiro/sdk';

/** @param {{ baseUrl: string, apiKey: string, phone: string }} options */
export async function sendAndCampaign(options) {
  const client = createCarteiroClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  const limits = await unwrap(client.GET('/v1/limits'));
  console.log(`daily: ${limits.daily.sent_today}/${limits.daily.limit}, rate limit ${limits.rate_limit.effective_rpm}/min`);

  const sent = await unwrap(client.POST('/v1/messages', { body: { phone: options.phone, message: { text: 'Olá! 👋' } } }));
  console.log(`message ${sent.message_id} sent by ${sent.sender_number}`);

  // An Idempotency-Key makes a retried creation safe: the same key returns the first answer.
  const created = await unwrap(
    client.POST('/v1/campaigns', {
      params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
      body: {
        name: 'Boas-vindas',
        recipients: [
          { phone: options.phone, name: 'Ana Souza' },
          { phone: '+5511987650042', name: 'Bruno' },
        ],
        message: { text: '{{saudacao}}, {{primeiro_nome}}! Seu cadastro está pronto.' },
        // Tomorrow: an immediate campaign outside safe hours would answer 403 SAFE_HOUR_VIOLATION.
        options: { schedule_at: new Date(Date.now() + 86_400_000).toISOString(), anti_ban_level: 'seguro' },
      },
    }),
  );
  console.log(`campaign ${created.id} ${created.status}, ${created.total_recipients} recipients, ${created.execution_mode}`);

  const cancel = () => unwrap(client.POST('/v1/campaigns/{id}/cancel', { params: { path: { id: created.id } } }));
  let campaign;
  let messages;
  try {
    campaign = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id: created.id } } }));
    messages = await unwrap(client.GET('/v1/campaigns/{id}/messages', { params: { path: { id: created.id }, query: { limit: 50 } } }));
    console.log(`progress ${campaign.progress}%: ${messages.items.map((m) => `${m.clientes.nome} ${m.status}`).join(', ')}`);
  } catch (error) {
    await cancel().catch(() => undefined);
    throw error;
  }
  // Clean up: the example's campaign must not stay scheduled.
  const cancelled = await cancel();
  console.log(`campaign ${created.id} cancelled, ${cancelled.cancelled} pending messages skipped`);
  return { limits, sent, created, campaign, messages, cancelled };
}

// Run as a script, not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { BASE_URL = 'http://127.0.0.1:3000', API_KEY, PHONE = '+5511987654321' } = process.env;
  if (!API_KEY) throw new Error('set API_KEY (and BASE_URL, PHONE)');
  await sendAndCampaign({ baseUrl: BASE_URL, apiKey: API_KEY, phone: PHONE });
}
