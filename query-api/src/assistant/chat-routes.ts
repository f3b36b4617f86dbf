/**
 * POST /api/ai-chat (issue 20; contract in domain/src/assistant/contracts.ts): a question and the
 * conversation's last messages in, the answer and the facts it used out.
 *
 * Why query-api, and a POST: the chat only reads (it appends no event), and everything it reads is
 * here: the read models through the read cache, the market-data port, the own-writes wait. It is a POST
 * because the question and the history are a body (they would not fit a query string, and would land
 * in access logs there). The gateway sends this one path to query-api whatever the method
 * (deploy/nginx/gateway.conf); the embedded app mounts query-api's routes first.
 *
 * In order: premium (401 for visitors and bad tokens, 403 'Premium subscription required'), the JSON
 * body (413 above 100 kB, 400 for malformed JSON, `__proto__` keys, unknown fields, a message over the
 * limit or empty, a history over 5 messages, NUL and other control characters), the per-user rate limit
 * (429 with Retry-After), then the caller's own last write (so a question right after a trade sees it),
 * then the ChatModel with the caller's toolbox. A model that fails answers 502 (504 when it timed out)
 * with the spec's failure text. Nothing is stored: the conversation stays in the caller's browser.
 */
import Router from '@koa/router';
import { chatRequestSchema, type ChatResponse } from '@papertrade/domain/assistant/contracts';
import { currentUser, requirePremium } from '@papertrade/platform/auth/guards';
import { jsonBody, parseBody } from '@papertrade/platform/http/body';
import { readsOwnWrites } from '@papertrade/platform/http/own-writes';
import { readFreshness } from '@papertrade/platform/http/read-freshness';
import type { QueryApiDeps } from '../deps';
import { ASSISTANT_OWN_PROJECTIONS, assistantTools } from './assistant-tools';

export const AI_CHAT_PATH = '/api/ai-chat';

export function chatRoutes(deps: Pick<QueryApiDeps, 'readModels' | 'readCache' | 'marketData' | 'clock' | 'apiCalls' | 'ownWrites' | 'chat' | 'chatLimit'>): Router {
  const router = new Router();
  const toolsFor = assistantTools(deps);
  const reads = readsOwnWrites(deps.ownWrites);

  router.post(
    AI_CHAT_PATH,
    requirePremium,
    jsonBody,
    async (ctx, next) => {
      ctx.state.chatRequest = parseBody(ctx, chatRequestSchema);
      await deps.chatLimit.spend(currentUser(ctx).id);
      await next();
    },
    reads(...ASSISTANT_OWN_PROJECTIONS),
    async (ctx) => {
      const { message, history = [] } = ctx.state.chatRequest as ReturnType<typeof chatRequestSchema.parse>;
      const reply = await deps.chat.reply({ message, history, tools: toolsFor(currentUser(ctx), readFreshness(ctx)) });
      const body: ChatResponse = { response: reply.response, facts: reply.facts, intent: reply.intent, assistant: deps.chat.kind };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  );

  return router;
}
