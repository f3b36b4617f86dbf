/**
 * GET /api/admin/users (search and pages) and GET /api/admin/stats: admins and auditors (read-only).
 *
 * The list is answered by indexed queries on the users read model: a search is a prefix of the
 * normalised email, username, full name or last name (one index range each), newest first by the
 * createdAt index, so a page costs about the same with 10,000 or 100,000 users (bench/admin.bench.ts).
 * The body stays the spec's array of users; the total of matches is in X-Total-Count.
 * As CSV (?format=csv or Accept: text/csv, ../csv.ts): the page asked for, or without page/pageSize
 * every user matching the search and filters, newest first, up to CSV_MAX_ROWS (read 1,000 a query).
 */
import Router from '@koa/router';
import { adminUsersQuerySchema, type AdminUser } from '@papertrade/domain/admin/contracts';
import { ADMIN_STATS_ID, ADMIN_STATS_PROJECTION, adminStatsAt, type AdminStatsView } from '@papertrade/domain/admin/admin-stats-view';
import { USERS_PROJECTION, USER_SEARCH_FIELDS, normaliseSearch, toMe, type UserView } from '@papertrade/domain/auth/user-view';
import { ValidationError } from '@papertrade/domain/shared/errors';
import type { Collection, PrefixFilter, Scalar } from '@papertrade/platform/document-store/document-store';
import { requireAdminOrAuditor } from '@papertrade/platform/auth/guards';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import { describeZodError } from '@papertrade/platform/http/problem-middleware';
import type { QueryApiDeps } from '../deps';
import { csvFilename, pageAsked, readWholeList, sendCsv, wantsCsv } from '../csv';

/** Indexes the list needs; ensureIndex is a no-op after the first call per store. */
async function indexed(users: Collection<UserView>): Promise<void> {
  await Promise.all([...USER_SEARCH_FIELDS.map((field) => users.ensureIndex(field, 'prefix')), users.ensureIndex('createdAt', 'sort')]);
}

export const ADMIN_USERS_CSV_FIELDS = ['id', 'username', 'email', 'firstName', 'lastName', 'subscriptionTier', 'subscriptionStatus', 'isAdmin', 'isAuditor', 'createdAt'] as const;

const userRow = (u: AdminUser) => [u.id, u.username, u.email, u.firstName, u.lastName, u.subscriptionTier, u.subscriptionStatus, u.isAdmin, u.isAuditor ?? false, u.createdAt];

export function adminRoutes(deps: QueryApiDeps): Router {
  const router = new Router();
  // An admin's edits are their own writes (on the edited user's streams): the lists show them at once.
  const readsFrom = readsOwnWrites(deps.ownWrites);

  /**
   * The unfiltered list's total is the counters document's totalUsers (one read) rather than a count
   * of every user on each page turn; both projections count the same UserRegistered events. Before
   * the counters exist (a fresh rebuild), the users are counted.
   */
  const unfilteredTotal = async (users: Collection<UserView>) => {
    const counters = await (await deps.readModels.collection<AdminStatsView>(ADMIN_STATS_PROJECTION)).get(ADMIN_STATS_ID);
    return counters ? counters.totalUsers : users.count();
  };

  router.get('/api/admin/users', requireAdminOrAuditor, readsFrom(USERS_PROJECTION), async (ctx) => {
    const query = adminUsersQuerySchema.safeParse(ctx.query);
    if (!query.success) throw new ValidationError(describeZodError(query.error));
    const { q, page, pageSize, tier, status, format } = query.data;
    const users = await deps.readModels.collection<UserView>(USERS_PROJECTION);
    await indexed(users);
    const where: Record<string, Scalar> = {};
    if (tier) where.subscriptionTier = tier;
    if (status) where.subscriptionStatus = status;
    const term = normaliseSearch(q ?? '');
    const prefix: PrefixFilter | undefined = term ? { fields: [...USER_SEARCH_FIELDS], value: term } : undefined;
    const read = (skip: number, limit: number) => users.find({ where, ...(prefix ? { prefix } : {}), sort: [{ field: 'createdAt', direction: 'desc' }], limit, skip });
    const whole = wantsCsv(ctx, format) && !pageAsked(ctx);
    const [list, total] = await Promise.all([
      whole ? readWholeList(read) : read((page - 1) * pageSize, pageSize),
      prefix || tier || status ? users.count(where, undefined, prefix) : unfilteredTotal(users),
    ]);
    if (wantsCsv(ctx, format)) {
      sendCsv(ctx, {
        filename: csvFilename('users', deps.clock(), whole ? undefined : page),
        fields: ADMIN_USERS_CSV_FIELDS,
        rows: list.map(toMe).map(userRow),
        total,
        truncated: whole && total > list.length,
      });
      return;
    }
    ctx.set('X-Total-Count', String(total));
    ctx.body = list.map(toMe);
  });

  router.get('/api/admin/stats', requireAdminOrAuditor, readsFrom(ADMIN_STATS_PROJECTION), async (ctx) => {
    const stats = await deps.readModels.collection<AdminStatsView>(ADMIN_STATS_PROJECTION);
    ctx.body = adminStatsAt(await stats.get(ADMIN_STATS_ID), deps.clock());
  });
  return router;
}
