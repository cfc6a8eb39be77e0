import { describe, expect, it } from '@jest/globals';
import { MessagingWorld } from '../testing/messaging-world.js';
import { pickSender, resolveSenderPool, selectionMode } from './sender-pool.js';

const code = (c: string) => expect.objectContaining({ code: c });

describe('selectionMode (exclusivity)', () => {
  it('answers the one mode chosen', () => {
    expect(selectionMode({})).toBe('auto');
    expect(selectionMode({ setorId: 'a', multiNumber: false })).toBe('single');
    expect(selectionMode({ multiNumber: true })).toBe('multi_number');
    expect(selectionMode({ teamId: 't' })).toBe('team');
    expect(selectionMode({ setorIds: ['00000000-0000-4000-8000-000000000001'] })).toBe('setor_ids');
  });

  it.each([
    [{ multiNumber: true, setorId: 'a' }],
    [{ multiNumber: true, setorIds: ['00000000-0000-4000-8000-000000000001'] }],
    [{ multiNumber: true, teamId: 't' }],
    [{ setorIds: ['00000000-0000-4000-8000-000000000001'], teamId: 't' }],
    [{ setorId: 'a', teamId: 't' }],
  ])('refuses %p with 400', (selection) => {
    expect(() => selectionMode(selection)).toThrow(code('VALIDATION_ERROR'));
  });

  it('refuses empty or malformed setor_ids', () => {
    expect(() => selectionMode({ setorIds: [] })).toThrow(code('VALIDATION_ERROR'));
    expect(() => selectionMode({ setorIds: ['nope'] })).toThrow(code('VALIDATION_ERROR'));
  });
});

describe('resolveSenderPool', () => {
  it('auto-selects the connected boxes, only the oldest without multi-number', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    await world.box(company, { connected: false });
    const a = await world.box(company);
    const b = await world.box(company);
    const pool = await resolveSenderPool(world.repos, company, {});
    expect(pool.boxes.map((x) => x.setor.id)).toEqual([a.id, b.id]);
    const single = await world.company({ multiNumberEnabled: false });
    const c = await world.box(single);
    await world.box(single);
    expect((await resolveSenderPool(world.repos, single, {})).boxes.map((x) => x.setor.id)).toEqual([c.id]);
  });

  it('answers 404 when no box of the company is connected', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    await world.box(company, { connected: false });
    await expect(resolveSenderPool(world.repos, company, {})).rejects.toThrow(code('NOT_FOUND'));
  });

  it('answers 404 for a missing box, another company box, or a box without a connected instance', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const other = await world.company();
    const foreign = await world.box(other);
    const offline = await world.box(company, { connected: false });
    const bare = await world.box(company, { instance: false });
    for (const setorId of [foreign.id, offline.id, bare.id, world.ids.newId(), 'not-a-uuid']) {
      await expect(resolveSenderPool(world.repos, company, { setorId })).rejects.toThrow(code('NOT_FOUND'));
    }
    await expect(resolveSenderPool(world.repos, company, { setorIds: [foreign.id] })).rejects.toThrow(code('NOT_FOUND'));
    await expect(resolveSenderPool(world.repos, company, { teamId: world.ids.newId() })).rejects.toThrow(code('NOT_FOUND'));
  });

  it('keeps the connected boxes of setor_ids and of a team', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const a = await world.box(company);
    const off = await world.box(company, { connected: false });
    const b = await world.box(company);
    expect((await resolveSenderPool(world.repos, company, { setorIds: [b.id, off.id, a.id, b.id] })).boxes.map((x) => x.setor.id)).toEqual([b.id, a.id]);
    const team = await world.team(company, [off, b]);
    expect((await resolveSenderPool(world.repos, company, { teamId: team.id })).boxes.map((x) => x.setor.id)).toEqual([b.id]);
    const offTeam = await world.team(company, [off]);
    await expect(resolveSenderPool(world.repos, company, { teamId: offTeam.id })).rejects.toThrow(code('NOT_FOUND'));
  });

  it('answers 403 MULTI_NUMBER_DISABLED for pool modes without the feature', async () => {
    const world = new MessagingWorld();
    const company = await world.company({ multiNumberEnabled: false });
    const a = await world.box(company);
    const team = await world.team(company, [a]);
    for (const selection of [{ multiNumber: true }, { setorIds: [a.id] }, { teamId: team.id }]) {
      await expect(resolveSenderPool(world.repos, company, selection)).rejects.toThrow(code('MULTI_NUMBER_DISABLED'));
    }
    expect((await resolveSenderPool(world.repos, company, { setorId: a.id })).boxes).toHaveLength(1);
  });
});

describe('pickSender', () => {
  it('rotates through the pool with the shared cursor', async () => {
    const world = new MessagingWorld();
    const company = await world.company();
    const a = await world.box(company);
    const b = await world.box(company);
    const c = await world.box(company);
    const pool = await resolveSenderPool(world.repos, company, { multiNumber: true });
    const picks = [];
    for (let i = 0; i < 6; i += 1) picks.push((await pickSender(pool, world.repos.rotationCursors, world.clock.now())).setor.id);
    expect(picks).toEqual([a.id, b.id, c.id, a.id, b.id, c.id]);
  });
});
