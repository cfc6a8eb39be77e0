import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { AdminService, hashApiKey, type ManageAgents, type ManageQuickReplies, type ManageTeams } from '@carteiro/core';
import type { Database } from '@carteiro/postgres';

const ADMIN_TOKEN_HASH = 'admin_token_sha256';

/** What a first start created, to print once. */
export interface FirstStartSecrets {
  adminToken: string | null;
  demo: { companyId: string; apiKey: string; setorId: string; agentId?: string; teamId?: string; quickReplyId?: string } | null;
}

/**
 * Resolves the admin token: `ADMIN_TOKEN` when set; otherwise, on an embedded database, a token
 * generated on the first start whose hash is kept in the database (the token itself is shown once);
 * otherwise none, and the admin API answers 404.
 */
export async function resolveAdminToken(
  db: Kysely<Database>,
  configured: string | undefined,
  embedded: boolean,
): Promise<{ hash: string | undefined; generated: string | null }> {
  if (configured) return { hash: hashApiKey(configured), generated: null };
  if (!embedded) return { hash: undefined, generated: null };
  const stored = await db.selectFrom('system_settings').select('value').where('key', '=', ADMIN_TOKEN_HASH).executeTakeFirst();
  if (stored) return { hash: stored.value, generated: null };
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  const inserted = await db
    .insertInto('system_settings')
    .values({ key: ADMIN_TOKEN_HASH, value: hashApiKey(token), updated_at: new Date() })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('value')
    .executeTakeFirst();
  if (inserted) return { hash: inserted.value, generated: token };
  // Another process won the race: its token stands.
  const winner = await db.selectFrom('system_settings').select('value').where('key', '=', ADMIN_TOKEN_HASH).executeTakeFirstOrThrow();
  return { hash: winner.value, generated: null };
}

/**
 * On an empty database: a demo company with an `ak_test_` key holding every scope and one
 * simulated setor, its number already connected so that the first send works at once; with
 * `people_`, the demo's inbox too ({@link seedDemoPeople}).
 */
export async function seedDemo(
  db: Kysely<Database>,
  admin: AdminService,
  connect: (companyId: string, setorId: string) => Promise<void>,
  people_?: DemoPeople,
): Promise<FirstStartSecrets['demo']> {
  const { count } = await db.selectFrom('companies').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  if (count > 0) return null;
  const company = await admin.createCompany({ name: 'Demo Company' });
  const issued = await admin.createApiKey(company.id, { name: 'demo (test mode)', scopes: ['*'], mode: 'test' });
  const setor = await admin.createSetor(company.id, { nome: 'Demo' });
  await connect(company.id, setor.id);
  const people = people_ ? await seedDemoPeople(admin, people_, company.id, setor.id) : {};
  return { companyId: company.id, apiKey: issued.key, setorId: setor.id, ...people };
}

/** The use cases {@link seedDemo} uses for the demo's inbox. */
export interface DemoPeople {
  agents: ManageAgents;
  teams: ManageTeams;
  quickReplies: ManageQuickReplies;
}

/**
 * The demo's inbox (conversations.md §10): an available agent in an auto-assign team holding the
 * demo box (also the box's default team, so inbound tickets get an owner), a quick reply, and CSAT
 * with a closing message on the demo box, so the README tour runs inbound → handoff → reply →
 * close → "5" → ratings.
 */
export async function seedDemoPeople(admin: AdminService, people: DemoPeople, companyId: string, setorId: string) {
  const team = await admin.createTeam(companyId, { nome: 'Atendimento', setorIds: [setorId] });
  const agent = await people.agents.create(companyId, { name: 'Ana Atendente', email: 'ana@demo.example', status: 'available' });
  await people.teams.update(team.id, { agentIds: [agent.id], autoAssign: true, maxOpenPerAgent: 10 });
  const reply = await people.quickReplies.create(companyId, {
    shortcut: 'boas-vindas',
    title: 'Boas-vindas',
    text: 'Olá {{primeiro_nome}}, aqui é {{atendente}}. Seu protocolo é {{protocolo}}. Como posso ajudar?',
  });
  await admin.updateSetor(setorId, {
    inbox: {
      closingMessage: 'Obrigado pelo contato, {{primeiro_nome}}! Protocolo {{protocolo}}.',
      csatEnabled: true,
      csatQuestion: 'Como você avalia o nosso atendimento?',
      csatThanks: 'Obrigado pela avaliação!',
      defaultTeamId: team.id,
    },
  });
  return { agentId: agent.id, teamId: team.id, quickReplyId: reply.id };
}
