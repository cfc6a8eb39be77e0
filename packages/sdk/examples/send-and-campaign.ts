// A message, then a campaign, with the typed client.
//
//   BASE_URL=http://127.0.0.1:3000 API_KEY=ak_test_… PHONE=+5511987654321 node packages/sdk/examples/send-and-campaign.ts
//
// (Node 22.18 or newer runs TypeScript files as they are; build once first with `npm run build`.)
import { createCarteiroClient, unwrap } from '@carteiro/sdk';

export async function sendAndCampaign(options: { baseUrl: string; apiKey: string; phone: string }) {
  const client = createCarteiroClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });

  // Every call is typed: paths, parameters, bodies and answers come from the OpenAPI document.
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

  const campaign = await unwrap(client.GET('/v1/campaigns/{id}', { params: { path: { id: created.id } } }));
  const messages = await unwrap(client.GET('/v1/campaigns/{id}/messages', { params: { path: { id: created.id }, query: { limit: 50 } } }));
  console.log(`progress ${campaign.progress}%: ${messages.items.map((m) => `${m.clientes.nome} ${m.status}`).join(', ')}`);
  return { limits, sent, created, campaign, messages };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const { BASE_URL = 'http://127.0.0.1:3000', API_KEY, PHONE = '+5511987654321' } = process.env;
  if (!API_KEY) throw new Error('set API_KEY (and BASE_URL, PHONE)');
  await sendAndCampaign({ baseUrl: BASE_URL, apiKey: API_KEY, phone: PHONE });
}
